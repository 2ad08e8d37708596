"""Undead game IDs, pictures, lines of sight and the independent checker."""

import contextlib
import random
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import FormatError
from logic_agents.games.undead import board as undead_board
from logic_agents.games.undead import files as undead_files
from logic_agents.games.undead import sight as undead_sight

DATA = Path(__file__).resolve().parents[3] / "maps" / "undead"
EXAMPLE_ID = "4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3"
EXAMPLE_SOLUTION = "LVVRVLGZGRZRLVRG"
EXAMPLE_PICTURE = textwrap.dedent(r"""
    counts: 3 4 2
        0 3 3 0
    3   \ . . /  2
    2   . \ . .  1
    0   . / . /  1
    0   \ . / .  0
        0 3 1 0
    """).lstrip()
EXAMPLE_SOLVED = textwrap.dedent(r"""
    counts: 3 4 2
        0 3 3 0
    3   \ V V /  2
    2   V \ G Z  1
    0   G / Z /  1
    0   \ V / G  0
        0 3 1 0
    """).lstrip()
# A puzzle with monsters given in the ID (Janko No. 14, quoted in sgt-puzzles' undead.c)
JANKO_14 = ("8x5:12,12,0,LaRbLaRaLaRLbRaVaVaGRaRaRaLbLaRbRLb,"
            "0,2,0,2,2,1,2,1,3,1,0,1,8,4,3,0,0,2,3,2,7,2,1,6,2,1")


def test_the_reports_worked_example_both_ways():
    puzzle = undead_board.parse_game_id(EXAMPLE_ID)
    assert undead_board.format_picture(puzzle) == EXAMPLE_PICTURE
    assert undead_board.format_picture(puzzle, EXAMPLE_SOLUTION) == EXAMPLE_SOLVED
    assert undead_files.parse_puzzles(EXAMPLE_PICTURE)[0] == puzzle
    assert undead_board.format_game_id(undead_files.parse_puzzles(EXAMPLE_PICTURE)[0]) == EXAMPLE_ID
    assert undead_board.is_solution(puzzle, EXAMPLE_SOLUTION)
    assert puzzle.counts == (3, 4, 2) and puzzle.width == puzzle.height == 4


def test_every_shipped_puzzle_round_trips_and_its_reference_checks():
    files = sorted(DATA.glob("*.tsv"))
    assert len(files) == 8
    for path in files:
        lines = path.read_text().splitlines()
        entries = undead_files.load_entries(path)
        assert len(entries) == 30
        for k, (line, entry) in enumerate(zip(lines, entries), start=1):
            game_id, seed, solution = line.split("\t")
            assert undead_board.format_game_id(entry.puzzle) == game_id
            assert entry.puzzle.seed_id == seed and entry.reference == solution
            assert entry.puzzle.name == f"{path.stem}:{k}"  # what loads it again
            assert undead_files.parse_puzzles(undead_board.format_picture(entry.puzzle))[0] == entry.puzzle
            assert undead_board.is_solution(entry.puzzle, solution)
            assert undead_board.clues_of(entry.puzzle.width, entry.puzzle.height,
                                         solution) == entry.puzzle.clues


def test_givens_and_rectangular_boards():
    puzzle = undead_board.parse_game_id(JANKO_14)
    assert (puzzle.width, puzzle.height) == (8, 5)
    assert sorted(puzzle.givens.values()) == ["G", "V", "V"]
    assert undead_board.format_game_id(puzzle) == JANKO_14
    assert undead_files.parse_puzzles(undead_board.format_picture(puzzle))[0] == puzzle


def test_runs_longer_than_26_are_written_as_the_game_does():
    puzzle = undead_board.UndeadPuzzle(30, 1, (30, 0, 0), "." * 30, (0,) * 62)
    assert undead_board.format_game_id(puzzle).split(",")[3] == "zd"
    assert undead_board.parse_game_id(undead_board.format_game_id(puzzle)) == puzzle


def test_a_line_of_sight_can_pass_a_cell_twice_with_two_visibilities():
    #  . . \      the sight from the top of column 1 goes down through (0,1), bounces off
    #  . \ /      (1,1) and (1,2) and (0,2), and comes back through (0,1) to the left edge
    sight = undead_sight.trace_sight(3, 2, "..L.LR", 1)
    assert sight.visits == ((1, False), (1, True), (0, True))
    assert sight.exit == 9
    assert undead_board.clues_of(3, 2, "ZGL.LR".replace(".", "V"))[1] == 2  # one zombie seen twice


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6))
def test_sights_pair_up_and_pass_every_cell_at_most_four_times(width, height, seed):
    rng = random.Random(seed)
    grid = "".join(rng.choice("..LR") for _ in range(width * height))
    sights = undead_sight.trace_sights(width, height, grid)
    for sight in sights:  # the line back from the exit is the same line, reversed
        back = sights[sight.exit]
        assert back.exit == sight.clue
        assert [c for c, _ in back.visits] == [c for c, _ in reversed(sight.visits)]
    passes = Counter(cell for s in sights for cell, _ in s.visits)
    empty = [i for i, ch in enumerate(grid) if ch == "."]
    # across and down, from both ends; a direction that lies on a closed loop of mirrors,
    # which no clue sees, leaves 2 (or 0)
    assert all(passes[i] in (0, 2, 4) for i in empty)


@pytest.mark.parametrize("text,col,words", [
    ("4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2", 54, "has 16 clues"),
    ("4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3,4", 57, "has 16 clues"),
    ("4x4:3,4,2,LbRaL1RaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3", 16, "bad run letter '1'"),
    ("4x4:3,4,3,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3", 5, "do not add up"),
    ("4x4:3,4,2,LbRaLcRaRLa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3", 22, "fills 14 of the 16"),
    ("4x4:3,4,2,LbRaLcRaRLaRab,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3", 24, "runs past"),
    ("4x4:3,x,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3", 7, "vampire count"),
    ("4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,x", 55, "a clue must be"),
    ("4by4:3,4,2", 1, "starts with WxH"),
])
def test_bad_game_ids_name_the_position(text, col, words):
    with pytest.raises(FormatError) as err:
        undead_board.parse_game_id(text)
    assert err.value.col == col, err.value
    assert words in err.value.message


def test_errors_in_a_file_carry_file_line_and_column(tmp_path):
    path = tmp_path / "ids.tsv"
    path.write_text(f"{EXAMPLE_ID}\tfirst\n\n  4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,9!\n")
    with pytest.raises(FormatError) as err:
        undead_files.load_entries(path)
    assert (err.value.file, err.value.line, err.value.col) == (str(path), 3, 57)
    bad_picture = EXAMPLE_PICTURE.replace("\\ . . /", "\\ . x /")
    with pytest.raises(FormatError) as err:
        undead_files.parse_entries("# a name\n" + bad_picture, "pic.txt")
    assert (err.value.line, err.value.col) == (4, 9)
    with pytest.raises(FormatError, match="counts add up"):
        undead_files.parse_entries(EXAMPLE_PICTURE.replace("counts: 3 4 2", "counts: 3 4 3"))
    with pytest.raises(FormatError, match="no Undead puzzle"):
        undead_files.parse_entries("# only a comment\n")


def test_is_solution_checks_every_rule_on_its_own():
    puzzle = undead_board.parse_game_id(EXAMPLE_ID)
    assert not undead_board.is_solution(puzzle, EXAMPLE_SOLUTION[:-1])
    assert not undead_board.is_solution(puzzle, "R" + EXAMPLE_SOLUTION[1:])  # a mirror changed
    swapped = EXAMPLE_SOLUTION.replace("Z", "x").replace("G", "Z").replace("x", "G")
    assert not undead_board.is_solution(puzzle, swapped)  # totals broken
    # same totals, a clue broken: swap a ghost and a vampire
    s = list(EXAMPLE_SOLUTION)
    g, v = s.index("G"), s.index("V")
    s[g], s[v] = s[v], s[g]
    assert not undead_board.is_solution(puzzle, "".join(s))
    with_given = undead_board.parse_game_id(EXAMPLE_ID.replace("LbRa", "LVaRa", 1))
    assert undead_board.is_solution(with_given, EXAMPLE_SOLUTION)
    # a given ghost where the answer has a vampire
    assert not undead_board.is_solution(undead_board.parse_game_id(
        EXAMPLE_ID.replace("LbRa", "LGaRa", 1).replace("3,4,2", "4,3,2", 1)), EXAMPLE_SOLUTION)


VALID = [EXAMPLE_ID, JANKO_14]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VALID), st.lists(st.tuples(st.integers(0, 200), st.characters(
    codec="ascii")), max_size=4), st.booleans())
def test_parser_fuzzing_raises_only_format_errors(base, edits, cut):
    text = list(base)
    for pos, ch in edits:
        if text:
            text[pos % len(text)] = ch
    candidate = "".join(text)
    if cut:
        candidate = candidate[: len(candidate) // 2]
    try:
        undead_files.parse_entries(candidate)
        picture = undead_board.format_picture(undead_board.parse_game_id(base))
        undead_files.parse_entries(picture.replace("0", candidate[:2], 1))
    except FormatError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_arbitrary_text_raises_only_format_errors(text):
    with contextlib.suppress(FormatError):
        undead_files.parse_entries(text)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 10**9), st.integers(0, 7),
       st.booleans())
def test_a_turned_board_holds_the_turned_solution(width, height, seed, quarter_turns, mirrored):
    rng = random.Random(seed)
    answer = "".join(rng.choice("GVZLR") for _ in range(width * height))
    grid = "".join(ch if ch in "LR" or rng.random() < 0.2 else "." for ch in answer)
    puzzle = undead_board.UndeadPuzzle(width, height, tuple(answer.count(m) for m in "GVZ"),
                                       grid, undead_board.clues_of(width, height, answer))
    turned = undead_board.turned(puzzle, quarter_turns, mirrored)
    w, h, turned_answer = undead_sight.turn_grid(width, height, answer, quarter_turns, mirrored)
    assert (turned.width, turned.height) == (w, h)
    assert (w, h) == ((height, width) if quarter_turns % 2 else (width, height))
    assert undead_board.is_solution(turned, turned_answer)
    assert turned.clues == undead_board.clues_of(w, h, turned_answer)
    assert sorted(turned.givens.values()) == sorted(puzzle.givens.values())
    # four quarter turns, or the mirror image twice, give the board back
    assert undead_board.turned(undead_board.turned(puzzle, quarter_turns), 4 - quarter_turns % 4) \
        == puzzle
    assert undead_board.turned(undead_board.turned(puzzle, 0, True), 0, True) == puzzle
