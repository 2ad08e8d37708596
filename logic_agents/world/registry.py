"""Game registry: game name -> GameSpec, so the CLI, traces and batch runs treat games alike.

Concepts: GameSpec bundles a game's loader, world factory, agent factories, renderer, action
(de)serialisation and a sampler of illegal actions (for check_world). Games register
themselves on import; `get_game` imports the built-in games lazily.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic_agents.errors import UnknownName

BUILTIN_GAMES = ("daggers", "sudoku", "undead", "mazes", "ooze")


@dataclass
class GameSpec:
    name: str
    description: str
    load: Callable[[str | Path], Any]
    make_world: Callable[..., Any]
    agents: dict[str, Callable[..., Any]]
    render: Callable[[Any], str]
    action_from_json: Callable[[Any], Any]
    illegal_actions: Callable[[Any], Iterable[Any]]
    maps_dir: str = ""
    default_agent: str = ""
    agent_help: dict[str, str] = field(default_factory=dict)
    load_all: Callable[[str | Path], list[Any]] | None = None  # files that hold many instances
    example: Callable[[], Any] | None = None  # a small instance, for contract tests
    render_markup: Callable[[Any], str] | None = None  # rich markup version of render
    encode: Callable[[Any], Any] | None = None  # static puzzles: instance -> KnowledgeBase
    cnf_legend: tuple[str, ...] = ()  # comment lines that explain the variable names
    # static puzzles, for `solve`: (instance, unique, solver) -> SolveResult, the parser of
    # puzzles written on the command line, and how a solution is shown, given as JSON, checked
    solve: Callable[..., Any] | None = None
    parse_text: Callable[[str, str], list[Any]] | None = None
    show_solution: Callable[[Any, Any], str] | None = None
    solution_json: Callable[[Any, Any], Any] | None = None
    is_solution: Callable[[Any, Any], bool] | None = None
    describe: Callable[[Any], str] | None = None
    # agents that need a person at a terminal (`play` only): name -> factory(read_key, show)
    interactive: dict[str, Callable[..., Any]] = field(default_factory=dict)
    # keys of the world's summary() that `play --json` adds to the result (ooze: score...)
    result_keys: tuple[str, ...] = ()
    # world options beyond `lives` that the game's make_world takes (ooze: pieces)
    world_options: tuple[str, ...] = ()
    # whether the world takes `lives` (the command line offers --lives only then)
    has_lives: bool = False
    # file detection: how surely a file's text (and name) is one of this game's files, and an
    # argument written inline is one of its instances: 0 no, 1 it parses, 2 it says so
    sniff: Callable[[str, str], int] | None = None
    sniff_text: Callable[[str], int] | None = None
    # an instance as text and back, so that a trace carries its instance and replays anywhere
    format_instance: Callable[[Any], str] | None = None
    parse_instance: Callable[[str, str], Any] | None = None

    def make_agent(self, name: str, **options: Any) -> Any:
        try:
            factory = self.agents[name]
        except KeyError:
            raise UnknownName(
                f"unknown agent {name!r} for {self.name}; choose one of {', '.join(self.agents)}"
            ) from None
        return factory(**options)


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    _GAMES[spec.name] = spec
    return spec


def _load_builtins() -> None:
    for name in BUILTIN_GAMES:
        if name not in _GAMES:
            importlib.import_module(f"logic_agents.games.{name}")


def get_game(name: str) -> GameSpec:
    _load_builtins()
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownName(f"unknown game {name!r}; choose one of {', '.join(_GAMES)}") from None


def games() -> dict[str, GameSpec]:
    _load_builtins()
    return dict(_GAMES)
