"""Undead difficulty as the real game rates it: the game's own puzzles keep their level, the
deduction never removes the answer, generated puzzles are rated what was asked, and game IDs
carry the level in their parameters."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import FormatError, GenerationError
from logic_agents.games.undead.board import format_game_id, parse_game_id
from logic_agents.games.undead.difficulty import (
    BIT,
    GAME_SEARCH_LIMIT,
    deduce,
    paths_of,
    rate,
)
from logic_agents.games.undead.files import load_entries
from logic_agents.games.undead.generate import game_size_problem, generate_puzzles

DATA = Path(__file__).resolve().parents[3] / "maps" / "undead"
LEVEL_OF = {"e": "easy", "n": "normal", "t": "tricky"}


def test_every_puzzle_of_the_real_game_keeps_its_level():
    """The game's generator keeps a puzzle only when its own rating is the level asked, so
    the shipped sets (4x4, 5x5 easy/normal/tricky, 7x7 easy/normal: 240 puzzles) are labelled
    by the game itself."""
    checked = 0
    for path in sorted(DATA.glob("*d?.tsv")):
        want = LEVEL_OF[path.stem[-1]]
        for entry in load_entries(path):
            rating = rate(entry.puzzle)
            assert rating.level == want, (path.name, entry.puzzle.name, rating)
            checked += 1
    assert checked == 240


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(4, 4), (5, 5), (3, 6), (6, 4)]), st.integers(0, 10**6))
def test_the_deduction_never_removes_the_answer(size, seed):
    """Whatever the passes narrow, the solution's monster stays possible in every cell; a
    cell the passes decide holds exactly the solution's monster."""
    made = generate_puzzles(*size, 1, seed)[0]
    possible, passes, consistent = deduce(made.puzzle)
    assert consistent and passes >= 1
    for cell in made.puzzle.monster_cells:
        assert possible[cell] & BIT[made.solution[cell]]
        if possible[cell] in (1, 2, 4):
            assert possible[cell] == BIT[made.solution[cell]]


def test_paths_are_listed_once_fewest_monsters_first():
    puzzle = load_entries(DATA / "4x4dt.tsv")[0].puzzle
    paths = paths_of(puzzle)
    assert len(paths) == puzzle.width + puzzle.height  # 2(W+H) clues, two per path
    assert [len(p.cells) for p in paths] == sorted(len(p.cells) for p in paths)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "tricky"])
def test_generated_puzzles_are_rated_what_was_asked(difficulty):
    for size in ((4, 4), (5, 5), (6, 9)):
        for made in generate_puzzles(*size, 2, seed=3, difficulty=difficulty, game=True):
            again = rate(parse_game_id(format_game_id(made.puzzle)))
            assert again.level == difficulty and again.search_space <= GAME_SEARCH_LIMIT
            assert format_game_id(made.puzzle).startswith(f"{size[0]}x{size[1]}d{difficulty[0]}:")


def test_game_ids_may_name_the_difficulty():
    entry = load_entries(DATA / "4x4dt.tsv")[0]
    plain = format_game_id(entry.puzzle)
    with_level = plain.replace("4x4:", "4x4dt:", 1)
    parsed = parse_game_id(with_level)
    assert parsed == entry.puzzle and parsed.level == "tricky"
    assert format_game_id(parsed) == with_level
    with pytest.raises(FormatError, match="ids.txt:1:5: unknown difficulty letter 'q'"):
        parse_game_id(plain.replace("4x4:", "4x4dq:", 1), file="ids.txt")


@pytest.mark.parametrize("size,fine", [((3, 3), True), ((6, 9), True), ((7, 7), True),
                                       ((2, 5), False), ((7, 8), False), ((8, 8), False)])
def test_the_game_sizes(size, fine):
    assert (game_size_problem(*size) is None) == fine
    if not fine:
        with pytest.raises(GenerationError, match="the game"):
            generate_puzzles(*size, 1, seed=1, game=True)


def test_generate_game_refuses_a_size_in_one_line(tmp_path):
    run = subprocess.run([sys.executable, "-m", "logic_agents", "generate", "undead", "--size",
                          "8x8", "--game", "--count", "1", "-o", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "at most 54 cells" in run.stderr and not list(tmp_path.iterdir())
    ok = subprocess.run([sys.executable, "-m", "logic_agents", "generate", "undead", "--size",
                         "5x5", "--game", "--difficulty", "normal", "--count", "2", "--json",
                         "-o", str(tmp_path)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    report = json.loads(ok.stdout)
    assert [p["rating"] for p in report["puzzles"]] == ["normal", "normal"]
