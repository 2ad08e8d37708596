"""Declared options shared by many agents, and the value checks their flags use.

Concepts: integer / positive_int / nonnegative_int / positive_float / cell are argparse types
that read ASCII digits only; node_cap, time_cap, memory_cap are the Options the search agents of
several games declare, so their flags read the same everywhere (the SAT agents' solver_option
is in logic_agents.solving.options: the world knows no solver).
"""

from __future__ import annotations

import argparse
import re

from logic_agents.ground.inputs import int_or_none
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.declared import Option


def integer(text: str) -> int:
    """An integer in ASCII digits (no '٣' or '３'), at most 12 of them."""
    value = int_or_none(text.strip())
    if value is None:
        raise argparse.ArgumentTypeError(f"not an integer (digits 0-9): {text[:40]!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number from 1, parsed from a flag's text."""
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def nonnegative_int(text: str) -> int:
    """A whole number from 0, parsed from a flag's text."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text}")
    return value


MAX_SECONDS = 10_000_000  # about 115 days: past it a timer, a sleep or a deadline overflows


def nonnegative_float(text: str) -> float:
    """A number of seconds (or any quantity) in ASCII digits, at most MAX_SECONDS."""
    if not re.fullmatch(r"[0-9]{1,12}(\.[0-9]{0,12})?|\.[0-9]{1,12}", text.strip()):
        raise argparse.ArgumentTypeError(f"not a number (digits 0-9): {text[:40]!r}")
    value = float(text)
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"at most {MAX_SECONDS:,}, got {text.strip()}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0, parsed from a flag's text."""
    value = nonnegative_float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def cell(text: str) -> tuple[int, int]:
    """A cell written R,C (0-based row and column)."""
    parts = [int_or_none(part.strip()) for part in text.split(",")]
    if len(parts) != 2 or None in parts:
        raise argparse.ArgumentTypeError(f"not a cell R,C: {text[:40]!r}")
    r, c = parts
    if r is None or c is None or r < 0 or c < 0:
        raise argparse.ArgumentTypeError(f"row and column must not be negative, got {text}")
    return r, c


def node_cap(default: int | None) -> Option:
    """The `--node-cap N` option of a search (default: `default`)."""
    return Option("node_cap", int, default, "stop the search after N nodes", metavar="N",
                  parse=positive_int)


def time_cap(default: float | None) -> Option:
    """The `--time-cap S` option of a search (default: `default`)."""
    return Option("time_cap", float, default, "stop the search after this many seconds",
                  metavar="SECONDS", parse=positive_float)


def memory_cap(default: int | None = DEFAULT_MEMORY_CAP_MIB) -> Option:
    """The `--memory-cap MiB` option of a search (default: `default`)."""
    return Option("memory_cap", int, default, "stop the search when the states it holds would "
                  "take more than this many MiB (estimated from the board)", metavar="MIB",
                  parse=positive_int)


_MOVED = {"solver_option": "logic_agents.solving.options",
          "INCREMENTAL_SOLVERS": "logic_agents.solving.options"}


def __getattr__(name: str) -> object:
    """A name that moved (issue 40: the world imports no logic): an error that names its home."""
    if name in _MOVED:
        raise ImportError(f"logic_agents.world.options.{name} moved: import it from "
                          f"{_MOVED[name]}")
    raise AttributeError(name)
