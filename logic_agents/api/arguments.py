"""The Python API's arguments, checked at the door: an odd value is a UsageError that names
the argument and what it takes, never a raw TypeError from deep inside (issue 39, item 6).

Concepts:
- reference / references: what names an instance (a str or a path; for a study, a list of
  them, never a lone str taken letter by letter, nor an empty list).
- whole(value, name, low, high): an int (a numpy integer too, never a bool or a float) in
  range; seed_of: None or a whole seed.
- options_of / per_agent_options: keyword options as a dict with str keys; an agent's options
  as a dict of dicts.
- world_options_of(spec, options): only the options the game's world takes (lives for a game
  with lives, its declared Options), each of its declared type and range.
- instance_of(spec, value): an instance object of the game's own type.
- caps / isolation: a study's caps and fair-play settings, as compare's flags give them.
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Iterable
from pathlib import Path
from typing import SupportsIndex

from logic_agents.errors import AgentFailed, UsageError
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.isolation import (
    ISOLATE,
    SANDBOXES,
    Isolation,
    env_names,
    hidden_paths,
)
from logic_agents.world.core import AnyWorld
from logic_agents.world.registry import games, games_at_hand
from logic_agents.world.spec import GameSpec, Lives
from logic_agents.world.values import Instance

MAX_RUNS = 10**6  # a study of more runs per map and agent is a mistake, not a plan
MAX_SEED = 2**63
MAX_JOBS = 1024
MAX_LIVES = 10**6


def _what(value: object) -> str:
    """A value as an error names it: its type, and its repr when short; a repr that raises
    (a caller's object) names the type alone."""
    try:
        text = repr(value)
    except Exception:
        return f"{type(value).__name__} (whose repr raised)"
    return f"{type(value).__name__} {text[:40]}" if len(text) <= 40 else type(value).__name__


def fspath(value: os.PathLike[str], name: str) -> object:
    """os.fspath of a caller's path object; one whose __fspath__ raises is a UsageError."""
    try:
        return os.fspath(value)
    except Exception as e:
        raise UsageError(f"{name}: its __fspath__() raised {type(e).__name__}") from None


def reference(value: object, name: str) -> str:
    """A map reference: a non-empty str or path (os.PathLike of str)."""
    if isinstance(value, os.PathLike):
        value = fspath(value, name)
    if not isinstance(value, str) or not value:
        raise UsageError(f"{name} must name an instance: a file, FILE:K, a shipped map's name "
                         f"or an inline instance (a non-empty str or path), not {_what(value)}")
    return value


def references(value: object, name: str = "refs") -> list[str]:
    """The references of a study: a list (or any iterable but a str) of at least one."""
    if isinstance(value, (str, os.PathLike)):
        return [reference(value, name)]
    if not isinstance(value, Iterable) or isinstance(value, (bytes, dict)):
        raise UsageError(f"{name} must be a list of map references, not {_what(value)}")
    items = [reference(item, f"{name}[{k}]") for k, item in enumerate(value)]
    if not items:
        raise UsageError(f"{name} is empty: a study needs at least one map")
    return items


def whole(value: object, name: str, low: int, high: int) -> int:
    """An integer in [low, high]: an int or a numpy integer, not a bool, float or str."""
    if isinstance(value, (bool, float)):
        raise UsageError(f"{name} must be a whole number, not {_what(value)}")
    try:  # an int, or a numpy integer (a numpy array has __index__ too, and refuses it)
        if not isinstance(value, SupportsIndex):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise UsageError(f"{name} must be a whole number, not {_what(value)}") from None
    if not low <= number <= high:
        raise UsageError(f"{name} must be from {low:,} to {high:,}, not {number:,}")
    return number


def seed_of(value: object, name: str = "seed") -> int | None:
    return None if value is None else whole(value, name, 0, MAX_SEED - 1)


def flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{name} must be True or False, not {_what(value)}")
    return value


def path_or_none(value: object, name: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = fspath(value, name)
    if not isinstance(value, str) or not value:
        raise UsageError(f"{name} must be a file path (a str or path), not {_what(value)}")
    return value


def choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    """One of `choices`, else a UsageError that lists them."""
    if not isinstance(value, str) or value not in choices:
        raise UsageError(f"{name} must be one of {', '.join(choices)}, not {_what(value)}")
    return value


def optional_text(value: object, name: str) -> str | None:
    """None or a str."""
    if value is not None and not isinstance(value, str):
        raise UsageError(f"{name} must be a str or None, not {_what(value)}")
    return value


def options_of(value: object, name: str) -> Record:
    """Keyword options: None or a dict whose keys are str."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise UsageError(f"{name} must be a dict of option names to values, not {_what(value)}")
    return dict(value)


def per_agent_options(value: object) -> dict[str, Record]:
    """agent_options: None or {agent name: {option: value}}."""
    options = options_of(value, "agent_options")
    for agent, given in options.items():
        if not isinstance(given, dict):
            raise UsageError(f"agent_options[{agent!r}] must be a dict of option names to "
                             f"values, not {_what(given)}")
        options[agent] = options_of(given, f"agent_options[{agent!r}]")
    return options


def world_options_of(spec: GameSpec, value: object, name: str = "world_options"
                     ) -> Record:
    """The world options given, each one the game's world takes, of its type and range."""
    options = options_of(value, name)
    takes = {o.name: o for o in spec.options}
    for key, given in options.items():
        if key == "lives" and spec.get(Lives) is not None:
            options[key] = whole(given, f"{name}['lives']", 1, MAX_LIVES)
            continue
        option = takes.get(key)
        if option is None:
            known = sorted(takes) + (["lives"] if spec.get(Lives) is not None else [])
            raise UsageError(f"{name}: {spec.name}'s world takes no option {key!r} (it takes "
                             f"{', '.join(known) or 'none'})")
        kind = option.type
        if kind is bool and not isinstance(given, bool) or kind in (int, float) and (
                isinstance(given, bool) or not isinstance(given, (int, float))
                or kind is int and isinstance(given, float)):
            raise UsageError(f"{name}[{key!r}] must be of type {kind.__name__}, not "
                             f"{_what(given)}")
        if option.choices and given not in option.choices:
            raise UsageError(f"{name}[{key!r}] must be one of "
                             f"{', '.join(map(str, option.choices))}, not {given!r}")
        if isinstance(given, float) and not math.isfinite(given):
            raise UsageError(f"{name}[{key!r}] must be a finite number, not {given!r}")
    return options


def instance_of(spec: GameSpec, value: object, name: str = "instance") -> Instance:
    """An instance object of the game's own type (its sample's)."""
    sample: Instance = spec.instances.sample()
    kind = type(sample)
    if not isinstance(value, kind):
        raise UsageError(f"{name} must be a {spec.name} instance ({kind.__name__}, e.g. "
                         f"logic_agents.load(...)), not {_what(value)}")
    return value


def observation_of(spec: GameSpec, value: object) -> object:
    """An observation of the game's own type (what its world's reset gives)."""
    kind = type(spec.make_world(spec.instances.sample()).reset(seed=0)[0])
    if not isinstance(value, kind):
        raise UsageError(f"observation must be a {spec.name} observation ({kind.__name__}), "
                         f"not {_what(value)}")
    return value


def game_of_instance(instance: object) -> str:
    """The one game whose instances are of `instance`'s type (its sample's)."""
    found = [name for name, spec in games().items()
             if type(spec.instances.sample()) is type(instance)]
    if len(found) != 1:
        raise UsageError(f"give game=: {_what(instance)} is the instance of "
                         f"{', '.join(found) if found else 'no registered game'}")
    return found[0]


def game_of_agent(agent: object) -> str:
    """The one game with a registered agent of that name (`make_agent("satx")`)."""
    if not isinstance(agent, str):
        raise UsageError("give game=: only a registered agent's name tells its game")
    found = [name for name, spec in games_at_hand().items() if agent in spec.agents]
    if len(found) != 1:  # not a built-in agent's name alone: ask every game
        found = [name for name, spec in games().items() if agent in spec.agents]
    if len(found) != 1:
        raise UsageError(f"give game=: agent {agent!r} is "
                         + (f"one of {', '.join(found)}" if found else "no registered agent"))
    return found[0]


def game_name(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise UsageError(f"game must be a game's name (a str), not {_what(value)}")
    return value


def seconds_or_none(value: object, name: str) -> float | None:
    """None (no cap) or a positive, finite number of seconds."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or value <= 0:
        raise UsageError(f"{name} must be a positive number of seconds or None, not "
                         f"{_what(value)}")
    return float(value)


def caps(move_timeout: object, game_timeout: object, memory_cap: object) -> Caps:
    """The caps of a study's games: seconds a move and a game may take, MiB of memory."""
    return Caps(seconds_or_none(move_timeout, "move_timeout"),
                seconds_or_none(game_timeout, "game_timeout"),
                None if memory_cap is None else whole(memory_cap, "memory_cap", 1, 1 << 30))


def texts(value: object, name: str) -> tuple[str, ...]:
    """A list of non-empty strs (paths too), never one str taken letter by letter."""
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Iterable):
        raise UsageError(f"{name} must be a list, not {_what(value)}")
    items = []
    for k, item in enumerate(value):
        if isinstance(item, os.PathLike):
            item = fspath(item, f"{name}[{k}]")
        if not isinstance(item, str) or not item:
            raise UsageError(f"{name}[{k}] must be a non-empty str, not {_what(item)}")
        items.append(item)
    return tuple(items)


def isolation(isolate: object, trust: object, sandbox: object, hide: object, pass_env: object,
              max_processes: object, named: Iterable[str], output_dir: str | None = None
              ) -> Isolation:
    """Who plays in a player process and how it is contained; the files and folders `named`
    (a study's maps, its results file) are hidden from sandboxed players besides `hide`."""
    hidden = [str(Path(h).resolve()) for h in texts(hide, "hide")]
    return Isolation(isolate=choice(isolate, "isolate", ISOLATE),
                     trusted=texts(trust, "trust"),
                     sandbox=choice(sandbox, "sandbox", SANDBOXES),
                     hide=tuple(dict.fromkeys([*hidden, *hidden_paths(named)])),
                     env=env_names(texts(pass_env, "pass_env")),
                     max_processes=whole(max_processes, "max_processes", 1, 1 << 16),
                     output_dir=str(Path(output_dir).resolve()) if output_dir else None)


def agent_list(value: object) -> list[object]:
    """A study's agents: one agent or a list of them (paths as str), never empty."""
    if isinstance(value, (str, type, os.PathLike)) or callable(value):
        value = [value]  # one agent, not a list of them
    if not isinstance(value, Iterable) or isinstance(value, (bytes, dict)):
        raise UsageError(f"agents must be an agent or a list of them, not {_what(value)}")
    agents = [fspath(a, "agents") if isinstance(a, os.PathLike) else a for a in value]
    if not agents:
        raise UsageError("agents is empty: a study needs at least one agent")
    return agents


def study_seed(value: object) -> int | str | None:
    """A study's seed: a whole number, "random", or None (random when an agent is isolated)."""
    return value if value is None or value == "random" else whole(value, "seed", 0,
                                                                   MAX_SEED - 1)


def lives(spec: GameSpec, value: object) -> Record:
    """The world options of `lives=`: only for a game with lives, a whole number from 1."""
    if value is None:
        return {}
    if spec.get(Lives) is None:
        raise UsageError(f"lives is for games with lives; {spec.name} has none")
    return world_options_of(spec, {"lives": value}, "lives")


def world(spec: GameSpec, instance: object, options: Record) -> AnyWorld:
    """A fresh world; what the game's own code raises making it is one UsageError."""
    try:
        return Clock().world(lambda: spec.make_world(instance, **options))
    except AgentFailed as e:
        raise UsageError(f"{spec.name}'s world cannot be made with "
                         f"{options or 'no options'}: {e.line}") from None
