"""A warm solver stays warm, not heavy: every uniqueness check leaves a retired selector behind,
and the solver's models grew with them (0.26 to 0.75 ms a 9x9 puzzle over 10,000 puzzles), so
the pool makes its solver afresh every RENEW_AFTER checks. Answers never change: they are
canonical, the same as a fresh solver's."""

from __future__ import annotations

from logic_agents.games.sudoku import solve_puzzle, warm
from logic_agents.games.sudoku.board import load_puzzles
from logic_agents.games.sudoku.encode import SudokuSolver

from ...conftest import ROOT

PUZZLES = ROOT / "logic_agents" / "maps" / "sudoku" / "norvig_top95.txt"


def test_the_pool_renews_its_solver_and_answers_as_a_fresh_one(monkeypatch):
    monkeypatch.setattr(warm, "RENEW_AFTER", 7)
    puzzles = load_puzzles(PUZZLES)[:30]
    with warm.warm_solvers() as pool:
        seen: list[SudokuSolver] = []  # held, so no two are one object
        for puzzle in puzzles:
            kept = pool.get(9, None)
            if not any(kept is s for s in seen):
                seen.append(kept)
            assert kept.guards < 7  # renewed before it holds RENEW_AFTER retired selectors
            with SudokuSolver(9) as fresh:
                assert solve_puzzle(puzzle) == fresh.canonical(puzzle)
        assert len(seen) >= 30 // 7
