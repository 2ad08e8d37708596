"""Cardinality constraints to clauses, over int literals and without sympy.

Concepts: direct binomial clauses over at most DIRECT_LIMIT literals, a `pysat.card`
encoding above that, always on the caller's IDPool (never a bare top_id).
"""

from __future__ import annotations

import itertools
from typing import Any

from logic_agents.errors import UnknownName
from logic_agents.logic.ids import decide, kind_name
from logic_agents.logic.names import CARD_ENCODING_NAMES

Clause = list[int]
DIRECT_LIMIT = 8


def direct_cardinality(kind: Any, k: int, lits: list[int]) -> list[Clause]:
    """Binomial clauses: AtMost k forbids every k+1 subset; AtLeast k needs one of each n-k+1."""
    kind = kind_name(kind)
    n = len(lits)
    clauses: list[Clause] = []
    if kind in ("AtMost", "Exactly"):
        if k < 0:
            return [[]]
        if k < n:
            clauses += [[-x for x in group] for group in itertools.combinations(lits, k + 1)]
    if kind in ("AtLeast", "Exactly"):
        if k > n:
            return [[]]
        if k > 0:
            clauses += [list(group) for group in itertools.combinations(lits, n - k + 1)]
    return clauses


def encoded_cardinality(kind: Any, k: int, lits: list[int], pool: Any,
                        encoding: str) -> list[Clause]:
    """A pysat.card encoding that takes its auxiliary ids from `pool`."""
    from pysat.card import CardEnc, EncType

    kind = kind_name(kind)
    decided = decide(kind, k, len(lits))
    if decided is not None:
        return [] if decided else [[]]
    if encoding not in CARD_ENCODING_NAMES:
        raise UnknownName(f"unknown cardinality encoding {encoding!r}; choose one of "
                          f"{', '.join(CARD_ENCODING_NAMES)}")
    enc = getattr(EncType, encoding)
    if kind == "AtMost":
        cnf = CardEnc.atmost(lits, bound=k, vpool=pool, encoding=enc)
    elif kind == "AtLeast":
        cnf = CardEnc.atleast(lits, bound=k, vpool=pool, encoding=enc)
    else:
        cnf = CardEnc.equals(lits, bound=k, vpool=pool, encoding=enc)
    clauses: list[list[int]] = cnf.clauses  # fresh lists of ints already: no copy
    return clauses


def cardinality_clauses(kind: Any, k: int, lits: list[int], pool: Any,
                        encoding: str = "seqcounter") -> list[Clause]:
    """Clauses for `kind(k, lits)`: direct when small, pysat.card when large."""
    if len(lits) <= DIRECT_LIMIT:
        return direct_cardinality(kind, k, lits)
    return encoded_cardinality(kind, k, lits, pool, encoding)
