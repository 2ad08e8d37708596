"""What an agent or a world declares it takes, read off its code.

Concepts:
- Option: one declared option (name, type, default, help, choices); the command line makes a
  flag of it (cli.common.add_option: `node_cap` -> `--node-cap N`, a bool -> `--x/--no-x`).
- declared_options(factory): the factory's `options` attribute, else the keyword-only
  parameters of its `__init__` with a default and a simple annotation (bool/int/float/str).
- accepts(factory, keyword): whether it takes a hook the framework hands (HOOKS: on_query,
  explain).

This module imports nothing else of logic-agents: the registry and the agent loader both
build on it, and neither on the other's internals.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# options the framework itself hands to agents that accept them (not user flags)
HOOKS = ("on_query", "explain")
_SIMPLE = {bool: bool, int: int, float: float, str: str}


@dataclass(frozen=True)
class Option:
    """An option an agent (or a world) declares.

    `--node-cap N` comes from Option("node_cap", int, 10_000_000, "stop after N search
    nodes").
    """

    name: str
    type: type = str
    default: object = None
    help: str = ""
    choices: tuple[object, ...] = ()
    metavar: str | None = None
    # a check run on the value (a UsageError-raising converter); None keeps type(text)
    parse: Callable[[str], object] | None = None
    required: bool = False  # the command line refuses to run without it

    @property
    def flag(self) -> str:
        """The command line's flag: `node_cap` is `--node-cap`."""
        return "--" + self.name.replace("_", "-")



def unwrapped(factory: object) -> tuple[Any, Mapping[str, object]]:
    """A factory's own callable and the keywords already bound to it.

    A functools.partial names an agent class with some options fixed.
    """
    if isinstance(factory, functools.partial):
        return factory.func, factory.keywords
    return factory, {}


def declared_options(factory: object) -> tuple[Option, ...]:
    """What an agent factory declares: its `options` attribute, else its keyword parameters."""
    target, bound = unwrapped(factory)
    declared = getattr(target, "options", None)  # the Agent protocol's optional `options`
    if isinstance(declared, (tuple, list)) and all(isinstance(o, Option) for o in declared):
        return tuple(o for o in declared if o.name not in bound)
    return _from_signature(factory)


def _from_signature(factory: Any) -> tuple[Option, ...]:
    target, bound = unwrapped(factory)
    chain = ([vars(k)["__init__"] for k in target.__mro__ if "__init__" in vars(k)]
             if isinstance(target, type) else [target])
    out: dict[str, Option] = {}
    for function in chain:
        try:
            signature = inspect.signature(function)
            hints = typing.get_type_hints(function)
        except (TypeError, ValueError, NameError):
            break
        params = list(signature.parameters.values())
        for p in params:
            if p.name in ("self", *bound, *HOOKS) or p.name in out:
                continue
            if p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) or p.default is p.empty:
                continue
            kind = _simple_type(hints.get(p.name), p.default)
            if kind is not None:
                out[p.name] = Option(p.name, kind, p.default)
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
    return tuple(out.values())


def _simple_type(hint: Any, default: Any) -> type | None:
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if len(args) == 1 and args[0] in _SIMPLE:
        return _SIMPLE[args[0]]
    if hint is None and type(default) in _SIMPLE:
        return type(default)
    return None


def accepts(factory: object, keyword: str) -> bool:
    """Whether the factory takes `keyword` (a hook such as on_query or explain)."""
    target, _ = unwrapped(factory)
    chain = ([vars(k)["__init__"] for k in target.__mro__ if "__init__" in vars(k)]
             if isinstance(target, type) else [target])
    for function in chain:
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            return False
        if keyword in params:
            return True
        if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            return False
    return False
