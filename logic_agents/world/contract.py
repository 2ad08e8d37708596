"""check_game(name): the whole contract of a registered game, as Gymnasium's check_env is an env's.

`logic-agents games --check [NAME]` runs it on any game, plug-ins included.

Concepts (one CheckResult each; a failing check says what is wrong, in one line):
- spec: the default agent is registered; the example resolves to an instance; agents'
  factories make agents that have reset() and act().
- instance: the example instance has a `.name` (a printable one-line str); the instance codec
  round-trips: instances.parse(instances.format(x)) == x (the example and the sample), and
  formats again to the same text.
- world: check_world with the default agent on the example: shapes, determinism per seed,
  frozen observations that hold no reference to the hidden state, illegal actions refused
  with IllegalAction and changing nothing, a typed outcome whenever a step terminates.
- actions: every action the default agent played round-trips through the action codec
  (actions.from_json of what a trace writes).
- observations: with an Observations capability, every observation of the default agent's
  game crosses as data (JSON) and is decoded to an equal observation, as it must to reach an
  agent in a player process (referee.remote).
- plays: the default agent plays the example to an end through run_episode, the loop every
  verb uses, without an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text

from logic_agents.errors import LogicAgentsError
from logic_agents.ground.inputs import is_file, read_text, shorten
from logic_agents.ground.shapes import Record
from logic_agents.world.check import check_world
from logic_agents.world.core import Outcome
from logic_agents.world.guard import CHECK_LIMIT_S, SNIFF_LIMIT_S, limit_of, plugin_code
from logic_agents.world.import_cost import import_cost
from logic_agents.world.outcomes import finished
from logic_agents.world.registry import entry_point_of, games, get_game, import_notes, origin
from logic_agents.world.resolve import locate, resolve
from logic_agents.world.runner import run_episode
from logic_agents.world.seat import missing_members
from logic_agents.world.spec import Detection, GameSpec, Observations
from logic_agents.world.trace import to_jsonable
from logic_agents.world.values import Instance
from logic_agents.world.view import BoardView, Tile, View


@dataclass(frozen=True)
class CheckResult:
    """One check of a game: its name, whether it passed, and why not."""

    name: str
    passed: bool
    detail: str = ""  # what failed, in one line; empty when passed


@dataclass
class GameCheck:
    """Every check of one game, in order."""

    game: str
    results: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return all(r.passed for r in self.results)

    def to_dict(self) -> Record:
        """The checks as `games --check --json` prints them."""
        return {"game": self.game, "ok": self.ok,
                "checks": [{"name": r.name, "passed": r.passed, "detail": r.detail}
                           for r in self.results]}


CHECKS = ("load", "spec", "instance", "world", "actions", "observations", "presentation",
          "detection", "plays")


def check_game(game: str | GameSpec, seeds: tuple[int, ...] = (0, 1),
               progress: Callable[[int], None] = lambda index: None,
               limit: float = CHECK_LIMIT_S) -> GameCheck:
    """Run every check on a game (its name or its GameSpec).

    It never raises for the game's faults: each becomes a failed CheckResult with its
    reason. A plug-in's checks run under the plug-in guard (world.guard), `limit` seconds
    each; `progress(i)` is told before the i-th check starts (a supervisor that must kill a
    check stuck in C names it).
    """
    spec = game if isinstance(game, GameSpec) else get_game(game)
    report = GameCheck(spec.name)
    state: Record = {}
    seconds = limit_of(_origin(spec), limit)
    checks = {"load": _load, "spec": _spec, "instance": _instance, "world": _world,
              "actions": _actions, "observations": _observations,
              "presentation": _presentation, "detection": _detection, "plays": _plays}
    for index, name in enumerate(CHECKS):
        progress(index)
        if name not in ("load", "spec") and any(
                not r.passed for r in report.results if r.name == "spec"):
            report.results.append(CheckResult(name, False, "not run: the spec check failed"))
            continue
        if any(r.detail.startswith(f"the {r.name} check ran past") for r in report.results):
            report.results.append(CheckResult(name, False, "not run: an earlier check ran "
                                              "past its limit"))
            continue
        try:
            with plugin_code(f"the {name} check", seconds, passes=(AssertionError,
                                                                   LogicAgentsError)):
                checks[name](spec, state, seeds)
        except (AssertionError, LogicAgentsError) as e:  # the game's fault: this check's result
            report.results.append(CheckResult(name, False, _line(e)))
        else:
            report.results.append(CheckResult(name, True))
    return report


def _origin(spec: GameSpec) -> str:
    try:
        return origin(spec.name) if get_game(spec.name) is spec else "runtime"
    except LogicAgentsError:
        return "runtime"


def _load(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    notes = list(import_notes(spec.name))
    entry = entry_point_of(spec.name)
    if entry is not None:  # what every command pays to import it (world.import_cost)
        heavy = import_cost(entry.partition(":")[0]).words()
        if heavy:
            notes.append(heavy)
    if notes:
        raise AssertionError("; ".join(notes))


def _line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text[:400]


def _spec(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    if spec.default_agent not in spec.playing_agents():
        raise AssertionError(f"default agent {spec.default_agent!r} is not one of its agents "
                             f"({', '.join(spec.playing_agents())})")
    if not spec.example:
        raise AssertionError("the spec names no example instance (`example`)")
    _, instances = resolve(spec.example, spec)
    state["instance"] = instances[0]
    for name in spec.playing_agents():
        agent = spec.make_agent(name)
        for method in missing_members(agent):
            raise AssertionError(f"agent {name!r} has no {method}()")
        state.setdefault("agents", []).append(name)


def _instance(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    instance = state["instance"]
    name = instance.name if isinstance(instance, Instance) else None
    if not isinstance(name, str) or not name or not name.isprintable():
        raise AssertionError(f"an instance's .name must be a printable one-line str, not "
                             f"{name!r}")
    codec = spec.instances
    text = codec.format(instance)
    back = codec.parse(text, "<check>")
    if back != instance:
        raise AssertionError("instances.parse(instances.format(x)) differs from x")
    if codec.format(back) != text:
        raise AssertionError("instances.format of the parsed instance gives another text")
    sample = codec.sample()
    if codec.parse(codec.format(sample), "<check>") != sample:
        raise AssertionError("the sample instance does not round-trip through the codec")


def _world(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    instance = state["instance"]
    check_world(lambda: spec.make_world(instance), lambda: spec.make_agent(spec.default_agent),
                spec.actions.illegal, seeds=seeds)


def _actions(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    played, _ = _recorded(spec, state, seeds[0])
    for action in played:
        written = to_jsonable(action)
        back = spec.actions.from_json(written)
        if back != action:
            raise AssertionError(f"action {action!r} was written as {written!r} and read back "
                                 f"as {back!r}")


def _observations(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    codec = spec.get(Observations)
    if codec is None:
        return  # its agents play in-process only (trusted): nothing to cross
    _, seen = _recorded(spec, state, seeds[0])
    for step, obs in enumerate(seen):
        record = codec.encode(obs)
        if not isinstance(record, dict):
            raise AssertionError(f"Observations.encode gave a {type(record).__name__}, not a "
                                 "dict")
        back = codec.decode(json.loads(json.dumps(record, allow_nan=False)))
        if back != obs:
            raise AssertionError(f"the observation of step {step} decodes to another "
                                 "observation (Observations.decode(encode(obs)) != obs)")


def _presentation(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    """What a person sees, for the observations of the default agent's game.

    `render` gives text, View.board a board of rows x cols tiles, Controls.act an action or
    None.
    """
    _, seen = _recorded(spec, state, seeds[0])
    view = spec.get(View)
    for obs in [*seen[:: max(1, len(seen) // 4)], seen[-1]]:
        with plugin_code("render", passes=(AssertionError,)):
            shown = spec.render(obs)
        if not isinstance(shown, (str, Text)):
            raise AssertionError(f"render returned {type(shown).__name__}, not a str or rich "
                                 "Text")
        if view is None:
            continue
        with plugin_code("View.board"):
            board = view.board(obs)
        if not isinstance(board, BoardView):
            raise AssertionError(f"View.board returned {type(board).__name__}, not a BoardView")
        if len(board.tiles) != board.rows * board.cols or not all(
                isinstance(tile, Tile) for tile in board.tiles):
            raise AssertionError(f"View.board gave {len(board.tiles)} tiles for a "
                                 f"{board.rows}x{board.cols} board (one Tile each)")
        if view.controls is not None:
            with plugin_code("Controls.act"):
                cell = view.controls.cursor(obs) if view.controls.cursor else (0, 0)
                for key in ("primary", "secondary"):
                    view.controls.act(obs, cell, key)


def _detection(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    """The sniff answers 0, 1 or 2, in time, and claims the game's own example file.

    It claims no file of another game that its reader cannot read.
    """
    detection = spec.get(Detection)
    if detection is None:
        return
    limit = limit_of(_origin(spec), SNIFF_LIMIT_S)

    def sniff(text: str, file: str) -> int:
        with plugin_code("sniff", limit):
            score = detection.sniff(text, file)
        if type(score) is not int or not 0 <= score <= 2:
            raise AssertionError(f"sniff returned {shorten(repr(score), 40)}, not 0, 1 or 2")
        return int(score)

    own = locate(spec.example, spec)
    if own is not None and is_file(own) and not sniff(read_text(own), str(own)):
        raise AssertionError(f"its sniff does not claim its own example (0 for {own})")
    for name, other in games().items():
        theirs = locate(other.example, other) if name != spec.name else None
        if theirs is None or not is_file(theirs):
            continue
        text = read_text(theirs)
        if sniff(text, str(theirs)):
            try:
                with plugin_code("its reader", limit):
                    spec.instances.read(theirs)
            except LogicAgentsError:
                raise AssertionError(f"its sniff claims a file it cannot read ({name}'s "
                                     f"example {theirs.name})") from None


def _recorded(spec: GameSpec, state: Record, seed: int) -> tuple[list[object], list[object]]:
    """The default agent's game on the example, played once for the checks that read it.

    The actions, observations and presentation checks read one game: the same seed gives the
    same game, so a second play would only cost its time (three plays of Ooze's SAT planner
    were 5 of its 12 s).
    """
    if "recorded" not in state:
        seen: list[object] = []
        played = _record(spec, state["instance"], seed, seen=seen)
        state["recorded"] = (played, seen)
    recorded: tuple[list[object], list[object]] = state["recorded"]
    return recorded


def _record(spec: GameSpec, instance: Instance, seed: int, limit: int = 2000,
            seen: list[object] | None = None) -> list[object]:
    played: list[object] = []
    seen = [] if seen is None else seen
    world = spec.make_world(instance)
    agent = spec.make_agent(spec.default_agent)
    obs, _ = world.reset(seed=seed)
    seen.append(obs)
    agent.reset(seed)
    while len(played) < limit and not finished(world):
        action = agent.act(obs)
        if action is None:
            break
        played.append(action)
        obs, _, terminated, truncated, _ = world.step(action)
        seen.append(obs)
        if terminated or truncated:
            break
    return played


def _plays(spec: GameSpec, state: Record, seeds: tuple[int, ...]) -> None:
    result = run_episode(spec.make_world(state["instance"]), spec.make_agent(spec.default_agent),
                         seed=seeds[0], game=spec.name)
    if result.outcome in (Outcome.ERROR, Outcome.TIMEOUT):
        raise AssertionError(f"the default agent's game ended in {result.outcome}: {result.error}")


def format_report(check: GameCheck, mark: Callable[[bool], str] = lambda ok: "ok" if ok
                  else "FAILED") -> list[str]:
    """Lines a person reads: one per check."""
    return [f"{check.game}: {r.name} {mark(r.passed)}" + (f": {r.detail}" if r.detail else "")
            for r in check.results]
