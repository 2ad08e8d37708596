"""The third example plug-in (examples/kakurasu): its own tests, the only ones that name it.

`make test` installs it beside Akari and Lights Out, and no other test of the project knows
of it: the suite passing with it installed is the check that a game a user installs leaves
the project's tests green (issue 54). Here it is held to the bar of every game: its encoding
agrees with brute force (Hypothesis), every solution is checked by the independent
`is_solution`, its parser names file:line:col, it keeps the contract, its board is labelled
from 1 (BoardView.labels), and `inspect --solve` marks its cells.
"""

from __future__ import annotations

import itertools
import json
import os
from importlib import metadata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logic_agents.cli import main
from logic_agents.errors import ContractError, FormatError
from logic_agents.world import view

INSTALLED = any(ep.name == "kakurasu"
                for ep in metadata.entry_points(group="logic_agents.games"))
pytestmark = pytest.mark.skipif(
    not INSTALLED and not os.environ.get("CI_REQUIRE_PLUGIN"),
    reason="examples/kakurasu is not installed (make test installs it)")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_it_is_installed_where_make_test_says():
    assert INSTALLED, "examples/kakurasu is not installed: `make test` installs it (pip install -e)"


def test_it_keeps_the_contract_and_every_verb_works(capsys, tmp_path):
    assert run(capsys, "games", "--check", "kakurasu")[0] == 0
    trace = tmp_path / "k.jsonl"
    code, out, _ = run(capsys, "play", "kakurasu-5x5-a", "--json", "--trace", str(trace))
    played = json.loads(out)
    assert code == 0 and played["won"] is True
    code, out, _ = run(capsys, "replay", str(trace), "--json")
    assert code == 0 and json.loads(out)["steps"] == played["steps"] > 0
    code, out, _ = run(capsys, "compare", "kakurasu-4x4-a", "kakurasu-5x5-a", "--agents",
                       "sat,search", "--runs", "1", "--json", "--game", "kakurasu")
    rows = json.loads(out)["agents"]
    assert code == 0 and rows["sat"]["wins"] == rows["search"]["wins"] == 2


def _puzzles():
    from pathlib import Path

    import kakurasu_game
    from kakurasu_game.board import load

    return [load(p) for p in sorted((Path(kakurasu_game.__file__).parent / "puzzles").glob("*.txt"))]


def test_both_agents_solve_every_shipped_puzzle_checked_by_is_solution():
    from kakurasu_game import solve
    from kakurasu_game.agents import SearchKakurasu
    from kakurasu_game.board import is_solution

    puzzles = _puzzles()
    assert len(puzzles) >= 4
    for puzzle in puzzles:
        found = solve(puzzle)
        assert found.status == "unique" and is_solution(puzzle, found.solution)
        if puzzle.height <= 7:  # the search's node cap is met on 9x9: it is the baseline
            agent = SearchKakurasu()
            agent.reset(0)
            assert agent.solve(puzzle) == found.solution


def _brute(puzzle):
    from kakurasu_game.board import is_solution

    cells = puzzle.cells()
    return {frozenset(c for c, on in zip(cells, bits) if on)
            for bits in itertools.product((False, True), repeat=len(cells))
            if is_solution(puzzle, frozenset(c for c, on in zip(cells, bits) if on))}


@st.composite
def small_puzzles(draw):
    from kakurasu_game.board import KakurasuPuzzle, sums

    h, w = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    if draw(st.booleans()):  # clues of a shading: at least one solution
        shaded = frozenset(c for c in itertools.product(range(h), range(w)) if draw(st.booleans()))
        rows, cols = sums(KakurasuPuzzle("x", (0,) * h, (0,) * w), shaded)
        return KakurasuPuzzle("x", tuple(rows), tuple(cols))
    return KakurasuPuzzle("x", tuple(draw(st.integers(0, w * (w + 1) // 2)) for _ in range(h)),
                          tuple(draw(st.integers(0, h * (h + 1) // 2)) for _ in range(w)))


@given(small_puzzles())
def test_the_encoding_has_exactly_the_brute_force_solutions(puzzle):
    from kakurasu_game.encode import KakurasuSolver

    with KakurasuSolver(puzzle) as sat:
        found = sat.solutions(limit=1 << 12)
    assert set(found) == _brute(puzzle) and len(found) == len(set(found))


@pytest.mark.parametrize("text, where, words", [
    ("rows: 1 2\n", "f.txt:1:1", "no 'cols:' line"),
    ("rows: 1 2\ncols: 1 x\n", "f.txt:2:9", "'x' is not a clue"),
    ("rows: 1 4\ncols: 1 2\n", "f.txt:1:9", "'4' is not a clue here (a whole number from 0 to 3)"),
    ("rows: 1\nrows: 1\ncols: 1\n", "f.txt:2:1", "a second 'rows:' line"),
    ("# name: a\nbulbs: 1\n", "f.txt:2:1", "expected 'rows: CLUE ...'"),
])
def test_the_parser_names_file_line_and_column(text, where, words):
    from kakurasu_game.board import parse

    with pytest.raises(FormatError) as error:
        parse(text, "f.txt")
    assert where in str(error.value) and words in str(error.value)


def test_its_board_is_labelled_from_one_and_inspect_marks_its_cells(capsys, tmp_path):
    from kakurasu_game import SPEC
    from kakurasu_game.board import parse

    puzzle = parse("rows: 1 2\ncols: 1 2\n")
    board = SPEC.get(view.View).board(SPEC.make_world(puzzle).reset(seed=0)[0])
    assert [board.row_label(r) for r in range(board.rows)] == ["1", "2", ""]  # clue row: ""
    assert [board.col_label(c) for c in range(board.cols)] == ["1", "2", ""]
    cnf = tmp_path / "k.cnf"
    assert run(capsys, "cnf", "kakurasu-4x4-a", "-o", str(cnf))[0] == 0
    code, out, _ = run(capsys, "inspect", str(cnf), "--solve")
    assert code == 0 and "the model on kakurasu kakurasu-4x4-a at its start (" in out
    marked = int(out.split("at its start (")[1].split()[0])
    assert marked == sum(1 for name in out.split("v true:")[1].split("\n")[0].split()
                         if name.startswith("B_"))
    picture = out.split("cells marked)")[1]
    assert picture.splitlines()[1].split() == ["1", "2", "3", "4"]  # the columns, from 1


def test_labels_must_name_each_row_and_column_once():
    tiles = (view.Tile(),) * 6
    assert view.BoardView(2, 3, tiles, labels=(("a", "b"), ("x", "y", "z"))).col_label(2) == "z"
    with pytest.raises(ContractError, match="labels are .* for its 2 x 3 game cells"):
        view.BoardView(2, 3, tiles, labels=(("a", "b"), ("x", "y")))
