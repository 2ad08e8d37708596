"""The int-level vocabulary of knowledge bases: names, and told items made of DIMACS literals.

Concepts:
- key: a structured variable name, a tuple such as ("D", 3, 4); it prints as D_3_4.
  name_of(key) prints it; key_of(symbol) reads the key a symbol carries (logic.formula.sym
  makes symbols that carry their key), else the name. There is no process-wide registry of
  names: identity belongs to each KnowledgeBase, keyed by the key object as PySAT's IDPool
  keys its objects (names starting with `_aux` are kept for auxiliary variables);
- IdCardinality(kind, k, lits): Exactly/AtMost/AtLeast ("Exactly", "AtMost", "AtLeast")
  over int literals; IdClause(lits): one told clause, such as the fact ~D_r0c0. Both are what
  hot paths tell: the KB compiles them without sympy and prints them as sympy formulas only
  when a person reads them;
- decide(kind, k, n): whether a cardinality is settled by its size alone.

This module imports no sympy, so an agent that only tells these starts fast
(logic.formula is the sympy vocabulary, for writing and showing formulas).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from logic_agents.errors import EncodingError

Key = tuple[Any, ...]
# sympy ships no types: a sympy Boolean expression is where the typing stops, named once here
# (ids imports no sympy, so every module of the logic can name it)
Formula = Any
# what the oracle and a knowledge base take as a literal: an int id (negative: negated), a
# variable's key, or a sympy symbol or its negation
Lit = int | Key | Formula
AUX_PREFIX = "_aux"
KINDS = ("Exactly", "AtMost", "AtLeast")


def name_of(key: Hashable) -> str:
    """The printable name of a key: ("D", 3, 4) -> "D_3_4"; a plain string stays as it is."""
    if isinstance(key, str):
        return key
    if isinstance(key, tuple) and key:
        return "_".join(str(part) for part in key)
    raise EncodingError(f"variable key must be a string or a non-empty tuple, got {key!r}")


def check_name(name: str) -> str:
    """The name, refused when it is kept for auxiliary variables (`_aux...`)."""
    if name.startswith(AUX_PREFIX):
        raise EncodingError(f"variable names starting with {AUX_PREFIX!r} are kept for "
                            f"auxiliary variables: {name!r}")
    return name


def key_of(symbol: Any) -> Hashable:
    """The key behind a symbol or a name.

    The key a symbol made by `sym` carries (("D", 3, 4)); ("_aux", n) for an auxiliary
    variable's name; else the name itself (a plain string, or a sympy Symbol a person wrote
    by name).
    """
    key: Hashable | None = getattr(symbol, "key", None)
    if key is not None:
        return key
    name = symbol if isinstance(symbol, str) else symbol.name
    tail = name[len(AUX_PREFIX) + 1 :]
    if name.startswith(AUX_PREFIX + "_") and tail.isascii() and tail.isdigit():
        return (AUX_PREFIX, int(tail))
    return name


def decide(kind: str, k: int, n: int) -> bool | None:
    """True or False when kind(k, n literals) holds or fails whatever the literals, else None."""
    if kind == "AtMost":
        return False if k < 0 else True if k >= n else None
    if kind == "AtLeast":
        return True if k <= 0 else False if k > n else None
    if k < 0 or k > n:
        return False
    return True if n == 0 else None


def kind_name(kind: Any) -> str:
    """"Exactly", "AtMost" or "AtLeast" from that name or from the sympy node class."""
    name = kind if isinstance(kind, str) else kind.__name__ if isinstance(kind, type) else ""
    if name not in KINDS:
        raise EncodingError(f"not a cardinality kind: {kind!r} (one of {', '.join(KINDS)})")
    return name


@dataclass(frozen=True)
class IdCardinality:
    """kind(k, literals) over DIMACS literals: the hot-path twin of Exactly/AtMost/AtLeast.

    `kind` is a name ("Exactly") or the sympy class. Equal when they read alike, as the sympy nodes are.
    """

    kind: str
    k: int
    lits: Sequence[int]  # kept as a tuple (see __post_init__), so items hash

    def __post_init__(self) -> None:
        """The kind by name ("Exactly", ...) and the literals as a tuple."""
        object.__setattr__(self, "kind", kind_name(self.kind))
        object.__setattr__(self, "lits", tuple(self.lits))


@dataclass(frozen=True)
class IdClause:
    """One told clause over DIMACS literals (a fact such as [-7] for ~D_r0c0).

    It is explained like any formula; a bare list of ints told instead is background, never
    explained.
    """

    lits: tuple[int, ...]

    def __init__(self, lits: Sequence[int]) -> None:
        """The clause of these literals."""
        object.__setattr__(self, "lits", tuple(lits))
