"""A unary counter (totalizer) whose outputs mean "at least k inputs are true", both ways.

Concepts:
- UnaryCounter(lits, pool): outputs[k-1] <-> (at least k of lits are true), for k = 1..n.
  Both directions are encoded, so any bound is asked for by assumptions (`exactly(k)`)
  instead of new clauses: a family of puzzles that differ only in their numbers shares one
  incremental solver. A literal listed twice counts twice.

pysat's ITotalizer encodes only the upper-bound direction, which cannot force a count up;
hence this small one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache


class UnaryCounter:
    """Totalizer over `lits` with fresh output ids from `pool` (an IDPool-like `_next()`)."""

    def __init__(self, lits: Sequence[int], new_var: Callable[[], int]) -> None:
        """A counter over `lits`, its auxiliary ids from `new_var`."""
        self.size = len(lits)
        if not lits:
            self.clauses: list[list[int]] = []
            self.outputs: list[int] = []
            return
        # the shape of a counter depends on its size alone: built once per size (_shape), then
        # its placeholders are renamed (the Undead generator builds thousands of counters)
        template, fresh, outputs = _shape(len(lits))
        names = [0, *lits, *(new_var() for _ in range(fresh))]
        self.clauses = [[names[x] if x > 0 else -names[-x] for x in clause]
                        for clause in template]
        self.outputs = [names[x] for x in outputs]

    def at_least(self, k: int) -> list[int]:
        """Assumptions for "at least k"; [] when trivially true.

        k > size cannot hold: the caller gets None.
        """
        if k <= 0:
            return []
        if k > self.size:
            return None  # type: ignore[return-value]
        return [self.outputs[k - 1]]

    def at_most(self, k: int) -> list[int]:
        """Assumptions for "at most k"; [] when trivially true."""
        if k >= self.size:
            return []
        if k < 0:
            return None  # type: ignore[return-value]
        return [-self.outputs[k]]

    def exactly(self, k: int) -> list[int] | None:
        """Assumptions that make the count exactly k, or None if no count can be k."""
        low, high = self.at_least(k), self.at_most(k)
        if low is None or high is None:
            return None
        return low + high


@cache
def _shape(size: int) -> tuple[list[list[int]], int, list[int]]:
    """A counter over placeholders 1..size.

    Returns its clauses, how many fresh variables it takes (numbered size+1.. in the order
    they are made) and its outputs: the same clauses in the same order, and fresh variables
    drawn in the same order, as building it directly.
    """
    made = [size]

    def new_var() -> int:
        made[0] += 1
        return made[0]

    clauses: list[list[int]] = []
    outputs = _build(list(range(1, size + 1)), new_var, clauses)
    return clauses, made[0] - size, outputs


def _build(lits: list[int], new_var: Callable[[], int], clauses: list[list[int]]) -> list[int]:
    if len(lits) == 1:
        return [lits[0]]
    mid = len(lits) // 2
    a = _build(lits[:mid], new_var, clauses)
    b = _build(lits[mid:], new_var, clauses)
    out = [new_var() for _ in range(len(a) + len(b))]
    # out[k-1] <-> exists i + j = k with a >= i and b >= j (index 0 means "at least 0")
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            k = i + j
            if k > 0:  # a>=i & b>=j -> out>=k
                clause = [out[k - 1]]
                if i:
                    clause.append(-a[i - 1])
                if j:
                    clause.append(-b[j - 1])
                clauses.append(clause)
            if k < len(out):  # a<=i & b<=j -> out<=k, i.e. a<i+1 & b<j+1 -> not out>=k+1
                clause = [-out[k]]
                if i < len(a):
                    clause.append(a[i])
                if j < len(b):
                    clause.append(b[j])
                clauses.append(clause)
    return out
