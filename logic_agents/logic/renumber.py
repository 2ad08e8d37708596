"""Renumbered: a solver's luck drawn again, on the same formula.

Concepts:
- A CDCL solver's time on a hard instance depends on the variable numbering, the order of the
  clauses and of their literals. Renumbered wraps a pysat solver: the formula reaches it under
  a random renumbering of its variables (in the batches they first appear in), each clause's
  literals rotated by a random offset; models and implied literals come back in the caller's numbering.
  SatOracle(shuffle=seed) uses it, and shuffles the order of each batch of clauses it adds.
- LOGIC_AGENTS_SHUFFLE=N in the environment renumbers every oracle the process makes (the
  k-th with seed "N:k"), so any command or benchmark can be run again with other luck
  (benchmarks/bench_tails.py, docs/BENCHMARKS.md "SAT tails").
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from logic_agents.errors import UsageError

if TYPE_CHECKING:  # PySAT is imported when a solver is made (start-up time)
    from pysat.solvers import Solver

SHUFFLE_VARIABLE = "LOGIC_AGENTS_SHUFFLE"
_ORACLES_MADE = itertools.count()


def environment_shuffle() -> str | None:
    """The seed of the next oracle under LOGIC_AGENTS_SHUFFLE, or None when it is not set."""
    text = os.environ.get(SHUFFLE_VARIABLE)
    if not text:
        return None
    if not text.isdigit():
        raise UsageError(f"{SHUFFLE_VARIABLE} must be a whole number (a seed), got {text[:40]!r}")
    return f"{int(text)}:{next(_ORACLES_MADE)}"


class Renumbered:
    """A pysat solver that sees the formula under a random renumbering of its variables.

    Each clause's literals come in a shuffled order; what it answers is mapped back. Variables
    are renumbered in the batches they first appear in (the rules, then what is told later), so
    a solver's luck on one formula can be drawn again without changing the formula.
    """

    def __init__(self, solver: Solver, rng: random.Random):
        """Renumber for `solver`, drawing from `rng`."""
        self._solver = solver
        self._rng = rng
        self._to = [0]  # original variable -> the solver's
        self._back = [0]  # the solver's variable -> original

    def _grow(self, var: int) -> None:
        known = len(self._to) - 1
        if var <= known:
            return
        fresh = list(range(known + 1, var + 1))
        self._rng.shuffle(fresh)
        self._to.extend(fresh)
        self._back.extend([0] * len(fresh))
        for original in range(known + 1, var + 1):
            self._back[self._to[original]] = original

    def _out(self, lits: Iterable[int]) -> list[int]:
        lits = list(lits)
        if lits:
            self._grow(max(lits, key=abs).__abs__())
        to = self._to
        return [to[lit] if lit > 0 else -to[-lit] for lit in lits]

    def _in(self, lit: int) -> int:
        var = self._back[abs(lit)]
        return var if lit > 0 else -var

    def add_clause(self, clause: Iterable[int]) -> None:
        """The clause, renumbered and rotated."""
        lits = self._out(clause)
        if len(lits) > 1:  # rotated by a random offset: one draw per clause, not a shuffle
            turn = self._rng.randrange(len(lits))
            lits = lits[turn:] + lits[:turn]
        self._solver.add_clause(lits)

    def add_clauses(self, clauses: list[list[int]], top: int | None = None) -> None:
        """add_clause over a batch whose variables are at most `top`, renumbered at once.

        `top` is found when not given. The same kind of draw, for a third of the Python a call
        per clause costs (profiled on 30,000 clauses).
        """
        if top is None:
            top = max((abs(lit) for clause in clauses for lit in clause), default=0)
        self._grow(top)
        to, draw, add = self._to, self._rng.random, self._solver.add_clause
        for clause in clauses:
            lits = [to[lit] if lit > 0 else -to[-lit] for lit in clause]
            if len(lits) > 1:
                turn = int(draw() * len(lits))
                lits = lits[turn:] + lits[:turn]
            add(lits)

    def add_atmost(self, lits: list[int], k: int) -> None:
        """A native at-most-k constraint (Minicard's), renumbered and its literals shuffled."""
        lits = self._out(lits)
        self._rng.shuffle(lits)
        self._solver.add_atmost(lits, k)

    def solve(self, assumptions: Iterable[int] = ()) -> bool | None:
        """The solver's solve, its assumptions renumbered."""
        answer: bool | None = self._solver.solve(assumptions=self._out(assumptions))
        return answer

    def solve_limited(self, assumptions: Iterable[int] = (),
                      expect_interrupt: bool = False) -> bool | None:
        """The solver's solve_limited, its assumptions renumbered (None: interrupted)."""
        answer: bool | None = self._solver.solve_limited(assumptions=self._out(assumptions),
                                                         expect_interrupt=expect_interrupt)
        return answer

    def get_model(self) -> list[int] | None:
        """The model, in the formula's own numbering."""
        model = self._solver.get_model()
        if model is None:
            return None
        size = len(model)  # a variable past the solver's count is in no clause: false
        return [var if mine <= size and model[mine - 1] > 0 else -var
                for var, mine in enumerate(self._to[1:], start=1)]

    def propagate(self, assumptions: Iterable[int] = ()) -> tuple[bool, list[int]]:
        """Unit propagation, both ways renumbered."""
        ok, implied = self._solver.propagate(assumptions=self._out(assumptions))
        return bool(ok), [self._in(lit) for lit in implied if abs(lit) < len(self._back)]

    def __getattr__(self, name: str) -> Any:
        """The rest of the solver as it is: conf_budget, interrupt, delete, ..."""
        return getattr(self._solver, name)
