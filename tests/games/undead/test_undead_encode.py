"""The Undead encoding against brute force, on every shipped puzzle, and its counters."""

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.undead import board as undead_board
from logic_agents.games.undead import files as undead_files
from logic_agents.games.undead import sight as undead_sight
from logic_agents.games.undead.encode import (
    COUNTING_ENCODINGS,
    UndeadSolver,
    count_solutions,
    decode,
    encode,
)
from logic_agents.games.undead.layout import LayoutSolver
from logic_agents.logic.counter import UnaryCounter
from logic_agents.logic.dimacs import parse_dimacs
from logic_agents.logic.oracle import SatOracle

DATA = Path(__file__).resolve().parents[3] / "maps" / "undead"
EXAMPLE_ID = "4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3"


def brute_force(puzzle: undead_board.UndeadPuzzle) -> list[str]:
    free = [i for i in puzzle.monster_cells if i not in puzzle.givens]
    out = []
    for values in itertools.product(undead_board.MONSTERS, repeat=len(free)):
        grid = list(puzzle.grid)
        for i, m in zip(free, values):
            grid[i] = m
        if undead_board.is_solution(puzzle, "".join(grid)):
            out.append("".join(grid))
    return sorted(out)


@st.composite
def tiny_puzzles(draw):
    width, height = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    rng = random.Random(draw(st.integers(0, 10**9)))
    layout = [rng.choice("..LR") for _ in range(width * height)]
    answer = "".join(ch if ch in "LR" else rng.choice(undead_board.MONSTERS) for ch in layout)
    clues = list(undead_board.clues_of(width, height, answer))
    counts = [answer.count(m) for m in undead_board.MONSTERS]
    if rng.random() < 0.5:  # perturb a clue: often no solution, sometimes another one
        k = rng.randrange(len(clues))
        clues[k] = max(0, clues[k] + rng.choice((-1, 1)))
    if rng.random() < 0.3 and counts[0]:  # move one monster between totals
        counts[0] -= 1
        counts[rng.choice((1, 2))] += 1
    if rng.random() < 0.2:
        clues[rng.randrange(len(clues))] = None  # a hidden clue
    grid = "".join(
        answer[i] if ch == "." and rng.random() < 0.15 else ch for i, ch in enumerate(layout))
    return undead_board.UndeadPuzzle(width, height, (counts[0], counts[1], counts[2]), grid, tuple(clues))


@settings(max_examples=300, deadline=None)
@given(tiny_puzzles())
def test_every_encoding_agrees_with_brute_force(puzzle):
    # the readable KB, the layout's solver and the seen core (with and without CaDiCaL's
    # options, renumbered or not) find the same solutions
    from logic_agents.games.undead.seen import SeenCore

    expected = brute_force(puzzle)
    solver = UndeadSolver(puzzle)
    assert sorted(solver.solutions(limit=10**4)) == expected
    from logic_agents.games.undead.encode import RACE_SETUPS, SMALL_BOARD_SETUP

    for setup in ({"solver": "glucose4"}, {"solver": "cadical153", "shuffle": 7},
                  {"solver": "minisat22", "clue_encoding": "totalizer", "leaves": "cells"},
                  *RACE_SETUPS, SMALL_BOARD_SETUP, {**SMALL_BOARD_SETUP, "shuffle": 3},
                  {"project": False}):
        with SeenCore(puzzle, **setup) as core:
            assert sorted(core.solutions(10**4)) == expected
    layout = LayoutSolver(puzzle.width, puzzle.height, puzzle.grid.replace("G", ".")
                          .replace("V", ".").replace("Z", "."))
    assert sorted(layout.solutions(puzzle, limit=10**4)) == expected
    layout.close()
    solver.close()


@st.composite
def tiny_solved(draw):
    """A layout, a random solution of it and that solution's clues and totals."""
    width, height = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    rng = random.Random(draw(st.integers(0, 10**9)))
    layout = "".join(rng.choice("...LR") for _ in range(width * height))
    answer = "".join(ch if ch in "LR" else rng.choice(undead_board.MONSTERS) for ch in layout)
    counts = tuple(answer.count(m) for m in undead_board.MONSTERS)
    clues = undead_board.clues_of(width, height, answer)
    return undead_board.UndeadPuzzle(width, height, counts, layout, clues), answer


@settings(max_examples=300, deadline=None)
@given(tiny_solved())
def test_the_generators_relaxed_question_agrees_with_brute_force(case):
    # without the totals and with the cells no sight sees held, `known` is unique exactly
    # when no other grid gives the same clues and differs only where a sight looks; and
    # then every other solution of the whole puzzle differs only where no sight looks
    puzzle, known = case
    layout = LayoutSolver(puzzle.width, puzzle.height, puzzle.grid)
    seen = {cell for sight in layout.sights for cell, _ in sight.visits}
    unseen = [i for i in layout.cells if i not in seen]
    free = [i for i in layout.cells if i in seen]
    same_clues = []
    for values in itertools.product(undead_board.MONSTERS, repeat=len(free)):
        grid = list(known)
        for i, m in zip(free, values):
            grid[i] = m
        if undead_board.clues_of(puzzle.width, puzzle.height, "".join(grid)) == puzzle.clues:
            same_clues.append("".join(grid))
    unique, other = layout.other_solution(puzzle, known, totals=False, hold=unseen)
    assert unique == (same_clues == [known])
    if not unique:
        assert other in same_clues and other != known
    every = brute_force(puzzle)
    assert layout.other_solution(puzzle, known)[0] == (every == [known])
    if unique:
        assert all(s[i] == known[i] for s in every for i in free)
    twin = layout.fresh()  # same encoding, a solver of its own
    assert sorted(twin.solutions(puzzle, limit=10**4)) == every
    twin.close()
    layout.close()


def test_the_slack_a_clue_never_reads_is_projected_out_and_counted_back():
    from logic_agents.games.undead.encode import SMALL_BOARD_SETUP
    from logic_agents.games.undead.seen import SeenCore

    # \ . . .   the one clue shown (top of column 0) meets the three cells after a bounce:
    # it reads their M, no clue reads their D, so ghost or zombie is the ghost total's choice
    clues = [None] * 10
    clues[0] = 3
    puzzle = undead_board.UndeadPuzzle(4, 1, (1, 0, 2), "L...", tuple(clues))
    assert brute_force(puzzle) == ["LGZZ", "LZGZ", "LZZG"]
    for setup in ({}, SMALL_BOARD_SETUP, {"shuffle": 5}):
        with SeenCore(puzzle, **setup) as core:
            assert core.slack_direct == [1, 2, 3] and core.slack_mirror == []
            assert core.kept == [core.mirror[c] for c in (1, 2, 3)]  # no D left
            assert sorted(core.solutions(100)) == brute_force(puzzle)  # from one model
        with SeenCore(puzzle, **setup) as core:
            assert len(core.solutions(2)) == 2  # not unique, said without a second call
        with SeenCore(puzzle, project=False, **setup) as core:
            assert core.slack_direct == [] and sorted(core.solutions(100)) == brute_force(puzzle)
    # . . .   the clue at the left of the row meets them before any bounce: the vampires'
    clues = [None] * 8
    clues[7] = 3
    direct = undead_board.UndeadPuzzle(3, 1, (0, 1, 2), "...", tuple(clues))
    with SeenCore(direct) as core:
        assert core.slack_mirror == [0, 1, 2] and core.slack_direct == []
        assert sorted(core.solutions(100)) == brute_force(direct) == ["VZZ", "ZVZ", "ZZV"]


def test_a_model_with_room_for_many_choices_lists_only_what_is_asked():
    from logic_agents.games.undead.seen import SeenCore

    # \ and 60 cells the one clue meets after a bounce: 30 ghosts among them, C(60, 30)
    # (about 10^17) solutions from one model; the first two are listed, the rest never made
    clues = [None] * 124
    clues[0] = 60
    puzzle = undead_board.UndeadPuzzle(61, 1, (30, 0, 30), "L" + "." * 60, tuple(clues))
    with SeenCore(puzzle) as core:
        assert len(core.slack_direct) == 60
        two = core.solutions(2)
        assert len(set(two)) == 2
        assert all(undead_board.is_solution(puzzle, s) for s in two)


def test_a_cell_passed_twice_counts_twice():
    from logic_agents.games.undead.seen import SeenCore

    # . . \    the sight from the top of column 1 passes (0,1) directly, then again after
    # . \ /    three bounces: a zombie there is seen twice, a ghost or vampire once
    layout = "..L.LR"
    for monster, seen_times in (("Z", 2), ("G", 1), ("V", 1)):
        answer = "V" + monster + "L" + "V" + "LR"  # the vampire at (0,0) is seen in a mirror: not counted
        clues = undead_board.clues_of(3, 2, answer)
        assert clues[1] == seen_times
        counts = tuple(answer.count(m) for m in undead_board.MONSTERS)
        puzzle = undead_board.UndeadPuzzle(3, 2, counts, layout, clues)
        assert answer in brute_force(puzzle)
        assert sorted(UndeadSolver(puzzle).solutions(100)) == brute_force(puzzle)
        assert sorted(SeenCore(puzzle).solutions(100)) == brute_force(puzzle)
    kb = encode(undead_board.UndeadPuzzle(3, 2, (0, 0, 2), layout, (0, 2) + (0,) * 8))
    assert any("~G_r0c1, ~V_r0c1" in str(f) for f in kb.formulas)


def test_the_totals_count_a_cell_no_sight_sees():
    from logic_agents.games.undead.seen import SeenCore, sight_order

    # / . / \
    # . / . /    (1,2) lies on closed loops of mirrors both ways: no clue sees it, and
    # . \ / \    only the totals say what it holds
    # \ / / /
    layout = "R.RL.R.R.LRLLRRR"
    for monster in undead_board.MONSTERS:
        answer = "RGRL" + "VR" + monster + "R" + "ZLRL" + "LRRR"
        puzzle = undead_board.UndeadPuzzle(
            4, 4, (answer.count("G"), answer.count("V"), answer.count("Z")), layout,
            undead_board.clues_of(4, 4, answer))
        assert all(cell != 6 for sight in puzzle.sights for cell, _ in sight.visits)
        order = sight_order(puzzle)
        assert sorted(order) == list(puzzle.monster_cells) and order[-1] == 6
        with SeenCore(puzzle) as core:
            assert sorted(core.solutions(100)) == brute_force(puzzle)
            assert answer in brute_force(puzzle)


@pytest.mark.parametrize("name", ["7x7dn.tsv", "5x5dt.tsv"])
def test_the_core_solves_every_turn_of_a_board_as_the_board(name):
    # the totals' leaves follow the lines of sight (sight_order), and each of a board's eight
    # symmetries hands them over in another order: each gives its one solution, turned
    from logic_agents.errors import UnknownName
    from logic_agents.games.undead.seen import LEAF_ORDERS, SeenCore

    for entry in undead_files.load_entries(DATA / name)[:5]:
        puzzle = entry.puzzle
        for quarter_turns, mirrored in itertools.product(range(4), (False, True)):
            turned = undead_board.turned(puzzle, quarter_turns, mirrored)
            *_, answer = undead_sight.turn_grid(puzzle.width, puzzle.height, entry.reference,
                                                quarter_turns, mirrored)
            for leaves in LEAF_ORDERS:
                with SeenCore(turned, leaves=leaves) as core:
                    assert core.solutions(2) == [answer]
    with pytest.raises(UnknownName, match="unknown leaf order 'spiral'"):
        SeenCore(puzzle, leaves="spiral")


def test_every_shipped_puzzle_is_unique_and_matches_its_reference():
    for path in sorted(DATA.glob("*.tsv")):
        for entry in undead_files.load_entries(path):
            solver = UndeadSolver(entry.puzzle)
            result = solver.check(unique=True)
            assert result.status == "unique", entry.puzzle.name
            assert result.solution == entry.reference
            assert undead_board.is_solution(entry.puzzle, result.solution)
            solver.close()


@pytest.mark.parametrize("encoding", COUNTING_ENCODINGS)
def test_every_counting_encoding_gives_the_same_answers(encoding):
    for entry in undead_files.load_entries(DATA / "7x7dn.tsv")[:5]:
        solver = UndeadSolver(entry.puzzle, card_encoding=encoding)
        assert solver.solutions(3) == [entry.reference]
        solver.close()
    entry = undead_files.load_entries(DATA / "7x7dn.tsv")[0]
    solver = UndeadSolver(entry.puzzle, totals="two")
    assert solver.solutions(3) == [entry.reference]


def test_the_kb_reads_as_rules_and_writes_dimacs():
    puzzle = undead_board.parse_game_id(EXAMPLE_ID)
    kb = encode(puzzle)
    text = kb.pretty()
    assert "Exactly(1, G_r0c1, V_r0c1, Z_r0c1)" in text
    assert "Exactly(3, G_r0c1" in text  # the ghost total
    dimacs = parse_dimacs(kb.to_dimacs())
    assert dimacs.num_vars == kb.num_vars and len(dimacs.clauses) == len(kb.clauses)
    with SatOracle(kb) as oracle:
        assert decode(puzzle, oracle.model()) == "LVVRVLGZGRZRLVRG"
    assert count_solutions(puzzle, limit=5) == 1


def test_a_puzzle_with_two_solutions_shows_both():
    puzzle = undead_board.parse_game_id(EXAMPLE_ID)
    loose = undead_board.UndeadPuzzle(4, 4, puzzle.counts, puzzle.grid, (None,) * 16)
    found = UndeadSolver(loose).solutions(3)
    assert len(found) == 3 and all(undead_board.is_solution(loose, s) for s in found)
    assert UndeadSolver(loose).check().status == "multiple"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=6), st.integers(0, 8))
def test_unary_counter_means_at_least_k_both_ways(raw, k):
    from pysat.solvers import Solver

    lits = [v if i % 3 else -v for i, v in enumerate(raw)]  # duplicates and negations
    top = [4]

    def new_var():
        top[0] += 1
        return top[0]

    counter = UnaryCounter(lits, new_var)
    for values in itertools.product((False, True), repeat=4):
        assignment = [v if values[v - 1] else -v for v in range(1, 5)]
        count = sum(values[abs(x) - 1] == (x > 0) for x in lits)
        assumptions = counter.exactly(k)
        with Solver(name="glucose4", bootstrap_with=counter.clauses) as s:
            sat = assumptions is not None and s.solve(assumptions=assignment + assumptions)
        assert sat == (count == k)


def test_large_boards_race_two_set_ups_and_answer_as_the_first_alone():
    """Raced (the default from RACE_CELLS on; asked for here on a 20x20 board), `solve` runs
    RACE_SETUPS (the seen core under two solvers) on two cores; whichever wins, the answer
    is the one the first set-up gives alone: the same unique solution, and for a board with
    several solutions the first set-up's two (a second solution depends on the solver, so
    the race waits for it), every time. Renumbered
    (shuffle=) the answers are still right."""
    import dataclasses

    from logic_agents.games.undead.encode import RACE_SETUPS, check_with, solve
    from logic_agents.games.undead.generate import generate_puzzles

    made = generate_puzzles(20, 20, 1, seed=3)[0]
    assert solve(made.puzzle, race=True).status == "unique"
    assert (solve(made.puzzle, race=True).solution == made.solution ==
            solve(made.puzzle).solution == solve(made.puzzle, race=False).solution)
    for setup in RACE_SETUPS:
        for shuffle in (None, 1):
            assert check_with(made.puzzle, setup, shuffle=shuffle).solution == made.solution
    # several solutions (a shipped 7x7 board without its clues on one side): raced on purpose
    board = undead_files.load_entries(DATA / "7x7dn.tsv")[0].puzzle
    clues = list(board.clues)
    clues[: board.width] = [None] * board.width
    open_board = dataclasses.replace(board, clues=tuple(clues))
    alone = check_with(open_board, RACE_SETUPS[0])  # solve(race=False) here: SMALL_BOARD_SETUP
    assert alone.status == "multiple"
    for _ in range(3):
        assert solve(open_board, race=True) == alone
    assert solve(open_board, unique=False, race=True).solution == alone.solution
    for grid in (alone.solution, alone.second):
        assert undead_board.is_solution(open_board, grid)
