"""Sudoku solvers kept warm across the puzzles of one run, owned by whoever opens the run.

Concepts:
- WarmSolvers: one SudokuSolver per (size, solver name), the rules told once and the clues
  given as assumptions; `close()` frees them all.
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


class WarmSolvers:
    def __init__(self) -> None:
        self._solvers: dict[tuple[int, str | None], SudokuSolver] = {}

    def get(self, n: int, solver: str | None) -> SudokuSolver:
        found = self._solvers.get((n, solver))
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
