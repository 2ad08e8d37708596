"""Monsters placed the game's way (placing.py) do what the game's get_unique does.

- place_sight gives a sight's undecided cells an assignment whose clue pair no other
  assignment of them gives, with the decided cells held, exactly when such a pair exists
  (brute force over every assignment, on random layouts and random partial decisions); it
  picks among those pairs, not always the same one.
- Sights placed in the game's order are decided by the deduction's first pass: every cell
  the placing decided is decided after one pass, on the puzzle the placed solution gives.
- Generated puzzles at every level and larger sizes are unique (SAT) and rated their level
  by the game's rating; a board of 30x30 with no level is unique.
"""

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.undead.board import EMPTY, MONSTERS, clues_of, is_solution
from logic_agents.games.undead.difficulty import ALL, BIT, deduce_paths, paths_on, rate, with_clues
from logic_agents.games.undead.encode import UndeadSolver
from logic_agents.games.undead.generate import generate_puzzle, random_layout
from logic_agents.games.undead.placing import DECIDED, game_filling, place, place_sight
from logic_agents.games.undead.sight import trace_sights


def _pairs(path, possible):
    """clue pair -> the assignments of the path's cells that give it (brute force)."""
    out: dict[tuple[int, int], list[tuple[str, ...]]] = {}
    choices = [[m for m in MONSTERS if possible[c] & BIT[m]] for c in path.cells]
    for pick in product(*choices):
        start = sum(path.start_sees[k][m] for k, m in enumerate(pick))
        end = sum(path.end_sees[k][m] for k, m in enumerate(pick))
        out.setdefault((start, end), []).append(pick)
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.integers(0, 10**6))
def test_place_sight_picks_a_pair_only_one_assignment_gives(width, height, seed):
    rng = random.Random(seed)
    grid = random_layout(width, height, rng)
    sights = trace_sights(width, height, grid)
    paths = [p for p in paths_on(sights, [0] * len(sights)) if 0 < len(p.cells) <= 7]
    if not paths:
        return
    path = rng.choice(paths)
    possible = [0] * len(grid)
    for i, ch in enumerate(grid):
        if ch == EMPTY:  # some cells decided already, as earlier sights leave them
            possible[i] = ALL if rng.random() < 0.6 else BIT[rng.choice(MONSTERS)]
    before = list(possible)
    singles = {pair: picks[0] for pair, picks in _pairs(path, before).items() if len(picks) == 1}
    placed = place_sight(path, possible, rng)
    assert placed == bool(singles)
    if not placed:
        assert possible == before
        return
    pick = tuple(DECIDED[possible[c]] for c in path.cells)
    assert pick in singles.values()
    for cell in path.cells:  # held cells keep their monster
        if before[cell] != ALL:
            assert possible[cell] == before[cell]
    assert all(possible[i] == before[i] for i in range(len(grid)) if i not in path.cells)


def test_place_sight_draws_among_the_pairs():
    rng = random.Random(5)
    while True:  # a sight with several pairs that one assignment alone gives
        grid = random_layout(5, 5, rng)
        sights = trace_sights(5, 5, grid)
        paths = [p for p in paths_on(sights, [0] * len(sights)) if 0 < len(p.cells) <= 6]
        path = max(paths, key=lambda p: len(p.cells))
        singles = [pair for pair, picks in _pairs(path, [ALL] * 25).items() if len(picks) == 1]
        if len(singles) >= 3:
            break
    seen = set()
    for seed in range(60):
        possible = [ALL if ch == EMPTY else 0 for ch in grid]
        assert place_sight(path, possible, random.Random(seed))
        seen.add(tuple(possible[c] for c in path.cells))
    assert len(seen) == len(singles)  # each pair drawn, in 60 draws


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9), st.integers(3, 9), st.integers(0, 10**6), st.booleans())
def test_sights_placed_in_order_are_decided_by_the_first_pass(width, height, seed, normal):
    rng = random.Random(seed)
    grid = random_layout(width, height, rng)
    sights = trace_sights(width, height, grid)
    skeleton = paths_on(sights, [0] * len(sights))
    cells = [i for i, ch in enumerate(grid) if ch == EMPTY]
    filling = game_filling("normal" if normal else "easy", width, height, len(cells))
    possible = place(grid, skeleton, rng, filling)
    solution = "".join(ch if ch != EMPTY else DECIDED.get(possible[i]) or rng.choice(MONSTERS)
                       for i, ch in enumerate(grid))
    clues = clues_of(width, height, solution, sights)
    counts = (solution.count("G"), solution.count("V"), solution.count("Z"))
    after, _, consistent = deduce_paths(with_clues(skeleton, clues), width * height, cells, {},
                                        counts, max_passes=1)
    assert consistent
    for cell in cells:
        if possible[cell] != ALL:  # placed: decided by the first pass, to its monster
            assert after[cell] == possible[cell]


def _unique(puzzle) -> bool:
    solver = UndeadSolver(puzzle)
    try:
        return solver.count_solutions(2) == 1
    finally:
        solver.close()


@pytest.mark.parametrize("size,level", [(12, "easy"), (15, "easy"), (12, "normal"),
                                        (15, "normal"), (10, "tricky")])
def test_larger_boards_at_every_level(size, level):
    made = generate_puzzle(size, size, random.Random(f"placing-{size}-{level}"), level)
    assert is_solution(made.puzzle, made.solution)
    assert _unique(made.puzzle)
    assert rate(made.puzzle).level == level


@pytest.mark.slow
def test_thirty_by_thirty_with_no_level_is_unique():
    made = generate_puzzle(30, 30, random.Random("placing-30"))
    assert is_solution(made.puzzle, made.solution)
    assert _unique(made.puzzle)
