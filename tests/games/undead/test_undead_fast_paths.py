"""The fast paths of issue 42 give the answers the slow ones gave.

- The game's path deduction, walked over memoized states, narrows exactly as the plain
  enumeration of every assignment does (a reference written out here), on random boards
  with right and with wrong clues.
- Puzzles drawn the game's way round (rated.draw_rated: the deduction first) are unique,
  rated what was asked by the game's rating (rate, on the puzzle alone) and solved by their
  answer.
- The layout test (acceptance.sight_problem) throws away exactly the layouts whose puzzles
  game_problem throws away for their sights.
- The native seen core (Minicard, small boards) answers as the counters' core does,
  renumbered or not.
- unique_with_givens keeps the answer it was given and makes it the only one.
"""

import dataclasses
import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import FormatError
from logic_agents.games.undead.acceptance import game_problem, sight_problem
from logic_agents.games.undead.board import (
    EMPTY,
    MONSTERS,
    UndeadPuzzle,
    clues_of,
    is_solution,
    puzzle_from_solution,
)
from logic_agents.games.undead.difficulty import BIT, Path, _narrow, deduce_paths, paths_of, rate
from logic_agents.games.undead.encode import (
    RACE_SETUPS,
    SMALL_BOARD_SETUP,
    UndeadSolver,
    check_with,
    solve,
)
from logic_agents.games.undead.files import load_entries
from logic_agents.games.undead.generate import random_layout
from logic_agents.games.undead.rated import draw_rated
from logic_agents.games.undead.repair import unique_with_givens
from logic_agents.games.undead.sight import trace_sights


def _narrow_by_enumeration(path: Path, possible: list[int],
                           totals: tuple[int, int, int]) -> bool | None:
    """The deduction as the game states it: every assignment of the path's cells over their
    possible monsters, kept when both clues and the three totals' bounds hold."""
    inside = set(path.cells)
    room = list(totals)
    for cell, bits in enumerate(possible):
        if cell not in inside and bits in (1, 2, 4):
            room[bits.bit_length() - 1] -= 1
    found = [0] * len(path.cells)
    choices = [[m for m in MONSTERS if possible[c] & BIT[m]] for c in path.cells]
    for pick in product(*choices):
        start = sum(path.start_sees[k][m] for k, m in enumerate(pick))
        end = sum(path.end_sees[k][m] for k, m in enumerate(pick))
        if path.start_clue is not None and start != path.start_clue:
            continue
        if path.end_clue is not None and end != path.end_clue:
            continue
        if any(pick.count(m) > room[slot] for slot, m in enumerate(MONSTERS)):
            continue
        for k, m in enumerate(pick):
            found[k] |= BIT[m]
    if path.cells and not any(found):
        return None
    changed = False
    for k, cell in enumerate(path.cells):
        if possible[cell] & ~found[k]:
            possible[cell] &= found[k]
            changed = True
    return changed


def _random_puzzle(width: int, height: int, rng: random.Random) -> tuple[UndeadPuzzle, str]:
    grid = random_layout(width, height, rng)
    solution = "".join(ch if ch != EMPTY else rng.choice(MONSTERS) for ch in grid)
    return puzzle_from_solution(width, height, solution), solution


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.integers(0, 10**6), st.booleans())
def test_the_memoized_deduction_narrows_as_the_enumeration(width, height, seed, wrong):
    rng = random.Random(seed)
    puzzle, _ = _random_puzzle(width, height, rng)
    if wrong:  # a clue off by one: the deduction may meet a contradiction
        clues = list(puzzle.clues)
        k = rng.randrange(len(clues))
        clues[k] = max(0, clues[k] + rng.choice((-1, 1)))
        puzzle = dataclasses.replace(puzzle, clues=tuple(clues))
    fast = [0] * (width * height)
    slow = [0] * (width * height)
    for cell in puzzle.monster_cells:
        fast[cell] = slow[cell] = 7
    for _ in range(3):  # three passes, each path seeing what the ones before narrowed
        for path in paths_of(puzzle):
            a = _narrow(path, fast, puzzle.counts)
            b = _narrow_by_enumeration(path, slow, puzzle.counts)
            assert a == b and fast == slow
            if a is None:
                return


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(4, 4), (5, 5), (7, 7), (6, 9), (3, 8)]), st.integers(0, 10**6),
       st.sampled_from(["easy", "normal", "tricky"]))
def test_rated_draws_are_unique_and_rated_what_was_asked(size, seed, level):
    """Easy at every size; normal and tricky where the game makes them often (7x7, 6x9:
    4x4 and 3x8 layouts are seldom either)."""
    width, height = size if level == "easy" or size in ((7, 7), (6, 9)) else (7, 7)
    rng = random.Random(seed)
    for _ in range(200):
        grid = random_layout(width, height, rng)
        sights = trace_sights(width, height, grid)
        drawn = draw_rated(width, height, grid, sights, rng, level)
        if drawn is None:
            continue
        assert is_solution(drawn.puzzle, drawn.solution)
        assert drawn.puzzle.clues == clues_of(width, height, drawn.solution, sights)
        assert rate(drawn.puzzle) == drawn.rating and drawn.rating.level == level
        solver = UndeadSolver(drawn.puzzle)
        try:
            assert solver.count_solutions(2) == 1
        finally:
            solver.close()
        return
    raise AssertionError(f"no {level} {width}x{height} puzzle in 200 layouts")


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9), st.integers(3, 6), st.integers(0, 10**6),
       st.sampled_from(["easy", "normal", "tricky"]))
def test_the_layout_test_is_the_games_sight_test(width, height, seed, level):
    puzzle, solution = _random_puzzle(width, height, random.Random(seed))
    layout_says = sight_problem(width, height, trace_sights(width, height, puzzle.grid), level)
    puzzle_says = game_problem(puzzle, solution, level)
    if layout_says:
        assert puzzle_says == layout_says
    else:
        assert not (puzzle_says or "").startswith("a line of sight")


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 7), st.integers(3, 7), st.integers(0, 10**6), st.booleans())
def test_the_native_core_answers_as_the_counters(width, height, seed, open_side):
    """Unique or not (clues taken off one side leave several solutions): the same status,
    and every answer a solution; renumbered (shuffle) too."""
    puzzle, _ = _random_puzzle(width, height, random.Random(seed))
    if open_side:
        clues = list(puzzle.clues)
        clues[:width] = [None] * width
        puzzle = dataclasses.replace(puzzle, clues=tuple(clues))
    counters = check_with(puzzle, RACE_SETUPS[0])
    for shuffle in (None, seed):
        native = check_with(puzzle, SMALL_BOARD_SETUP, shuffle=shuffle)
        assert native.status == counters.status
        for grid in (native.solution, native.second):
            if grid is not None:
                assert is_solution(puzzle, grid)
        if counters.status == "unique":
            assert native.solution == counters.solution
    assert solve(puzzle).status == counters.status  # solve picks the native core here


def test_unique_with_givens_keeps_the_answer():
    rng = random.Random(5)
    for width, height in ((6, 6), (10, 10)):
        _, solution = _random_puzzle(width, height, rng)
        puzzle = unique_with_givens(width, height, solution, random.Random(1))
        assert all(solution[cell] == monster for cell, monster in puzzle.givens.items())
        result = solve(puzzle)
        assert result.status == "unique" and result.solution == solution


def test_a_folder_given_as_a_puzzle_file_is_named_in_english(tmp_path):
    """One line, file:line:col, and "an Undead puzzle file" (it read "a Undead")."""
    with pytest.raises(FormatError, match="is a directory, not an Undead puzzle file"):
        load_entries(tmp_path)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 7), st.integers(3, 7), st.integers(0, 10**6))
def test_skipping_decided_paths_of_a_solvable_puzzle_changes_nothing(width, height, seed):
    puzzle, _ = _random_puzzle(width, height, random.Random(seed))
    args = (paths_of(puzzle), width * height, puzzle.monster_cells, {}, puzzle.counts)
    assert deduce_paths(*args, solvable=True) == deduce_paths(*args)
    assert deduce_paths(*args, 3, solvable=True) == deduce_paths(*args, 3)


def test_a_board_over_100_cells_tries_minicard_under_its_budget_then_the_old_set_up(
        monkeypatch):
    """Issue 55: above SMALL_BOARD_CELLS Minicard goes first, each call under
    MINICARD_CONFLICTS; a call past its budget answers None, and the board goes on to
    RACE_SETUPS[0]. Either way the answer is the board's one solution; with several, each
    grid solves it."""
    import importlib

    encode = importlib.import_module("logic_agents.games.undead.encode")
    rng = random.Random("budget-55")
    real = encode.check_with
    calls: list[tuple] = []

    def spied(*a, **k):
        calls.append(a)
        return real(*a, **k)

    for size in (11, 14):
        grid = random_layout(size, size, rng)
        solution = "".join(ch if ch != EMPTY else rng.choice(MONSTERS) for ch in grid)
        puzzle = unique_with_givens(size, size, solution, random.Random(f"budget-{size}"))
        assert encode.within_budget(puzzle, 10**6).solution == solution
        assert encode.within_budget(puzzle, 0) is None  # no conflict allowed: out at once
        calls.clear()
        monkeypatch.setattr(encode, "check_with", spied)
        assert solve(puzzle).solution == solution and not calls  # Minicard settled it
        monkeypatch.setattr(encode, "MINICARD_CONFLICTS", 0)
        found = solve(puzzle)
        assert found.status == "unique" and found.solution == solution
        assert calls and calls[-1][1] == RACE_SETUPS[0]  # past the budget: the old set-up
        monkeypatch.undo()
