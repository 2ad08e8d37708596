"""Sudoku formats, the independent checker, and the encoding against brute force."""

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import FormatError
from logic_agents.games.sudoku import board as sudoku_board
from logic_agents.games.sudoku.encode import SudokuSolver, rules

DATA = Path(__file__).resolve().parents[3] / "maps" / "sudoku"
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def all_4x4_grids() -> list[tuple[int, ...]]:
    """Every complete 4x4 Sudoku, by brute force over permutations of rows."""
    perms = list(itertools.permutations(range(1, 5)))
    grids = []
    for rows in itertools.product(perms, repeat=4):
        grid = tuple(v for row in rows for v in row)
        puzzle = sudoku_board.SudokuPuzzle(4, (0,) * 16)
        if sudoku_board.is_solution(puzzle, grid):
            grids.append(grid)
    return grids


GRIDS_4 = all_4x4_grids()


def test_there_are_288_complete_4x4_grids():
    assert len(GRIDS_4) == 288


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 287), st.integers(0, 10**6), st.integers(0, 10), st.booleans())
def test_solution_counts_agree_with_brute_force(index, seed, clues, core):
    """Both searches: under assumptions on the whole rules, and on the puzzle's core (with
    no conflict budget first, so a solve goes to the core at once)."""
    rng = random.Random(seed)
    full = GRIDS_4[index]
    keep = set(rng.sample(range(16), clues))
    cells = tuple(v if i in keep else 0 for i, v in enumerate(full))
    if rng.random() < 0.2 and clues:  # sometimes a contradictory but well-formed puzzle
        i = rng.choice(sorted(keep))
        cells = cells[:i] + (cells[i] % 4 + 1,) + cells[i + 1:]
    puzzle = sudoku_board.SudokuPuzzle(4, cells)
    expected = [g for g in GRIDS_4 if all(c == 0 or c == v for c, v in zip(cells, g))]
    solver = SudokuSolver(4, core=core)
    solver.core_after = 0
    found = solver.count_solutions(puzzle, limit=300)
    assert sorted(found) == sorted(expected)
    grid = solver.solve(puzzle)
    assert (grid in expected) if expected else grid is None
    result = solver.check(puzzle)
    assert result.status == {0: "unsat", 1: "unique"}.get(len(expected), "multiple")
    for grid in (result.solution, result.second):
        if grid is not None:
            assert sudoku_board.is_solution(puzzle, grid)


def test_25x25_goes_to_the_core_and_agrees_with_the_whole_rules():
    """The puzzles whose search on the whole rules ran longest (CORE_SIZES' reason).

    Each has several solutions. The core's two are checked by the independent is_solution
    and must differ: a proof that the whole rules too have several, which is all their
    status says. The whole rules are asked as well where they answer in under a second
    (86 and 63); on 22 they take 8 s on an idle machine, the cost the core exists to spare.
    """
    puzzles = sudoku_board.load_puzzles(DATA / "lloyd_amos" / "inst25x25_p045.txt")
    whole, core = SudokuSolver(25, core=False), SudokuSolver(25)
    assert core.core and not whole.core
    core.core_after = 0
    for index in (22, 86, 63):
        puzzle = puzzles[index]
        assert sudoku_board.is_solution(puzzle, core.solve(puzzle))
        result = core.check(puzzle)
        assert result.status == "multiple" and result.solution != result.second
        assert all(sudoku_board.is_solution(puzzle, grid)
                   for grid in (result.solution, result.second))
        if index != 22:
            assert whole.check(puzzle).status == result.status


def test_rules_print_as_exactly_one_nodes():
    kb = rules(4)
    assert len(kb.formulas) == 4 * 16
    assert kb.pretty(1).startswith("Exactly(1, X_r0c0_v1, X_r0c0_v2, X_r0c0_v3, X_r0c0_v4)")


@pytest.mark.parametrize("name", ["norvig_top95.txt", "norvig_hardest.txt", "norvig_easy50.txt"])
def test_published_9x9_sets_solve_uniquely(name):
    solver = SudokuSolver(9)
    for puzzle in sudoku_board.load_puzzles(DATA / name):
        result = solver.check(puzzle)
        assert result.status == "unique" and sudoku_board.is_solution(puzzle, result.solution)


def test_16x16_and_a_removed_clue_gives_multiple():
    puzzle = sudoku_board.load_puzzles(DATA / "lloyd_amos" / "inst16x16_p050.txt")[0]
    assert sudoku_board.is_solution(puzzle, SudokuSolver(16).solve(puzzle))
    top = sudoku_board.parse_puzzles(TOP95_FIRST)[0]
    unique = SudokuSolver(9).check(top)
    fewer = sudoku_board.SudokuPuzzle(9, (0,) + top.cells[1:])  # drop the first clue: 16 clues left
    result = SudokuSolver(9).check(fewer)
    assert unique.status == "unique" and result.status == "multiple"
    assert result.solution != result.second and sudoku_board.is_solution(fewer, result.second)


def test_formats_round_trip():
    for puzzle in sudoku_board.load_puzzles(DATA / "lloyd_amos" / "inst16x16_p040.txt")[:5] + [
            sudoku_board.parse_puzzles(TOP95_FIRST)[0]]:
        assert sudoku_board.parse_puzzles(sudoku_board.format_line(puzzle))[0].cells == puzzle.cells
        assert sudoku_board.parse_puzzles(sudoku_board.format_grid(puzzle))[0].cells == puzzle.cells
    named = sudoku_board.parse_puzzles(TOP95_FIRST + "  # first of top95\n")[0]
    assert named.name == "first of top95"


@pytest.mark.parametrize(
    "text,where,words",
    [
        ("4....!8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
         ":1:6:", "bad symbol"),
        ("4....x8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
         ":1:6:", "out of range"),
        ("123", ":1:0:", "no Sudoku size"),
        ("44..............", ":1:2:", "repeats"),
        ("5...............", ":1:1:", "out of range"),
        ("1234\n12\n", ":2:0:", "row has"),
        ("# nothing\n", ":0:0:", "no puzzle"),
    ],
)
def test_bad_puzzles_are_located(text, where, words):
    with pytest.raises(FormatError) as err:
        sudoku_board.parse_puzzles(text, "p.txt")
    assert str(err.value).startswith("p.txt" + where), str(err.value)
    assert words in str(err.value)


@settings(max_examples=500, deadline=None)
@given(size=st.sampled_from([4, 9, 16]), data=st.data())
def test_a_repeated_clue_is_found_as_the_units_read_one_by_one_find_it(size, data):
    """The clue check (which walks the clues alone) refuses a puzzle exactly when some row,
    column or box holds one value twice, and names the same clue as reading the units in
    order would."""
    cells = data.draw(st.lists(st.integers(0, size), min_size=size * size,
                               max_size=size * size))
    if data.draw(st.booleans()):  # mostly empty, as real puzzles are: few repeats by chance
        cells = [v if data.draw(st.integers(0, 3)) == 0 else 0 for v in cells]
    first = None  # (the repeated clue, the one it repeats), in the order of the units
    for unit in sudoku_board.units(size):
        seen: dict[int, tuple[int, int]] = {}
        for r, c in unit:
            v = cells[r * size + c]
            if v and v in seen and first is None:
                first = (r, c, seen[v])
            elif v:
                seen.setdefault(v, (r, c))
    text = "".join(sudoku_board.symbol(v) if v else "." for v in cells)
    if first is None:
        assert sudoku_board.parse_puzzles(text, "p.txt")[0].cells == tuple(cells)
        return
    with pytest.raises(FormatError) as err:
        sudoku_board.parse_puzzles(text, "p.txt")
    r, c, (pr, pc) = first
    assert f"at r{r}c{c} repeats the clue at r{pr}c{pc}" in str(err.value)
    assert str(err.value).startswith(f"p.txt:1:{r * size + c + 1}:")


def test_is_solution_rejects_wrong_grids():
    puzzle = sudoku_board.parse_puzzles(TOP95_FIRST)[0]
    grid = SudokuSolver(9).solve(puzzle)
    assert sudoku_board.is_solution(puzzle, grid)
    swapped = list(grid)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not sudoku_board.is_solution(puzzle, tuple(swapped))
    assert not sudoku_board.is_solution(puzzle, None)
    assert not sudoku_board.is_solution(puzzle, grid[:-1])
    assert len(sudoku_board.units(9)) == 27


@pytest.mark.parametrize("name", ["inst16x16_p045.txt", "inst25x25_p045.txt"])
def test_renumbered_large_puzzles_still_solve_and_prove_unique(name):
    """shuffle= (the luck of the search drawn again, benchmarks/bench_tails.py) reaches the
    16x16 clue core and the 25x25 propagated core: the same checked, unique answer."""
    from logic_agents.games.sudoku import solve_puzzle
    from logic_agents.games.sudoku.board import load_puzzles

    for puzzle in load_puzzles(DATA / "lloyd_amos" / name)[:3]:
        plain = solve_puzzle(puzzle)
        for seed in (1, 2):
            found = solve_puzzle(puzzle, shuffle=seed)
            assert found.status == plain.status
            if found.status == "unique":
                assert found.solution == plain.solution
            else:  # which two of the solutions a solver meets first is its luck
                assert found.status == "multiple" and found.second != found.solution
                assert sudoku_board.is_solution(puzzle, found.second)
            assert sudoku_board.is_solution(puzzle, found.solution)


def test_sudoku_core_after_zero_goes_to_the_core_at_once(monkeypatch):
    """Issue 55: core_after = 0 meant an unbounded search on the whole rules (a budget of 0
    conflicts was none); now a solve goes to the puzzle's core at once, as intended."""
    puzzle = sudoku_board.parse_puzzles(TOP95_FIRST)[0]
    solver = SudokuSolver(9, core=True)
    solver.core_after = 0
    went = []
    real = solver._core_models
    monkeypatch.setattr(solver, "_core_models", lambda *a: went.append(a) or real(*a))
    grid = solver.solve(puzzle)
    assert went and grid is not None and 0 not in grid
