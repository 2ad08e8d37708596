"""The game registry: every game, built-in or a user's, found through one public door.

Concepts:
- Entry points: a game is an object listed in the entry-point group `logic_agents.games`
  (`name = "package.module:SPEC"` in its pyproject.toml), as pytest finds plug-ins and
  Gymnasium finds environments. The five built-in games register the same way, in this
  package's own pyproject.toml; `register(spec)` adds one at run time (tests, notebooks).
- GameSpec (world.spec): what the registry holds. The contract's names have one public home,
  `logic_agents.world`; this module re-exports none of them, and an old
  `from logic_agents.world.registry import Option` fails with words that name that home.
"""

from __future__ import annotations

import os
import sys
import time
import warnings

from logic_agents.errors import LogicAgentsError, PluginFault, UnknownName, UsageError
from logic_agents.world import installed
from logic_agents.world.examples import example_plugin_hint
from logic_agents.world.guard import IMPORT_LIMIT_S, limit_of, plugin_code
from logic_agents.world.installed import Installed
from logic_agents.world.spec import GAME_NAME as _NAME
from logic_agents.world.spec import GameSpec
from logic_agents.world.trial import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP  # its home here
from logic_agents.world.trial import trial_import

# the contract's names this module once re-exported: their home is logic_agents.world
_MOVED = frozenset({"HUMAN", "Actions", "AgentEntry", "CnfLegend", "Detection", "GenerateReport",
                    "GenerateRequest", "Generator", "Inline", "Instances", "InstanceText", "Lives",
                    "Objective", "Observations", "Option", "Puzzle", "Results", "Shipped", "View",
                    "agents_from", "summary_of"})


def __getattr__(name: str) -> object:
    """An old import of a contract's name from here says where the name lives now."""
    if name in _MOVED:
        raise ImportError(f"logic_agents.world.registry.{name} moved: import it from "
                          "logic_agents.world")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
DISTRIBUTION = "logic-agents"


# -- the registry ---------------------------------------------------------------------------
_GAMES: dict[str, GameSpec] = {}
_ORIGINS: dict[str, str] = {}
_BROKEN: dict[str, str] = {}  # a game name (or "NAME from DIST" for a clash) -> why it is out
_IMPORT_NOTES: dict[str, list[str]] = {}  # a game that loads, but noisily or slowly
_scanned = False
SLOW_IMPORT_S = 1.0
_fresh_trials = False  # whether a plug-in's trial import ignores the cache (world.trial)


def try_plugins_afresh() -> None:
    """Make every plug-in's trial import run, remembered clean or not (`games --check`)."""
    global _fresh_trials
    _fresh_trials = True


def import_notes(name: str) -> list[str]:
    """What was wrong with a game's import although it loaded (`games --check` fails it)."""
    return list(_IMPORT_NOTES.get(name, ()))


class PluginWarning(UserWarning):
    """A plug-in game was left out (it failed to load, or its name clashes).

    The command line prints it as one `warning:` line.
    """


def register(spec: GameSpec, origin: str = "runtime", *, replace: bool = False) -> GameSpec:
    """Add a game at run time (entry points are the way for installed packages).

    Args:
        spec: the game.
        origin: where it comes from, for messages ("runtime", "entry point").
        replace: take the name even when another game has it.

    Returns:
        The spec, as registered (registering the same spec again is a no-op).

    Raises:
        LogicAgentsError: not a GameSpec, or a name another game has (naming both).
    """
    if not isinstance(spec, GameSpec):
        raise LogicAgentsError(f"a game registers a GameSpec, not {type(spec).__name__}")
    name = spec.name
    if _GAMES.get(name) is spec:
        return spec  # the same game again: nothing changes, its origin included
    if not replace and name in _GAMES:
        raise LogicAgentsError(f"game {name!r} is already registered ({_ORIGINS[name]}); "
                               "register(spec, replace=True) replaces it")
    installed = entry_point_of(name) if name not in _GAMES else None
    if not replace and installed is not None:
        raise LogicAgentsError(f"game {name!r} is already installed ({installed}); "
                               "register(spec, replace=True) replaces it")
    _GAMES[name] = spec
    _ORIGINS[name] = origin
    return spec


def unregister(name: str) -> None:
    """Take a game registered at run time out again (a test's or a notebook's clean-up)."""
    if _ORIGINS.get(name) not in ("runtime", "entry point", None):
        raise LogicAgentsError(f"game {name!r} is installed ({_ORIGINS[name]}), not registered "
                               "at run time: uninstall its package instead")
    _GAMES.pop(name, None)
    _ORIGINS.pop(name, None)


# the games' entry points and their distributions' names, read once for each state of the
# import path (world.installed reads every distribution's folder), and a command asks for
# them several times. A folder on the path changes its mtime when a package
# is installed into it, and a test or a notebook that adds a folder changes the path itself.
_FOUND: dict[tuple[tuple[str, int], ...], list[tuple[Installed, str]]] = {}


def _path_state() -> tuple[tuple[str, int], ...]:
    state = []
    for folder in sys.path:
        try:
            state.append((folder, os.stat(folder or ".").st_mtime_ns))
        except OSError:
            state.append((folder, -1))
    return tuple(state)


def _found() -> list[tuple[Installed, str]]:
    """(entry point, origin) of every game, by name; of two with one name, the built-in first."""
    state = _path_state()
    found = _FOUND.get(state)
    if found is None:
        named = [(ep, ep.distribution) for ep in installed.entry_points(ENTRY_POINT_GROUP)]
        found = [(ep, "builtin" if dist == DISTRIBUTION else dist) for ep, dist in
                 sorted(named, key=lambda e: (e[0].name, e[1] != DISTRIBUTION, e[1]))]
        _FOUND.clear()
        _FOUND[state] = found
    return found


def _origin_of(ep: Installed) -> str:
    for found, origin in _found():
        if found is ep:
            return origin
    return "builtin" if ep.distribution == DISTRIBUTION else ep.distribution


def _entry_points() -> list[Installed]:
    """The games' entry points, by name; of two with one name, the built-in one first."""
    return [ep for ep, _ in _found()]


def entry_point_of(name: str) -> str | None:
    """`module:attribute` of the installed game `name`, None for one registered at run time.

    A player process imports it directly, instead of reading every distribution's metadata
    again.
    """
    if _ORIGINS.get(name) == "runtime":
        return None
    return next((ep.value for ep in _entry_points() if ep.name == name), None)


def game_names() -> list[str]:
    """The names of the installed games, without importing any (for fast --help)."""
    return sorted({ep.name for ep in _entry_points() if _NAME.fullmatch(ep.name)} | set(_GAMES))


def builtin_names() -> list[str]:
    """The names of the built-in games, without importing any."""
    return sorted(ep.name for ep, where in _found() if where == "builtin")


def loaded_names() -> set[str]:
    """The games loaded or registered so far in this process."""
    return set(_GAMES)


def _scan() -> None:
    global _scanned
    if _scanned:
        return
    _scanned = True
    for ep in _entry_points():
        _load_entry_point(ep)


def _left_out(key: str, why: str) -> None:
    if key not in _BROKEN:
        _BROKEN[key] = why
        warn_once(f"plug-in game {key} is left out: {why}")


_WARNED: set[str] = set()


def warn_once(message: str) -> None:
    """A PluginWarning, once per process for each message."""
    if message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, PluginWarning, stacklevel=3)


def _load_entry_point(ep: Installed) -> None:
    """Load one game's entry point under the plug-in guard.

    A failure, a wrong object or a name another source has is recorded (broken_games) and
    warned of once.
    """
    name, origin = ep.name, _origin_of(ep)
    if name in _GAMES:
        if _ORIGINS.get(name) not in (origin, "runtime", "entry point"):  # the first wins
            _left_out(f"{name!r} from {origin}", f"its name is taken by the game from "
                      f"{_ORIGINS.get(name)}; rename one of them ({ep.value})")
        return
    if name in _BROKEN:
        return
    if not _NAME.fullmatch(name):
        _left_out(repr(name), f"{ep.value}: a game's name is lower-case letters, digits, '-' "
                  "and '_' (it is typed on the command line and names files)")
        return
    limit = limit_of(origin, IMPORT_LIMIT_S)
    if origin != "builtin" and ep.module not in sys.modules:
        # an os._exit, a thread or a hang in C, found in a process of its own
        fault = trial_import(ep.value, limit, fresh=_fresh_trials)
        if fault is not None:
            _left_out(repr(name), fault)
            return
    started = time.monotonic()
    try:
        with plugin_code(f"importing {ep.value}", limit) as printed:
            spec = ep.load()
    except PluginFault as e:
        _left_out(repr(name), str(e))
        return
    took = time.monotonic() - started
    notes = ([f"printed {printed.count} characters to stdout at import (they would spoil "
              "--json; they went to stderr)"] if printed.count else []) + \
        ([f"took {took:.1f} s to import (every command of the game, and every listing of the games, pays it)"]
         if took > SLOW_IMPORT_S and origin != "builtin" else [])
    if notes:
        _IMPORT_NOTES[name] = notes
    if not isinstance(spec, GameSpec) or spec.name != name:
        what = type(spec).__name__ if not isinstance(spec, GameSpec) else f"game {spec.name!r}"
        _left_out(repr(name), f"{ep.value} is {what}, not the GameSpec of {name!r}")
        return
    _GAMES[name] = spec
    _ORIGINS[name] = origin


def get_game(name: str) -> GameSpec:
    """The game of that name (its entry point is loaded on first use).

    Raises:
        UnknownName: no game has that name (the message lists the games).
        LogicAgentsError: the game is installed but broken (the message says how).
    """
    if name not in _GAMES and isinstance(name, str):
        for ep in _entry_points():
            if ep.name == name:
                _load_entry_point(ep)
        # a later one of the same name is named as a clash
    if isinstance(name, str) and name in _GAMES:
        return _GAMES[name]
    if isinstance(name, str) and repr(name) in _BROKEN:
        raise LogicAgentsError(f"game {name!r} is installed but broken: {_BROKEN[repr(name)]}")
    if not isinstance(name, str):
        raise UsageError(f"a game is named by a str, not {type(name).__name__}")
    known = game_names()
    hint = (" (no game is installed: pip install -e . in the checkout)" if not known
            else example_plugin_hint(name))
    raise UnknownName(f"unknown game {name!r}; choose one of {', '.join(known)}{hint}")


def games() -> dict[str, GameSpec]:
    """Every game that loads, by name (broken plug-ins are left out; see broken_games)."""
    _scan()
    return dict(sorted(_GAMES.items()))


def games_at_hand() -> dict[str, GameSpec]:
    """The built-in games and every game already loaded or registered, by name.

    It loads no plug-in's entry point: a plug-in's import may be slow or heavy, and a
    command about a built-in game (`play EASY1`) must not pay for it. A plug-in loads when
    its game is named (get_game) or a listing needs every game (games).
    """
    if not _scanned:
        for ep, where in _found():
            if where == "builtin":
                _load_entry_point(ep)
    return dict(sorted(_GAMES.items()))


def broken_games() -> dict[str, str]:
    """Every plug-in game left out so far and why (after loading them all)."""
    _scan()
    return dict(_BROKEN)


def broken_game_reasons() -> dict[str, str]:
    """The games left out so far, without loading the others."""
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
