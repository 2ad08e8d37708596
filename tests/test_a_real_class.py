"""A real class, end to end (issue 67): every kind of submission a class hands in, once.

The class is examples/course/make_class.py's: agents of the students' own, CRLF and BOM,
numpy, helper modules, Moodle folder names, `=2+3`, a single file; and the ways they break:
syntax, imports, a missing agent.py beside main.py, a folder nested in itself, signatures,
crashes on some maps only, hangs, memory, a multiprocessing.Pool, os._exit, input(). One
study with --html, --grades and --feedback; the test asserts what each student is told:

- each row's outcome, and its first failure at the student's own line (never the
  framework's file, never an absolute path);
- the grades, the page and the feedback are written whatever the students did;
- every failed game that began has a replay page drawn from the study's own trace (a
  time-out too), in the page and in the student's folder; `report` draws the same pages;
- each "play it again" command a student is handed, and each one on the teacher's page,
  runs as printed and ends as the study's game did.
"""

from __future__ import annotations

import contextlib
import csv
import html
import importlib.util
import io
import json
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.study.rows import read_rows
from logic_agents.study.traces import traces_path

ROOT = Path(__file__).resolve().parent.parent
MAPS = ["EASY1", "MEDIUM1"]  # MEDIUM1 is wider than five: `some-maps` breaks there only


def _make_class_module():  # examples/ is not a package: the generator, loaded by its path
    spec = importlib.util.spec_from_file_location("make_class",
                                                  ROOT / "examples/course/make_class.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_class"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


make_class = _make_class_module()
pytestmark = pytest.mark.slow  # one study of the whole class, each command run again


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> dict:
    work = tmp_path_factory.mktemp("class")
    kinds = make_class.make_class(work / "students")
    here = os.getcwd()
    os.chdir(work)  # as a teacher runs it, from the course's folder
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["compare", *MAPS, "--submissions", "students", "--agents", "spx",
                         "--runs", "1", "--jobs", "2", "--move-timeout", "0.5",
                         "--game-timeout", "3", "--memory-cap", "256", "--import-timeout", "2",
                         "--out", "out/runs.csv", "--grades", "out/grades.csv",
                         "--html", "out/class.html", "--feedback", "out/feedback"])
    finally:
        os.chdir(here)
    with open(work / "out/grades.csv", newline="", encoding="utf-8-sig") as f:
        grades = {row["agent"].removeprefix("'"): row for row in csv.DictReader(f)}
    return {"code": code, "work": work, "kinds": kinds, "grades": grades,
            "rows": read_rows(work / "out/runs.csv"), "err": err.getvalue()}


def test_the_class_is_every_kind_and_more_than_thirty(study):
    assert len(study["kinds"]) >= 30 and len(study["kinds"]) == len(make_class.KINDS)
    assert {k.expect for k in study["kinds"].values()} == {"plays", "error", "timeout"}
    assert study["code"] == 3  # some students failed: said by the exit code
    assert set(study["grades"]) == {*study["kinds"], "spx"}  # the outputs, whole


def test_each_submission_ends_as_its_kind_does(study):
    for name, kind in study["kinds"].items():
        grade = study["grades"][name]
        errors, timeouts = int(grade["errors"]), int(grade["timeouts"])
        games = int(grade["games"])
        assert games == len(MAPS), (name, grade)
        if kind.expect == "plays":
            assert errors == timeouts == 0, (name, grade["first_error"])
        elif kind.expect == "timeout":
            assert timeouts == games, (name, grade)
        elif kind.some_maps:
            assert errors == 1 and "MEDIUM1 run 0" in grade["first_error"], (name, grade)
        else:
            assert errors == games, (name, grade)
        assert kind.failure in grade["first_error"], (name, kind.failure, grade["first_error"])
        assert bool(grade["integrity"]) == kind.integrity, (name, grade["integrity"])


def test_a_failure_is_said_at_the_students_line_never_the_frameworks(study):
    work = str(study["work"])
    own_line = {"act-raise", "library", "recursion", "input", "init-raise", "reset-no-seed",
                "act-no-obs", "act-extra", "some-maps", "hang", "memory", "pool", "no-module",
                "import-crash", "import-hang"}
    for row in study["rows"]:
        if not row.failed:
            continue
        assert "logic_agents/" not in row.error and work not in row.error, row.error
        assert "site-packages" not in row.error and "/lib/python" not in row.error, row.error
        if row.agent in own_line:
            assert f"students/{row.agent}/agent.py:" in row.error, (row.agent, row.error)
    words = {row.agent: row.error for row in study["rows"]}
    assert "it defines MyAgent" in words["wrong-class"]
    assert "its folder holds main.py" in words["main-py"]
    assert "students/nested/nested/agent.py is there" in words["nested"]
    assert "--max-processes" in words["pool"]
    assert "reset() must take seed: write `def reset(self, seed=None):`" in words["reset-no-seed"]


def test_names_are_kept_as_the_students_wrote_them(study):
    for name in ("=2+3", "zoë_müller", "Zoë Müller_123456_assignsubmission_file_", "ann smith",
                 "single-file"):
        assert name in study["grades"], name
    raw = (study["work"] / "out/grades.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel reads zoë as zoë
    text = raw.decode("utf-8-sig")
    assert "'=2+3" in text and "zoë_müller" in text  # a spreadsheet shows it, never runs it
    assert not any(line.startswith("=") for line in text.splitlines())


def _replay_links(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {link for link in text.split('href="')[1:] for link in [link.split('"')[0]]
            if "_replays/" in link or link.startswith("replays/")}


def test_every_failed_game_that_began_has_a_replay_drawn_from_its_trace(study):
    work = study["work"]
    began = [r for r in study["rows"] if r.failed and "(in reading its module)" not in r.error]
    assert any(r.outcome == "timeout" for r in began)  # a time-out has its page too
    assert traces_path(work / "out/runs.csv").stat().st_size > 0
    pages = list((work / "out/class_replays").iterdir())
    assert len(pages) >= len(began)
    for row in began:
        folder = work / "out/feedback" / row.agent / "replays"
        drawn = list(folder.glob(f"*{row.map}-run{row.run}*.html"))
        assert len(drawn) == 1, (row.agent, row.map, list(folder.iterdir()))
        text = drawn[0].read_text(encoding="utf-8")
        assert row.outcome in text, (row.agent, row.outcome)
    # `report` draws the same pages from the results file, playing no game
    out = io.StringIO()
    with contextlib.redirect_stderr(out), contextlib.redirect_stdout(io.StringIO()):
        here = os.getcwd()
        os.chdir(work)
        try:
            main(["report", "out/runs.csv", "--html", "out/again.html", "--feedback",
                  "out/again"])
        finally:
            os.chdir(here)
    assert len(list((work / "out/again_replays").iterdir())) == len(pages), out.getvalue()
    for row in began:
        assert list((work / "out/again" / row.agent / "replays").glob("*.html")), row.agent


def test_each_student_gets_their_own_folder_and_gradescope_results(study):
    feedback = study["work"] / "out/feedback"
    assert {p.name for p in feedback.iterdir()} >= {"hang", "=2+3", "zoë_müller", "spx"}
    results = json.loads((feedback / "hang/results.json").read_text(encoding="utf-8"))
    assert results["score"] == 0 and results["visibility"] == "visible"
    assert [t["name"] for t in results["tests"]] == [f"2018/{m}" for m in MAPS]
    page = (feedback / "hang/index.html").read_text(encoding="utf-8")
    for other in ("zoë_müller", "Zoë Müller", "ann smith", "act-raise"):
        assert other not in page, other  # their own results only


def _commands(study: dict) -> list[tuple[str, str, str]]:
    """(student, map, command) of every "play it again" a failing student is handed."""
    found = []
    for name, kind in study["kinds"].items():
        if kind.expect == "plays":
            continue
        results = json.loads((study["work"] / "out/feedback" / name / "results.json")
                             .read_text(encoding="utf-8"))
        for test in results["tests"]:
            for line in test["output"].splitlines():
                if "play it again: " in line:
                    found.append((name, test["name"].split("/")[-1],
                                  line.split("play it again: ", 1)[1]))
    return found


def _plays_again(command: str, row, capsys) -> None:
    """Run a printed command as printed; it ends as the study's game did (a module that does
    not read: the same words, rc 2)."""
    words = shlex.split(command)
    assert words[:2] == ["logic-agents", "play"] and "--import-timeout" in words, command
    code = main([*words[1:], "--json"])
    captured = capsys.readouterr()
    if "(in reading its module)" in row.error:  # no game begins: the same words, rc 2
        assert code == 2, (command, captured.err)
        core = row.error.split(": ", 1)[1].split(" (in reading its module)")[0]
        assert core.split(" (")[0][-40:] in captured.err, (row.error, captured.err)
        return
    played = json.loads(captured.out)
    assert (played["outcome"], played["steps"]) == (row.outcome, row.steps), command


def test_each_command_a_student_is_handed_plays_their_game_again(study, capsys, monkeypatch):
    monkeypatch.chdir(study["work"])
    rows = {(r.agent, r.map): r for r in study["rows"]}
    commands = _commands(study)
    assert {name for name, _, _ in commands} == {
        n for n, k in study["kinds"].items() if k.expect != "plays"}
    for name, map_name, command in commands:
        row = rows[(name, map_name)]
        if row.failed:  # `some-maps` won or lost on EASY1: its command is for MEDIUM1
            _plays_again(command, row, capsys)


def test_each_command_on_the_teachers_page_plays_the_game_again(study, capsys, monkeypatch):
    """The page's commands name the study (`--study out/runs.csv`): the map, the agent's
    seed, the caps and the limits come from its record."""
    monkeypatch.chdir(study["work"])
    page = html.unescape((study["work"] / "out/class.html").read_text(encoding="utf-8"))
    commands = sorted(set(re.findall(r"logic-agents play [^<\n]*", page)))
    assert len(commands) >= sum(k.expect != "plays" for k in study["kinds"].values())
    rows = {(r.agent, r.map, r.seed): r for r in study["rows"]}
    for command in commands:
        words = shlex.split(command)
        assert "--study" in words, command
        agent = Path(words[words.index("--agent") + 1].rpartition(":")[0]).parent.name
        row = rows[(agent, words[2], int(words[words.index("--seed") + 1]))]
        _plays_again(command, row, capsys)
