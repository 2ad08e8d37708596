"""The game registry: every game, built-in or a user's, found through one public door.

Concepts:
- Entry points: a game is an object listed in the entry-point group `logic_agents.games`
  (`name = "package.module:SPEC"` in its pyproject.toml), as pytest finds plug-ins and
  Gymnasium finds environments. The five built-in games register the same way, in this
  package's own pyproject.toml; `register(spec)` adds one at run time (tests, notebooks).
- GameSpec (world.spec, re-exported here with its capabilities): small data, the factories,
  the instance and action codecs, and optional typed capabilities.
- AgentEntry: a registered agent, its help line and its declared Options.
- Option: one declared option (world.declared, re-exported here): the command line makes a
  flag of it (`node_cap` -> `--node-cap N`, a bool -> `--x/--no-x`).
"""

from __future__ import annotations

from importlib import metadata

from logic_agents.errors import LogicAgentsError, UnknownName
from logic_agents.world.declared import Option  # noqa: F401 - re-exported
from logic_agents.world.spec import (  # noqa: F401 - the spec's names, re-exported
    HUMAN,
    Actions,
    AgentEntry,
    CnfLegend,
    Detection,
    GameSpec,
    GenerateReport,
    GenerateRequest,
    Generator,
    Inline,
    Instances,
    InstanceText,
    Lives,
    Objective,
    Observations,
    Puzzle,
    Results,
    Shipped,
    agents_from,
    summary_of,
)
from logic_agents.world.view import View  # noqa: F401 - re-exported

ENTRY_POINT_GROUP = "logic_agents.games"
DISTRIBUTION = "logic-agents"


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


def entry_point_of(name: str) -> str | None:
    """`module:attribute` of the installed game `name` (what a player process imports
    directly, instead of reading every distribution's metadata again), None for a game
    registered at run time."""
    if _ORIGINS.get(name) == "runtime":
        return None
    return next((ep.value for ep in _entry_points() if ep.name == name), None)


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


def game_of_instance(instance: object) -> str:
    """The registered game whose instances are of `instance`'s type (by its sample)."""
    for name, spec in games().items():
        if type(instance) is type(spec.instances.sample()):
            return name
    raise UnknownName(f"no registered game has instances of type {type(instance).__name__}; "
                      "name the game")
