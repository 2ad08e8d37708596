"""What the referee knows of an agent before it plays: reported by a player, as data.

Concepts:
- locate(reference): the agent's file, or the folder a module reference's package lies in,
  found without running any of its code.
- describe(game, reference, isolation): a fresh child of a player server reads the agent's
  module and reports its name, help line, declared options and the library modules reading
  it read (the server's warm list); the referee never imports agent code. Kept per file
  state, so a study describes each agent once.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import time
from pathlib import Path

from logic_agents.errors import AgentUnreadable, UsageError, innermost_at
from logic_agents.ground.shapes import Record
from logic_agents.referee import protocol
from logic_agents.referee.clock import DEFAULT_CAPS, Caps
from logic_agents.referee.dump import dumped_frames, own_folders
from logic_agents.referee.isolation import Isolation
from logic_agents.referee.players import PlayerServer
from logic_agents.referee.wire import Channel, WireError
from logic_agents.world.agents import names_a_file, what_is_there


def locate(reference: str) -> tuple[str | None, list[str]]:
    """(the agent file, absolute) or (None, [the folder a module reference's package is in]).

    Found without running the module: find_spec of a top-level name imports nothing.
    """
    module_text, _, _ = reference.rpartition(":")
    if names_a_file(module_text):
        path = Path(module_text)
        if not path.is_file():
            raise UsageError(f"--agent {reference}: no such file {module_text}"
                             f"{what_is_there(path)}")
        return str(path.resolve()), []

    top = module_text.split(".")[0]
    try:
        found = importlib.util.find_spec(top) if top.isidentifier() else None
    except (ImportError, ValueError):
        found = None
    if found is None or found.origin in (None, "built-in", "frozen"):
        return None, []
    origin = Path(found.origin).resolve()
    root = origin.parent.parent if origin.name == "__init__.py" else origin.parent
    return None, [str(root)]


def describe(game: str, reference: str, isolation: Isolation, caps: Caps = DEFAULT_CAPS
             ) -> Record:
    """What a player reports of the agent `reference`: {name, help, options} (data only).

    Raises:
        AgentUnreadable: the module does not read (its words and kind), or not within the
            import cap (kind Timeout), or its process died reading it (ProcessDied).
        UsageError: there is no such file, or its player could not start.
    """
    # what a player reports depends on the agent's file (its stamp) and on what may stop its
    # reading (the isolation, the memory cap); a file that does not read is kept too: a
    # study asks twice, and a hang costs a cap
    described = _described(game, reference, _stamp(reference), isolation.tool(), isolation,
                           caps.memory_cap)
    if isinstance(described, AgentUnreadable):
        raise AgentUnreadable(str(described), described.kind)
    return dict(described)


@functools.cache
def _described(game: str, reference: str, stamp: tuple[int, ...], tool: str | None,
               isolation: Isolation, memory_cap: int | None) -> Record | AgentUnreadable:
    """What a fresh player says of the agent, or why its module does not read (kept)."""
    file, paths = locate(reference)
    try:
        server = PlayerServer(game, reference, file, paths, Caps(memory_cap=memory_cap),
                              isolation, [])
        try:
            return _loaded(server, reference, isolation.import_timeout,
                           own_folders(file, paths), _source(file))
        finally:
            server.stop()
    except AgentUnreadable as e:
        return e


def forget() -> None:
    """Forget what was described (describing was stopped: what it met then is no verdict)."""
    _described.cache_clear()


def _source(file: str | None) -> list[str]:
    """The file whose lines a dump may quote: the agent's own, resolved here.

    A module reference's frames are shown without their text.
    """
    return [file] if file else []


def _loaded(server: PlayerServer, reference: str, limit: float, own: list[str],
            sources: list[str]) -> Record:
    """What a fresh child of `server` says of the agent once it has read its module."""
    with server.fork() as game:
        channel = Channel(game.fileno(), game.fileno())
        try:
            channel.send(protocol.Load())
            answer = channel.receive((protocol.Loaded, protocol.Refused),
                                     time.monotonic() + limit)
        except WireError as e:
            if e.timeout:
                at = innermost_at(dumped_frames(server.where_now(), own, sources),
                                  callers=True)
                raise AgentUnreadable(f"--agent {reference}: reading it took more than "
                                      f"{limit:g} s (the import cap); its process was killed"
                                      + (f"; it was at {at}" if at else ""),
                                      "Timeout") from None
            if not e.closed:  # what the player sent is not what it may send here
                server.stop()
                raise AgentUnreadable(f"--agent {reference}: its player broke the protocol "
                                      f"while reading it ({e})", "ProtocolError") from None
            raise AgentUnreadable(f"--agent {reference}: the player process ended while "
                                  f"reading it ({server.ended() or 'it exited'})",
                                  "ProcessDied") from None
    if isinstance(answer, protocol.Refused):
        raise AgentUnreadable(answer.message[:2000], answer.kind[:80] or "UsageError")
    described = protocol.record(answer)
    del described["op"]
    return described




def _stamp(reference: str) -> tuple[int, ...]:
    module_text = reference.rpartition(":")[0]
    with contextlib.suppress(OSError):
        status = os.stat(module_text)
        return (status.st_size, status.st_mtime_ns)
    return ()
