"""The referee-player protocol's error paths, on socket pairs, in milliseconds (issue 66).

Every message is a class; one validator (protocol.parse) makes a received record the message
its `op` names, only where that message is allowed, every field present with its declared
type and none more. Both ends are driven here directly: the game's player (what it does with
orders it cannot follow) and the referee's RemoteAgent (its verdict on each kind of answer a
hostile player can send), no process started, no study played.
"""

from __future__ import annotations

import dataclasses
import socket
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import AgentFailed
from logic_agents.referee import protocol
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.player import GamePlayer
from logic_agents.referee.remote import RemoteAgent
from logic_agents.referee.wire import HEADER, Channel, WireError, encode
from logic_agents.world.registry import get_game

from .conftest import ROOT

SAMPLES = {
    protocol.Serve: protocol.Serve("daggers", None, "a.py:A", "/x/a.py", [], "/x", 256, True,
                                   None, ["json"]),
    protocol.Fork: protocol.Fork(), protocol.Dump: protocol.Dump(),
    protocol.Sweep: protocol.Sweep(), protocol.Bye: protocol.Bye(),
    protocol.Serving: protocol.Serving(), protocol.Forked: protocol.Forked(),
    protocol.Dumped: protocol.Dumped(), protocol.Swept: protocol.Swept(),
    protocol.Exited: protocol.Exited(-9),
    protocol.Load: protocol.Load(), protocol.Begin: protocol.Begin("g", {"depth": 3}, 7),
    protocol.Reset: protocol.Reset("g", None), protocol.Act: protocol.Act("g", 3, {"x": 1}, False),
    protocol.End: protocol.End("g"), protocol.Close: protocol.Close("g"),
    protocol.Refused: protocol.Refused("no", "SyntaxError"),
    protocol.Loaded: protocol.Loaded("a", "help", [{"name": "depth"}], ["json"]),
    protocol.Ok: protocol.Ok("g"),
    protocol.Failed: protocol.Failed("g", 2, "act", "ValueError", "bad", "frames"),
    protocol.Action: protocol.Action("g", 2, {"kind": "probe", "cell": [0, 1]}, {"text": "x"},
                                     None),
    protocol.Ended: protocol.Ended("g", None, protocol.Failed("g", 0, "stats", "E", "m"), None),
}


def test_every_message_round_trips_through_its_record():
    assert set(SAMPLES) == set(protocol.MESSAGES)
    for kind, message in SAMPLES.items():
        assert protocol.parse(protocol.record(message), (kind,)) == message


@pytest.mark.parametrize("data, words", [
    ([1, 2], "a JSON object, not list"),
    ({"op": "launch"}, "'launch' where"),
    ({"op": "ok", "game_id": "g"}, "'ok' where 'action' or 'failed' was due"),
    ({"op": "action", "game_id": "g", "step": 1}, "action without its action"),
    ({"op": "action", "game_id": "g", "step": True, "action": None}, "action.step is a whole"),
    ({"op": "action", "game_id": "g", "step": "1", "action": None}, "action.step is a whole"),
    ({"op": "action", "game_id": 5, "step": 1, "action": None}, "action.game_id is text"),
    ({"op": "action", "game_id": "g", "step": 1, "action": None, "why": []}, "action.why is an"),
    ({"op": "action", "game_id": "g", "step": 1, "action": None, "score": 99},
     "a field it has no place for ('score')"),
    ({"op": "action", "game_id": "g", "step": 1, "action": None,
      "why_failed": {"op": "ok", "game_id": "g"}}, "'ok' where 'failed' was due"),
])
def test_what_is_not_a_message_allowed_here_is_refused_in_words(data, words):
    with pytest.raises(protocol.ProtocolError, match=words.replace("(", r"\(").replace(")", r"\)")):
        protocol.parse(data, (protocol.Action, protocol.Failed))


@settings(deadline=None, max_examples=300)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12),
       st.sampled_from(protocol.MESSAGES))
def test_any_json_is_a_message_or_a_protocol_error_never_anything_else(data, kind):
    try:
        message = protocol.parse(data, (kind,))
    except protocol.ProtocolError:
        return
    assert isinstance(message, kind) and protocol.record(message) == {**data, **protocol.record(
        message)}


# -- the game's player, on a socket pair --------------------------------------------------------
def _player(reference: str = f"{ROOT / 'examples' / 'my_agent.py'}:MyAgent"):
    ours, theirs = socket.socketpair()
    serve = dataclasses.replace(SAMPLES[protocol.Serve], reference=reference,
                                file=reference.rpartition(":")[0], sandboxed=False)
    player = GamePlayer(Channel(theirs.fileno(), theirs.fileno()), serve, get_game("daggers"))
    thread = threading.Thread(target=player.serve, daemon=True)
    thread.start()
    return Channel(ours.fileno(), ours.fileno(), limit=1 << 30), thread, (ours, theirs)


def test_a_player_answers_an_order_out_of_turn_as_data():
    channel, thread, sockets = _player()
    channel.send(protocol.Act("g", 1, {}, True))  # before any Begin: no agent
    answer = channel.receive((protocol.Failed,), time.monotonic() + 10)
    assert answer.kind == "ProtocolError" and "no agent was built" in answer.message
    channel.send(protocol.Begin("g", {"no_such_option": 1}, 3))
    answer = channel.receive((protocol.Failed,), time.monotonic() + 10)
    assert answer.where == "__init__" and "takes no arguments" in answer.message
    channel.send(protocol.Close("g"))
    assert channel.receive((protocol.Ok,), time.monotonic() + 10) == protocol.Ok("g")
    thread.join(10)
    assert not thread.is_alive()  # after close, the child's game is over
    for s in sockets:
        s.close()


@pytest.mark.parametrize("frame", [
    HEADER.pack(5) + b"[1,2]",  # not an object
    HEADER.pack(16) + b'{"op":"serve!!"}',  # no such order
    encode(protocol.Ok("g")),  # an answer, where an order is due
])
def test_a_player_sent_what_is_not_an_order_ends_its_game(frame):
    channel, thread, sockets = _player()
    sockets[0].sendall(frame)
    thread.join(10)
    assert not thread.is_alive()  # its serve() returned: the child exits
    with pytest.raises(BlockingIOError):
        sockets[0].recv(1, socket.MSG_DONTWAIT)  # nothing answered
    for s in sockets:
        s.close()


# -- the referee's verdicts on a hostile player's answers ---------------------------------------
class _Server:
    """What a RemoteAgent asks of its server, recorded."""

    def __init__(self):
        self.stopped = self.swept = 0

    def sweep(self) -> None:
        self.swept += 1

    def ended(self) -> str:
        return "exit code 9"

    def stop(self) -> None:
        self.stopped += 1

    def alive(self) -> bool:
        return False

    def where_now(self) -> str:
        return ""


class _Factory:
    file, paths, game = None, [], "daggers"

    def source_file(self):
        return None


def _remote(answer):
    """A RemoteAgent whose player answers each order with `answer(order)` (bytes to send, or
    None to hang up)."""
    ours, theirs = socket.socketpair()
    server = _Server()
    clock = Clock(Caps(move_timeout=0.5, game_timeout=None, memory_cap=None))
    agent = RemoteAgent(_Factory(), server, ours, clock, "hostile")
    agent.start({})

    def play():
        channel = Channel(theirs.fileno(), theirs.fileno(), limit=1 << 30)
        while True:
            try:
                order = channel.receive(protocol.GAME_ORDERS)
            except WireError:
                return
            reply = answer(order, agent.game_id)
            if reply is None:
                theirs.close()
                return
            if reply:
                theirs.sendall(reply)

    threading.Thread(target=play, daemon=True).start()
    return agent, server


@pytest.mark.parametrize("reply, verdict, words", [
    (lambda o, g: encode(protocol.Ok("another-game")), "ProtocolError", "another game or step"),
    (lambda o, g: encode(protocol.Action(g, 2, None)) if o.op == "act" else
     encode(protocol.Ok(g)), "ProtocolError", "instead of step 1"),
    (lambda o, g: encode(protocol.Ended(g)) if o.op == "act" else encode(protocol.Ok(g)),
     "ProtocolError", "'ended' where 'action' or 'failed' was due"),
    (lambda o, g: HEADER.pack(9) + b'{"op":"x"' if o.op == "act" else encode(protocol.Ok(g)),
     "ProtocolError", "not JSON"),
    (lambda o, g: HEADER.pack(1 << 24) if o.op == "act" else encode(protocol.Ok(g)),
     "ProtocolError", "over the"),
    (lambda o, g: encode(protocol.Failed(g, 1, "act", "ZeroDivisionError", "boom"))
     if o.op == "act" else encode(protocol.Ok(g)), "ZeroDivisionError", "boom"),
    (lambda o, g: None if o.op == "act" else encode(protocol.Ok(g)), "ProcessDied",
     "exit code 9"),
    (lambda o, g: b"" if o.op == "act" else encode(protocol.Ok(g)), "Timeout", "move cap"),
])
def test_each_verdict_on_a_hostile_answer_is_the_agents_failure_in_words(reply, verdict, words):
    agent, server = _remote(reply)
    if verdict == "ProtocolError" and "another game" in words:
        with pytest.raises(AgentFailed) as raised:
            agent.reset(1)
    else:
        agent.reset(1)
        with pytest.raises(AgentFailed) as raised:
            agent.act(_observation())
    failure = raised.value
    assert failure.kind == verdict or verdict == "Timeout" and failure.timeout, failure
    assert words in failure.message, failure.message
    if verdict in ("ProtocolError", "Timeout"):  # a player in breach or mid-call is lost
        assert server.stopped >= 1
    if verdict == "ProcessDied":
        assert server.swept == 1


def _observation():
    from logic_agents.games.daggers import load
    from logic_agents.games.daggers.world import DaggersWorld

    world = DaggersWorld(load(ROOT / "maps" / "daggers" / "2018" / "EASY1.txt"))
    return world.reset(seed=0)[0]


def test_the_referee_keeps_no_module_level_mutable_state():
    """Issue 66 found process ownership in seven module-level registries (OWNED, PLAYERS,
    STALE_SWEPT, two servers' and two hand-made caches). What a referee process owns is one
    Owner (referee.owner.owner(), a pid's own); a cache is functools.cache. A module may hold
    constant tables only (named here)."""
    import ast

    constants = {("protocol.py", "BY_OP"), ("clock.py", "_WHERE_AT"),
                 ("leftovers.py", "IPC_KINDS")}  # tables read, never written
    found = []
    for path in sorted((ROOT / "logic_agents" / "referee").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) and node.value else []
            value = getattr(node, "value", None)
            mutable = isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp,
                                         ast.ListComp, ast.SetComp)) or \
                isinstance(value, ast.Call) and getattr(value.func, "id", "") in (
                    "dict", "list", "set", "OrderedDict", "defaultdict")
            for target in targets:
                name = getattr(target, "id", "")
                if mutable and (path.name, name) not in constants:
                    found.append(f"{path.name}: {name}")
    assert not found, found
