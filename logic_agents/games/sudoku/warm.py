"""Sudoku solvers kept warm across the puzzles of one run, owned by whoever opens the run.

Concepts:
- WarmSolvers: one SudokuSolver per (size, solver name), the rules told once and the clues
  given as assumptions, made afresh every RENEW_AFTER uniqueness checks (each leaves a
  variable behind); `close()` frees them all.
- warm_solvers(): a context in which solve_puzzle reuses one WarmSolvers, closed when it ends
  (the `solve` verb opens one per run: spec.Puzzle.session). Outside any, solve_puzzle keeps
  one pool in the current context (a script's, a notebook kernel's), never a process-wide
  one. A pool changes speed only: a warm solver's answers are canonical (the first solution
  in reading order), so no answer depends on what was solved before.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from logic_agents.games.sudoku.encode import SudokuSolver

# A warm solver is made afresh after this many uniqueness checks. Each check leaves a retired
# selector variable and its clause behind, and the solver's models grow with them: over
# 10,000 9x9 puzzles a never-renewed solver went from 0.26 to 0.75 ms a puzzle. A 9x9 solver
# costs 6 ms to make, so renewing it every 500 checks costs 0.012 ms a puzzle and holds the
# growth to about as much (docs/BENCHMARKS.md, "Sudoku solve beside tdoku").
RENEW_AFTER = 500


class WarmSolvers:
    """One warm SudokuSolver per (size, solver name), renewed every RENEW_AFTER checks."""

    def __init__(self) -> None:
        self._solvers: dict[tuple[int, str | None], SudokuSolver] = {}

    def get(self, n: int, solver: str | None) -> SudokuSolver:
        found = self._solvers.get((n, solver))
        if found is not None and found.guards >= RENEW_AFTER:
            found.close()
            found = None
        if found is None:
            found = self._solvers[(n, solver)] = SudokuSolver(n, solver)
        return found

    def close(self) -> None:
        for solver in self._solvers.values():
            solver.close()
        self._solvers.clear()


_POOL: contextvars.ContextVar[WarmSolvers | None] = contextvars.ContextVar("sudoku_warm",
                                                                          default=None)


@contextlib.contextmanager
def warm_solvers() -> Iterator[WarmSolvers]:
    """While it holds, solve_puzzle reuses one pool of warm solvers, closed at the end."""
    pool = WarmSolvers()
    token = _POOL.set(pool)
    try:
        yield pool
    finally:
        _POOL.reset(token)
        pool.close()


def current_pool() -> WarmSolvers:
    """The pool of the current context, made on first use."""
    pool = _POOL.get()
    if pool is None:
        pool = WarmSolvers()
        _POOL.set(pool)
    return pool
