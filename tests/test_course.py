"""A course end to end (issue 53): a folder of submissions in, grades and feedback out.

The class (examples/course/students, the one docs/teach.md plays) has a two-file submission
(ann), a syntax error (bob), a crash (cat), a hang (dan), a flood of prints (eve) and an agent
named after a registered one (fay). The study plays on, each failure is its student's rows with where in
their code it happened, and the grades, the report, the page and a retry after a fix follow.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import logic_agents as la
from logic_agents.cli import main
from logic_agents.study.results import Study
from logic_agents.study.rows import read_rows

from .test_view_page import BROWSER, QUIET

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "examples" / "course"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One study of the class: spx, satx and the six students on EASY1 and EASY2, 2 runs."""
    work = tmp_path_factory.mktemp("course")
    shutil.copytree(COURSE / "students", work / "students")
    out, grades, page = work / "runs.csv", work / "grades.csv", work / "class.html"
    import os

    here = os.getcwd()
    os.chdir(work)  # as a teacher runs it: from the course's folder, with relative paths
    try:
        from contextlib import redirect_stdout
        from io import StringIO

        # stderr as the teacher's terminal gets it: the workers' relayed prints reach the
        # file descriptor, not the parent's sys.stderr object
        stdout, stderr = StringIO(), (work / "stderr.txt").open("w+", encoding="utf-8")
        saved, saved_stderr = os.dup(2), sys.stderr
        sys.stderr.flush()
        os.dup2(stderr.fileno(), 2)
        sys.stderr = stderr  # what the workers inherit, as a terminal's would be
        try:
            with redirect_stdout(stdout):
                code = main(["compare", "EASY1", "EASY2", "--agents", "spx,satx",
                             "--submissions", "students", "--runs", "2", "--move-timeout",
                             "1", "--jobs", "2", "--out", str(out), "--grades", str(grades),
                             "--html", str(page), "--json"])
            sys.stderr.flush()
        finally:
            sys.stderr = saved_stderr
            os.dup2(saved, 2)
            os.close(saved)
    finally:
        os.chdir(here)
    stderr.seek(0)
    return {"code": code, "out": out, "grades": grades, "page": page, "work": work,
            "summary": json.loads(stdout.getvalue()), "err": stderr.read()}


def _rows(played: dict[str, object], agent: str) -> list:
    return [r for r in read_rows(played["out"]) if r.agent == agent]  # type: ignore[arg-type]


def test_every_student_plays_and_the_study_goes_on(played):
    summary = played["summary"]
    assert played["code"] == 3  # some games failed: the study still finished
    assert list(summary["agents"]) == ["spx", "satx", "ann", "bob", "cat", "dan", "eve", "fay"]
    assert all(st["games"] == 4 for st in summary["agents"].values())
    assert summary["agents"]["spx"]["errors"] == summary["agents"]["spx"]["timeouts"] == 0


def test_a_two_file_submission_reads_its_helper(played):
    assert all(not r.failed and r.steps >= 1 for r in _rows(played, "ann"))


def test_a_syntax_error_is_its_students_rows_with_file_line_col(played):
    rows = _rows(played, "bob")
    assert len(rows) == 4 and all(r.outcome == "error" for r in rows)
    assert "SyntaxError" in rows[0].error and "students/bob/agent.py:2:" in rows[0].error


def test_a_crash_names_the_students_own_line(played):
    error = _rows(played, "cat")[0].error
    assert "IndexError: tuple index out of range (in act() at step 1)" in error
    assert "students/cat/agent.py:7 in act: return pair[5]" in error


def test_a_hang_says_where_the_agent_was_when_it_was_stopped(played):
    rows = _rows(played, "dan")
    assert all(r.outcome == "timeout" for r in rows)
    # stopped in its loop: on the `while` or on its body, as the dump caught it
    assert re.search(r"students/dan/agent\.py:(6 in spin: while True:|7 in spin: pass)",
                     rows[0].error), rows[0].error
    assert "called from students/dan/agent.py:10 in act" in rows[0].error


def test_a_flood_of_prints_is_bounded_and_attributed(played):
    lines = [line for line in played["err"].splitlines() if "eve thinks" in line]
    assert lines and all(line.startswith("[eve] ") for line in lines)
    assert len(lines) < 10_000  # 80,000 were printed: 64 KiB of them are shown


def test_a_name_clash_is_a_distinct_name_with_a_note(capsys, tmp_path):
    fay = f"{COURSE / 'students' / 'fay' / 'agent.py'}:Agent"
    code = main(["compare", "EASY1", "--agents", f"spx,{fay}", "--runs", "1", "--json"])
    captured = capsys.readouterr()
    assert code == 0 and list(json.loads(captured.out)["agents"]) == ["spx", "spx-2"]
    assert "is named 'spx' too; it plays as 'spx-2'" in captured.err


def test_quoted_globs_expand_and_name_each_match(capsys):
    pattern = f"{COURSE / 'students'}/[af]*/agent.py:Agent"
    code = main(["compare", "EASY1", "--agents", f"spx,{pattern}", "--runs", "1", "--json"])
    assert code == 0 and list(json.loads(capsys.readouterr().out)["agents"]) == \
        ["spx", "ann", "fay"]
    code = main(["compare", "EASY1", "--agents", "spx,nowhere/*/agent.py:Agent"])
    err = capsys.readouterr().err
    assert code == 2 and "no file matches nowhere/*/agent.py" in err
    assert len(err.strip().splitlines()) == 1


def test_stop_on_broken_keeps_the_old_stop(capsys):
    bob = f"{COURSE / 'students' / 'bob' / 'agent.py'}:Agent"
    code = main(["compare", "EASY1", "--agents", f"spx,{bob}", "--runs", "1",
                 "--stop-on-broken"])
    err = capsys.readouterr().err
    assert code == 2 and "agent.py:2:" in err and len(err.strip().splitlines()) == 1


def test_the_grades_have_a_line_per_agent_best_first(played):
    with open(played["grades"], newline="", encoding="utf-8-sig") as f:
        grades = list(csv.DictReader(f))
    assert [g["agent"] for g in grades][:2] == ["satx", "spx"] or \
        {g["agent"] for g in grades[:2]} == {"spx", "satx"}
    by_agent = {g["agent"]: g for g in grades}
    assert set(by_agent) == {"spx", "satx", "ann", "bob", "cat", "dan", "eve", "fay"}
    assert by_agent["spx"]["source"] == "builtin"
    assert by_agent["cat"]["source"] == "students/cat/agent.py:Agent"
    assert by_agent["cat"]["errors"] == "4" and "agent.py:7" in by_agent["cat"]["first_error"]
    assert by_agent["dan"]["timeouts"] == "4"
    low, high = float(by_agent["spx"]["ci95_low"]), float(by_agent["spx"]["ci95_high"])
    assert low <= float(by_agent["spx"]["win_rate"]) <= high


def test_the_report_rebuilds_what_compare_printed(played, capsys, tmp_path):
    code = main(["report", str(played["out"]), "--json", "--grades",
                 str(tmp_path / "again.csv"), "--html", str(tmp_path / "again.html")])
    assert code == 0  # it played nothing; compare's exit code said games failed
    assert json.loads(capsys.readouterr().out) == played["summary"]
    assert (tmp_path / "again.csv").read_text() == Path(played["grades"]).read_text()
    study = Study.load(played["out"])
    assert study.summary.to_json() == played["summary"] and study.game == "daggers"
    assert study.meta["seed"] == "secret"
    with open(played["grades"], newline="", encoding="utf-8-sig") as f:
        assert [g["agent"] for g in study.grades()] == [row["agent"] for row in csv.DictReader(f)]


def test_baseline_limits_the_pairs(played, capsys):
    code = main(["report", str(played["out"]), "--json", "--baseline", "spx,satx"])
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    assert code == 0 and len(pairs) == 1 + 2 * 6  # spx/satx, and each with every student
    assert all("spx" in (p["a"], p["b"]) or "satx" in (p["a"], p["b"]) for p in pairs)
    code = main(["report", str(played["out"]), "--baseline", "nobody"])
    assert code == 2 and "no agent of the study" in capsys.readouterr().err


def test_the_page_shows_failures_their_messages_and_replays(played):
    page = Path(played["page"]).read_text()
    assert 'id="leaderboard"' in page and "Failures, by agent" in page
    assert "students/cat/agent.py:7 in act: return pair[5]" in page
    # the command that plays it again reads the map, the agent's seed and the caps from the
    # study's record (issue 67): it runs as printed, a held-out or generated map too
    assert re.search(r"logic-agents play EASY1 --study \S*runs\.csv --agent "
                     r"students/cat/agent\.py:Agent --seed \d+", page)
    replays = re.findall(r'href="(class_replays/[^"]*cat[^"]*)"', page)
    assert replays  # cat's failed games are replayed up to the failure
    replay = (Path(played["page"]).parent / replays[0]).read_text()
    assert "IndexError" in replay


def test_the_public_page_leaves_out_what_is_not_public(played, tmp_path, capsys):
    public = tmp_path / "public.html"
    hidden = tmp_path / "hidden-maps"
    hidden.mkdir()
    code = main(["compare", "EASY1", "--agents", "spx," + str(COURSE / "students" / "cat" /
                                                             "agent.py") + ":Agent",
                 "--runs", "1", "--html", str(public), "--public", "--hide", str(hidden)])
    capsys.readouterr()
    page = public.read_text()
    assert code == 3 and 'id="leaderboard"' in page and "IndexError" in page  # its kind
    for secret in (str(hidden), "tuple index out of range", "--hide", "seed secret",
                   "logic-agents compare", "_replays/", "play again"):
        assert secret not in page, secret


def test_retry_errors_replays_a_fixed_submission(tmp_path, capsys):
    students = tmp_path / "students"
    for who in ("bob", "cat"):  # one to fix, one left broken
        shutil.copytree(COURSE / "students" / who, students / who)
    out = tmp_path / "runs.csv"
    study = ["compare", "EASY1", "--agents", "spx", "--submissions", str(students),
             "--runs", "2", "--move-timeout", "1", "--out", str(out), "--json"]
    assert main(study) == 3
    capsys.readouterr()
    fixed = (COURSE / "students" / "ann" / "helpers.py").read_text()
    (students / "cat" / "helpers.py").write_text(fixed)
    (students / "cat" / "agent.py").write_text(
        (COURSE / "students" / "ann" / "agent.py").read_text())
    assert main([*study, "--resume"]) == 2  # any change without --retry-errors: refused
    assert "--retry-errors replays" in capsys.readouterr().err
    code = main([*study, "--resume", "--retry-errors"])
    summary = json.loads(capsys.readouterr().out)
    assert summary["agents"]["cat"]["errors"] == 0 and summary["agents"]["cat"]["games"] == 2
    assert summary["agents"]["bob"]["errors"] == 2 and code == 3
    changes = json.loads(Path(f"{out}.study.json").read_text())["changes"]
    assert [c["agent"] for c in changes] == ["cat"] and changes[0]["from"] != changes[0]["to"]


def test_the_api_takes_a_glob_and_a_baseline():
    study = la.compare(["spx", f"{COURSE / 'students'}/[ac]*/agent.py:Agent"], ["EASY1"],
                       runs=1, baseline=["spx"], move_timeout=5)
    assert list(study.summary.agents) == ["spx", "ann", "cat"]
    assert len(study.pairs) == 2 and study.summary.agents["cat"].errors == 1
    assert study.sources["cat"].endswith("students/cat/agent.py:Agent")


def test_cell_values_are_exported():
    from logic_agents.games.daggers import COVERED, FLAGGED, GOLD, HIT

    assert (COVERED, FLAGGED, HIT, GOLD) == ("?", "F", "X", "g")


@pytest.mark.skipif(BROWSER is None, reason="chromium is not installed")
def test_the_class_page_reads_at_400_px(played, tmp_path):
    """Chromium, the page in a frame 400 px wide (headless Chromium's own window is never
    narrower than 500): it does not scroll sideways (a wide table scrolls in its own box), and
    the leaderboard's text is at least 12 px."""
    import html

    probe = tmp_path / "probe.html"
    probe.write_text(
        '<!DOCTYPE html><html><body style="margin:0"><iframe id="f" style="width:400px;'
        'height:800px;border:0" srcdoc="' + html.escape(Path(played["page"]).read_text())
        + '"></iframe><script>const f = document.getElementById("f"); f.onload = () => {'
        "const d = f.contentDocument; document.body.dataset.width = "
        "d.documentElement.scrollWidth; document.body.dataset.inner = f.contentWindow"
        ".innerWidth; document.body.dataset.font = f.contentWindow.getComputedStyle("
        "d.querySelector('#leaderboard td')).fontSize; };</script></body></html>")
    dom = subprocess.run([BROWSER, *QUIET, "--window-size=800,900",
                          "--virtual-time-budget=3000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    inner = int(re.search(r'data-inner="(\d+)"', dom).group(1))
    width = int(re.search(r'data-width="(\d+)"', dom).group(1))
    font = float(re.search(r'data-font="([\d.]+)px"', dom).group(1))
    assert inner == 400 and width <= inner and font >= 12
