"""examples/tour.ipynb runs from top to bottom in a fresh kernel (nbclient), so it never goes
stale; what it shows is the library's own: boards as inline SVG, the game page, a study with a
progress line, a CNF and an explained move. And a study's progress is drawn where a person
watches and nowhere else."""

from __future__ import annotations

import re

import pytest

import logic_agents as la
from logic_agents.display.progress import StudyProgress

from .conftest import ROOT

try:
    import nbclient
    import nbformat
except ImportError:  # `make test` installs them: a setup fault, not a reason to skip
    raise RuntimeError("tests/test_notebook.py needs the 'notebook' extra: "
                       "pip install -e '.[notebook]' (make test installs it)") from None


def test_the_tour_notebook_runs_and_shows_what_it_says(tmp_path):
    notebook = nbformat.read(ROOT / "examples" / "tour.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.outputs for cell in code)
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]

    def html_of(cell):
        return "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs)

    board, result, page, study_run = (html_of(c) for c in code[:4])
    assert board.count('class="board"') == 1 and board.count("<g data-cell=") == 144
    assert "<td>won</td>" in result and "<svg" in result  # the numbers beside the last board
    assert page.startswith("<iframe srcdoc=") and 'sandbox="allow-scripts"' in page
    assert re.search(r"180/180 games", study_run)  # the progress line, updated in place
    assert 'id="maps"' in html_of(code[5]) and "paired differences" in html_of(code[5]).lower()
    printed = "".join(o.get("text", "") for o in code[6].outputs)
    assert re.search(r"p cnf \d+ \d+", printed) and "c var 1 D_" in printed
    explained = "".join(o.get("text", "") for o in code[7].outputs)
    assert " because " in explained and "is safe" in explained
    assert 'stroke-dasharray="4 3"' in html_of(code[7])  # the proof's cells are outlined
    for cell in code:
        assert not re.search(r"(src|href)=\"https?:", html_of(cell))  # nothing from the network


def test_progress_is_drawn_only_where_someone_watches(capsys):
    study = la.compare(["spx"], ["EASY1"], runs=2, jobs=1)  # pytest's stderr is no terminal
    assert len(study.rows) == 2
    assert capsys.readouterr().err == ""
    with StudyProgress(2, show=True) as progress:  # asked for: drawn on stderr
        for row in study.rows:
            progress.advance(row)
    assert "spx 100.0%" in capsys.readouterr().err
    with StudyProgress(2, show=False) as progress:
        progress.advance()
    assert progress.where is None and capsys.readouterr().err == ""


def test_boards_and_episodes_show_themselves_as_svg():
    for ref in ("HARD1", "norvig_top95:1", "4x4de:1", "eom-6x6-01", "ooze", "akari-7x7-a"):
        board = la.board(ref)
        svg = board._repr_html_()
        view = board.view
        assert svg.count("<g data-cell=") == view.rows * view.cols, ref
        assert str(board).count("\n") >= view.rows - 1 and repr(board).startswith("<Board ")
        result = la.play(ref)
        assert result.board is not None and "<svg" in result._repr_html_()
        assert "board" not in result.to_dict()
    with pytest.raises(la.LogicAgentsError, match="game="):
        la.board(object())
