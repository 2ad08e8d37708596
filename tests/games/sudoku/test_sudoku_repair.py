"""Generation by repair (issue 55): 25x25 puzzles are made by drawing clues and adding one
where a second solution differs, until none does. Checked here on 9x9 (the same code, with
REPAIRED widened for the test): the puzzle is unique, its one solution is the planted grid,
it keeps every clue it drew, and the same seed makes the same puzzle."""

from __future__ import annotations

import importlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.sudoku.board import is_solution
from logic_agents.games.sudoku.core import solve_one

generate = importlib.import_module("logic_agents.games.sudoku.generate")


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 10**6), st.integers(10, 40))
def test_a_repaired_puzzle_is_unique_and_keeps_its_planted_grid(seed, drawn):
    rng = random.Random(seed)
    grid = generate.random_full_grid(9, rng)
    order = list(range(81))
    rng.shuffle(order)
    puzzle = generate.repaired_puzzle(9, rng, grid, order, drawn, "p")
    found = solve_one(puzzle, unique=True)
    assert found.status == "unique" and found.solution == grid and is_solution(puzzle, grid)
    assert all(puzzle.cells[i] == grid[i] for i in order[:drawn])  # every drawn clue kept
    assert all(v in (0, g) for v, g in zip(puzzle.cells, grid)) and puzzle.clues >= drawn


def test_a_repaired_size_makes_the_same_puzzles_from_the_same_seed(monkeypatch):
    monkeypatch.setattr(generate, "REPAIRED", {9: 0.3})
    first = generate.generate_puzzles(9, 2, seed=5)
    assert first == generate.generate_puzzles(9, 2, seed=5)
    for puzzle in first:
        assert solve_one(puzzle, unique=True).status == "unique" and puzzle.clues >= 24
    assert generate.REPAIRED == {9: 0.3}


def test_25x25_is_made_by_repair_at_45_percent():
    assert generate.REPAIRED == {25: 0.45}
