"""Every board a person reads carries the game's row and column numbers, in the one base of
the actions, the reasons and the CNF names (0): the terminal and human play (board_text), the
notebook's SVG and the game page (row_label, col_label, which page.js reads)."""

from __future__ import annotations

import re

import logic_agents as la
from logic_agents.display.terminal import board_text


def test_the_terminal_numbers_the_games_cells_not_its_frame():
    undead = la.board("4x4de:1").view  # a clue frame around 4 x 4 cells
    lines = board_text(undead).plain.splitlines()
    assert lines[0].split() == ["0", "1", "2", "3"]
    labels = [line[:2].strip() for line in lines[1:]]
    assert labels == ["", "0", "1", "2", "3", ""]  # the frame's rows carry no number
    sudoku = board_text(la.board("norvig_top95:1").view).plain.splitlines()
    assert sudoku[0].split() == [str(c) for c in range(9)]
    assert [line.split()[0] for line in sudoku[1:] if "─" not in line] == [str(r) for r in range(9)]
    assert len(board_text(undead, labels=False).plain.splitlines()) == 6  # no header line


def test_a_labelled_cell_is_the_cell_an_action_names():
    daggers = la.board("HARD1")
    lines = str(daggers).splitlines()
    columns = lines[0]
    # the clue 1 of HARD1 at (0, 5), under column label 5 and beside row label 0
    row = next(line for line in lines[1:] if line.split()[0] == "0")
    at = columns.index(" 5 ") + 1
    assert row[at] == "1" and la.board("HARD1").view.tile(0, 5).text == "1"


def test_the_svg_numbers_rows_and_columns():
    svg = la.board("eom-6x6-01")._repr_html_()
    labels = re.findall(r'class="label">(\d+)</text>', svg)
    assert sorted(labels, key=int) == sorted([str(k) for k in range(6)] * 2, key=int)
