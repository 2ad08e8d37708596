"""`solve` answers with the first solution in reading order (and, for a puzzle with several,
the next one as its second), checked against brute force on small grids: so the warm solver
it keeps per size answers exactly as a fresh one would, whatever it solved before."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.sudoku import is_solution, solve_puzzle
from logic_agents.games.sudoku.board import SudokuPuzzle, load_puzzles
from logic_agents.games.sudoku.encode import SudokuSolver


@functools.cache
def every_grid() -> list[tuple[int, ...]]:
    """The 288 valid 4x4 grids, row by row: each row a permutation that repeats no value in a
    column or a box of the rows above."""
    rows = list(itertools.permutations(range(1, 5)))
    grids: list[list[tuple[int, ...]]] = [[]]
    for r in range(4):
        grids = [g + [row] for g in grids for row in rows
                 if all(row[c] != above[c] for above in g for c in range(4))
                 and (r % 2 == 0 or all({row[c], row[c + 1]}.isdisjoint({g[-1][c], g[-1][c + 1]})
                                        for c in (0, 2)))]
    return sorted(tuple(v for row in g for v in row) for g in grids)


def all_solutions(puzzle: SudokuPuzzle) -> list[tuple[int, ...]]:
    """Every 4x4 solution of the puzzle, in reading order (brute force over the 288 grids)."""
    return [grid for grid in every_grid()
            if all(c in (0, g) for c, g in zip(puzzle.cells, grid)) and is_solution(puzzle, grid)]


def test_there_are_288_grids():
    assert len(every_grid()) == 288 and all(
        is_solution(SudokuPuzzle(4, (0,) * 16, "empty"), grid) for grid in every_grid())


@settings(deadline=None, max_examples=60)
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=16, max_size=16),
       st.integers(0, 30), st.sampled_from([None, None, 1, 2, 3]))
def test_the_answer_is_the_first_solution_in_reading_order(cells, others, shuffle):
    """Whatever the warm solver saw before, and under a renumbering of the variables
    (shuffle=, the luck of the search drawn again), the same canonical answer."""
    puzzle = SudokuPuzzle(4, tuple(cells), "p")
    every = all_solutions(puzzle)
    for k in range(others):  # whatever the warm solver saw before
        solve_puzzle(SudokuPuzzle(4, tuple([(k % 4) + 1] + [0] * 15), "other"))
    found = solve_puzzle(puzzle, unique=True, shuffle=shuffle)
    if not every:
        assert found.status == "unsat"
        return
    assert found.solution == every[0]
    if len(every) > 1:
        assert found.status == "multiple" and found.second == every[1]
    else:
        assert found.status == "unique"
    assert solve_puzzle(puzzle, unique=False).solution == every[0]


@functools.cache
def published_9x9() -> list[SudokuPuzzle]:
    return load_puzzles(Path(__file__).resolve().parents[3] / "maps" / "sudoku" / "norvig_easy50.txt")


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 49), st.lists(st.integers(0, 80), min_size=3, max_size=12),
       st.sampled_from([None, None, 1, 2]))
def test_9x9_answers_are_the_first_two_of_every_solution_sorted(which, drop, shuffle):
    """On 9x9 the descent and the halving search (`first_solution`, `next_solution`)
    against every solution found by blocking clauses and sorted: a published puzzle with
    some clues taken away, kept when it has 2 to 300 solutions."""
    puzzle = published_9x9()[which]
    cells = list(puzzle.cells)
    for i in drop:
        cells[i] = 0
    fewer = SudokuPuzzle(9, tuple(cells), "fewer")
    with SudokuSolver(9) as own:
        every = sorted(own.count_solutions(fewer, limit=301))
    if not 2 <= len(every) <= 300:
        return
    found = solve_puzzle(fewer, unique=True, shuffle=shuffle)
    assert found.status == "multiple"
    assert (found.solution, found.second) == (every[0], every[1])
    assert all(is_solution(fewer, grid) for grid in every[:2])


@settings(deadline=None, max_examples=80)
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=16, max_size=16))
def test_the_clue_core_has_exactly_the_puzzles_solutions(cells):
    """clue_core (the rules restricted by propagating the clues in Python, what solve uses
    for 16x16) against brute force on 4x4: same status, and every grid it gives solves."""
    from logic_agents.games.sudoku.core import solve_one

    puzzle = SudokuPuzzle(4, tuple(cells), "p")
    every = all_solutions(puzzle)
    found = solve_one(puzzle, unique=True)
    assert found.status == ("unsat" if not every else "unique" if len(every) == 1 else "multiple")
    for grid in (found.solution, getattr(found, "second", None)):
        if grid is not None:
            assert grid in every
