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


class UnaryCounter:
    """Totalizer over `lits` with fresh output ids from `pool` (an IDPool-like `_next()`)."""

    def __init__(self, lits: Sequence[int], new_var: Callable[[], int]) -> None:
        """A counter over `lits`, its auxiliary ids from `new_var`."""
        self.clauses: list[list[int]] = []
        self.size = len(lits)
        self.outputs = self._build(list(lits), new_var) if lits else []

    def _build(self, lits: list[int], new_var: Callable[[], int]) -> list[int]:
        if len(lits) == 1:
            return [lits[0]]
        mid = len(lits) // 2
        a = self._build(lits[:mid], new_var)
        b = self._build(lits[mid:], new_var)
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
                    self.clauses.append(clause)
                if k < len(out):  # a<=i & b<=j -> out<=k, i.e. a<i+1 & b<j+1 -> not out>=k+1
                    clause = [-out[k]]
                    if i < len(a):
                        clause.append(a[i])
                    if j < len(b):
                        clause.append(b[j])
                    self.clauses.append(clause)
        return out

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
