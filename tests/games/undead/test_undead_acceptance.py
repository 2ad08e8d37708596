"""`generate undead --game` writes only puzzles the real game's generator could have made: its
acceptance tests (undead.c new_game_desc) on top of its rating. Checked both ways: every one
of the 240 puzzles the real game made (maps/undead) passes our reading of those tests, and
every generated puzzle passes an independent re-walk of its lines of sight written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.games.undead.acceptance import game_problem, max_sight_length
from logic_agents.games.undead.board import parse_game_id
from logic_agents.games.undead.files import load_entries
from logic_agents.world.registry import get_game
from logic_agents.world.spec import Puzzle

from ...conftest import ROOT

LEVELS = {"e": "easy", "n": "normal", "t": "tricky"}
STEP = {"down": (1, 0), "up": (-1, 0), "left": (0, -1), "right": (0, 1)}
# `\` turns down->right, right->down, up->left, left->up; `/` down->left, left->down, ...
BOUNCE = {"L": {"down": "right", "right": "down", "up": "left", "left": "up"},
          "R": {"down": "left", "left": "down", "up": "right", "right": "up"}}


def entries(width: int, height: int) -> list[tuple[tuple[int, int], str]]:
    """Every place a line of sight enters, with its direction (all four edges)."""
    return ([((0, c), "down") for c in range(width)] + [((height - 1, c), "up") for c in range(width)]
            + [((r, 0), "right") for r in range(height)]
            + [((r, width - 1), "left") for r in range(height)])


def longest_line(puzzle) -> int:
    """The most distinct non-mirror cells any line of sight passes, walked here on its own."""
    w, h = puzzle.width, puzzle.height
    longest = 0
    for (r, c), way in entries(w, h):
        cells = set()
        while 0 <= r < h and 0 <= c < w:
            here = puzzle.grid[r * w + c]
            if here in BOUNCE:
                way = BOUNCE[here][way]
            else:
                cells.add((r, c))
            r, c = r + STEP[way][0], c + STEP[way][1]
        longest = max(longest, len(cells))
    return longest


def test_every_puzzle_the_real_game_made_passes_its_acceptance_tests():
    checked = 0
    for path in sorted((ROOT / "maps" / "undead").glob("*.tsv")):
        level = LEVELS[path.stem[-1]]
        for entry in load_entries(path):
            assert game_problem(entry.puzzle, entry.reference, level) is None, entry.puzzle.name
            assert longest_line(entry.puzzle) <= max_sight_length(entry.puzzle.width,
                                                                   entry.puzzle.height, level)
            checked += 1
    assert checked == 240


def test_the_issues_example_is_refused_for_its_long_line():
    puzzle = parse_game_id("5x5de:5,8,0,aRaLaRaLLfLbRRLLLRa,1,0,5,1,7,0,4,5,0,1,1,0,3,0,0,0,0,5,"
                           "0,1")
    solution = get_game("undead").need(Puzzle, "solve").solve(puzzle).solution
    assert longest_line(puzzle) == 10
    assert game_problem(puzzle, solution, "easy") == ("a line of sight passes 10 monster cells "
                                                      "(easy allows 6)")


@pytest.mark.parametrize("level", ["easy", "normal", "tricky"])
def test_generate_game_writes_only_puzzles_the_game_would_keep(level, tmp_path, capsys):
    assert main(["generate", "undead", "--size", "5x5", "--difficulty", level, "--game",
                 "--count", "12", "--seed", "3", "-o", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (path,) = report["files"]
    made = load_entries(Path(path))
    assert len(made) == 12
    for entry in made:
        puzzle, solution = entry.puzzle, entry.reference
        monsters = [solution.count(m) for m in "GVZ"]
        assert longest_line(puzzle) <= max_sight_length(5, 5, level), puzzle.name
        assert sum(monsters) > 4 and 0.48 <= sum(monsters) / 25 <= 0.78
        assert sum(m > 0 for m in monsters) >= 2
        if level == "tricky":
            assert min(monsters) >= 2
        assert game_problem(puzzle, solution, level) is None
