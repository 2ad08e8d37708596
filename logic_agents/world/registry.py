"""The game registry: every game, built-in or a user's, found through one public door.

Concepts:
- Entry points: a game is an object listed in the entry-point group `logic_agents.games`
  (`name = "package.module:SPEC"` in its pyproject.toml), as pytest finds plug-ins and
  Gymnasium finds environments. The five built-in games register the same way, in this
  package's own pyproject.toml; `register(spec)` adds one at run time (tests, notebooks).
- GameSpec: the small typed core every game gives (load, make_world, agents, render, action
  codec, illegal actions) plus optional capabilities, each None or empty when absent:
  Puzzle (solve, check and show a static puzzle; encode it for `cnf`), Generator (`generate`),
  file detection (sniff), lives, world options, objective (`win` or `score`), a CNF legend,
  human play, the instance codec that lets a trace replay anywhere.
- AgentEntry: a registered agent, its help line and its declared Options.
- Option: one declared option (world.declared, re-exported here): the command line makes a
  flag of it (`node_cap` -> `--node-cap N`, a bool -> `--x/--no-x`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from logic_agents.errors import LogicAgentsError, UnknownName, UsageError
from logic_agents.world.declared import Option, accepts, declared_options
from logic_agents.world.view import View

ENTRY_POINT_GROUP = "logic_agents.games"
DISTRIBUTION = "logic-agents"

Objective = Literal["win", "score"]


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: `factory(**options)` makes one; `options` are what it declares
    (by default the factory's `options` attribute, see world.agents)."""

    name: str
    factory: Callable[..., Any]
    help: str = ""
    options: tuple[Option, ...] | None = None
    # needs a person at a terminal: factory(read_key=..., show=...), `play` only
    interactive: bool = False

    def declared(self) -> tuple[Option, ...]:

        return self.options if self.options is not None else declared_options(self.factory)


@dataclass(frozen=True)
class Puzzle:
    """Capability of a static puzzle: `solve` and `cnf` without an agent."""

    solve: Callable[..., Any]  # (instance, unique: bool, solver: str | None) -> SolveResult
    is_solution: Callable[[Any, Any], bool]
    show: Callable[[Any, Any], str]  # (instance, solution) -> text a person reads
    to_json: Callable[[Any, Any], Any]  # (instance, solution) -> JSON value
    encode: Callable[[Any], Any] | None = None  # instance -> KnowledgeBase, for `cnf`
    describe: Callable[[Any], str] | None = None  # one line about an instance


@dataclass(frozen=True)
class Generator:
    """Capability of a game that makes instances (`logic-agents generate GAME`).

    `add_arguments(parser)` adds the game's own flags; `run(args)` makes `args.count`
    instances from `args.seed` into `args.output` (honouring `args.force`/`args.resume`, see
    logic_agents.generated) and returns a GenerateReport."""

    add_arguments: Callable[[Any], None]
    run: Callable[[argparse.Namespace], GenerateReport]
    help: str = ""
    epilog: Callable[[], str] | None = None
    # for `compare --generate SPEC`: (spec text, count, seed, args) -> [(instance, group)],
    # and the options (flags of `compare`) it reads from args
    for_compare: Callable[..., list[tuple[Any, str]]] | None = None
    compare_options: tuple[Option, ...] = ()


@dataclass
class GenerateReport:
    files: list[str]
    made: int
    kept: int = 0
    summary: str = ""  # one line for a person
    details: dict[str, Any] = field(default_factory=dict)  # extra keys of `--json`


@dataclass(frozen=True)
class GameSpec:
    # -- the core every game gives ---------------------------------------------------------
    name: str
    description: str
    load: Callable[[str | Path], Any]
    make_world: Callable[..., Any]
    agents: dict[str, AgentEntry]
    render: Callable[[Any], str]
    action_from_json: Callable[[Any], Any]
    illegal_actions: Callable[[Any], Iterable[Any]]
    default_agent: str = ""
    # -- optional capabilities -------------------------------------------------------------
    example: str = ""  # a shipped instance (path relative to the maps folder, or an id) `play` takes
    example_instance: Callable[[], Any] | None = None  # a small instance, for contract tests
    maps: Path | None = None  # the folder of its shipped instances (package data)
    load_all: Callable[[str | Path], list[Any]] | None = None  # files that hold many instances
    parse_text: Callable[[str, str], list[Any]] | None = None  # instances written inline
    sniff: Callable[[str, str], int] | None = None  # (text, file name) -> 0 no, 1 parses, 2 says so
    sniff_text: Callable[[str], int] | None = None  # the same for an inline argument
    format_instance: Callable[[Any], str] | None = None  # instance -> text, for traces
    parse_instance: Callable[[str, str], Any] | None = None
    render_markup: Callable[[Any], str] | None = None  # rich markup version of render
    # the board as tiles and the keys to play it (world.view): the HTML page, human play and
    # `play --delay` draw it; None: those show the text render and human play is refused
    view: View | None = None
    hint_agent: str = ""  # the agent human play asks for a hint (default: default_agent)
    puzzle: Puzzle | None = None
    generator: Generator | None = None
    objective: Objective = "win"
    has_lives: bool = False
    world_options: tuple[Option, ...] = ()  # beyond lives: what make_world takes
    result_keys: tuple[str, ...] = ()  # world.summary() keys a result carries (ooze: score)
    summary: Callable[[Any], str] | None = None  # result -> the words after the outcome
    facts: Callable[[Any], dict[str, Any]] | None = None  # instance -> columns of `maps`
    cnf_legend: tuple[str, ...] = ()  # comment lines that explain the variable names

    def __post_init__(self) -> None:
        # every game a person can play by hand gets the `human` agent (world.view.Controls)
        if self.view is not None and self.view.controls is not None and "human" not in self.agents:
            object.__setattr__(self, "agents", {**self.agents, "human": HUMAN})

    @property
    def verbs(self) -> list[str]:
        """The verbs this game supports, from its capabilities."""
        out = ["play", "compare", "replay", "maps", "view"]
        if self.puzzle is not None:
            out.append("solve")
        if self.puzzle is not None and self.puzzle.encode is not None or self.query_agents():
            out.append("cnf")
        if self.generator is not None:
            out.append("generate")
        return sorted(out)

    def query_agents(self) -> list[str]:
        """The agents that hand their satisfiability tests to an `on_query` hook (for `cnf`)."""

        return [k for k, e in self.agents.items() if accepts(e.factory, "on_query")]

    def playing_agents(self) -> dict[str, AgentEntry]:
        return {k: e for k, e in self.agents.items() if not e.interactive}

    def make_agent(self, name: str, **options: Any) -> Any:
        try:
            entry = self.agents[name]
        except KeyError:
            raise UnknownName(f"unknown agent {name!r} for {self.name}; choose one of "
                              f"{', '.join(self.playing_agents())}") from None
        return entry.factory(**options)


def _human(**options: Any) -> Any:
    raise UsageError("the human agent is a person at a terminal: `logic-agents play MAP "
                     "--agent human`")


HUMAN = AgentEntry("human", _human, "you, in the terminal: arrows move, space probes or "
                   "places, f flags or marks, u undoes (puzzles), h hints with the why, q quits",
                   options=(), interactive=True)


def agents_from(factories: Mapping[str, Callable[..., Any]],
                help: Mapping[str, str] | None = None,
                interactive: Sequence[str] = ()) -> dict[str, AgentEntry]:
    """AgentEntries from {name: factory}, with help lines (default: the factory's docstring)."""
    help = help or {}
    out = {}
    for name, factory in factories.items():
        doc = help.get(name) or summary_of(factory, name)
        out[name] = AgentEntry(name, factory, doc, interactive=name in interactive)
    return out


def summary_of(factory: Any, name: str) -> str:
    """The first paragraph of a factory's docstring, without a leading "name:"."""
    target = getattr(factory, "func", factory)  # functools.partial
    doc = (getattr(target, "__doc__", None) or "").strip()
    text = " ".join(doc.split("\n\n")[0].split())
    return text[len(name) + 1:].strip() if text.startswith(f"{name}:") else text


# -- the registry ---------------------------------------------------------------------------
_GAMES: dict[str, GameSpec] = {}
_ORIGINS: dict[str, str] = {}
_BROKEN: dict[str, str] = {}
_scanned = False


def register(spec: GameSpec, origin: str = "runtime") -> GameSpec:
    """Add a game at run time (entry points are the way for installed packages)."""
    if not isinstance(spec, GameSpec):
        raise LogicAgentsError(f"a game registers a GameSpec, not {type(spec).__name__}")
    _GAMES[spec.name] = spec
    _ORIGINS.setdefault(spec.name, origin)
    return spec


def _entry_points() -> list[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def game_names() -> list[str]:
    """The names of the installed games, without importing any (for fast --help)."""
    return sorted({ep.name for ep in _entry_points()} | set(_GAMES))


def _scan() -> None:
    global _scanned
    if _scanned:
        return
    _scanned = True
    for ep in _entry_points():
        if ep.name in _GAMES and _ORIGINS.get(ep.name) != "runtime":
            continue
        _load_entry_point(ep)


def _load_entry_point(ep: metadata.EntryPoint) -> None:
    dist = getattr(ep, "dist", None)
    dist_name = dist.name if dist is not None else "?"
    origin = "builtin" if dist_name == DISTRIBUTION else dist_name
    try:
        spec = ep.load()
    except Exception as e:  # a broken plug-in must not take the others down
        _BROKEN[ep.name] = f"{ep.value} cannot be loaded: {type(e).__name__}: {e}"
        return
    if not isinstance(spec, GameSpec) or spec.name != ep.name:
        what = type(spec).__name__ if not isinstance(spec, GameSpec) else f"game {spec.name!r}"
        _BROKEN[ep.name] = f"{ep.value} is {what}, not the GameSpec of {ep.name!r}"
        return
    _GAMES[spec.name] = spec
    _ORIGINS[spec.name] = origin


def get_game(name: str) -> GameSpec:
    if name not in _GAMES:
        for ep in _entry_points():
            if ep.name == name:
                _load_entry_point(ep)
                break
    if name in _GAMES:
        return _GAMES[name]
    if name in _BROKEN:
        raise LogicAgentsError(f"game {name!r} is installed but broken: {_BROKEN[name]}")
    known = game_names()
    hint = "" if known else " (no game is installed: pip install -e . in the checkout)"
    raise UnknownName(f"unknown game {name!r}; choose one of {', '.join(known)}{hint}")


def games() -> dict[str, GameSpec]:
    """Every game that loads, by name (broken plug-ins are left out; see broken_games)."""
    _scan()
    return dict(sorted(_GAMES.items()))


def broken_games() -> dict[str, str]:
    _scan()
    return dict(_BROKEN)


def origin(name: str) -> str:
    """`builtin`, the distribution that registered the game, or `runtime`."""
    get_game(name)
    return _ORIGINS.get(name, "runtime")


def game_of_instance(instance: Any) -> str:
    """The registered game whose instances are of `instance`'s type (by its example)."""
    for name, spec in games().items():
        if spec.example_instance is not None and type(instance) is type(spec.example_instance()):
            return name
    raise UnknownName(f"no registered game has instances of type {type(instance).__name__}; "
                      "name the game")
