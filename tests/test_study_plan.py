"""A study planned once (issue 67): one frozen plan, its agents read once, its games' traces
kept for the pages, and names that hold `=`.

- The API read every agent twice (make_jobs for the bar's total, then batch.compare), and
  outside the study's watch over shared channels; the plan reads each once, inside it.
- The pages replayed every game (a second study; a time-out its cap again); they are drawn
  from the traces the study kept (study.traces), which a resume keeps and `report` reads.
- A student's folder `=2+3` played as `_2+3`: a name's `=` is escaped (named_as).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import logic_agents as la
from logic_agents.errors import FormatError
from logic_agents.referee import describe
from logic_agents.referee.agents import named_as, named_reference
from logic_agents.study import batch
from logic_agents.study.entries import entries_from_references
from logic_agents.study.traces import Traces, traces_path
from logic_agents.world.registry import get_game
from logic_agents.world.trace import read_trace

AGENT = '''from logic_agents.games.daggers.agents import SinglePointAgent


class Agent(SinglePointAgent):
    name = "mine"
'''


def _entries(*names: str):
    return entries_from_references(list(names), get_game("daggers"))


def test_the_api_reads_each_agent_once(tmp_path):
    (tmp_path / "mine.py").write_text(AGENT)
    describe.forget()
    study = la.compare(["spx", f"{tmp_path / 'mine.py'}:Agent"], ["EASY1"], runs=1, seed=2,
                       jobs=1, progress=False, sandbox="none")
    info = describe._described.cache_info()
    assert info.hits + info.misses == 1, info  # asked once: the plan's, not the bar's too
    assert set(study.summary.agents) == {"spx", "mine"}
    assert study.sources["mine"].endswith("mine.py:Agent")


def test_a_plan_is_frozen_and_every_row_is_made_from_it():
    with batch.planned(["spx", "rpx"], _entries("EASY1", "EASY2"), runs=2, seed=3,
                       jobs=1) as plan:
        assert len(plan) == 2 * 2 * 2 and plan.agents == ["spx", "rpx"]
        assert plan.settings.seed == 3 and not plan.settings.seed_secret
        with pytest.raises(dataclasses.FrozenInstanceError):
            plan.game = "sudoku"  # type: ignore[misc]
        rows = batch.play(plan)
    assert {(r.agent, r.map, r.run, r.seed) for r in rows} == {
        (j.agent, j.entry.instance.name, j.run, j.seed) for j in plan.jobs}
    assert plan.jobs.keep_trace == "none"  # playing it changed nothing of the plan


def test_the_traces_a_study_keeps_replay_its_own_games(tmp_path):
    out = tmp_path / "runs.csv"
    traces = Traces(keep="all")
    rows = batch.compare(["spx", "rpx"], _entries("EASY1"), runs=2, seed=5, jobs=1, out=out,
                         traces=traces)
    assert len(traces) == len(rows) == 4
    for row in rows:  # each trace is the row's own game: same seed, moves, outcome
        trace = tmp_path / f"{row.agent}-{row.run}.jsonl"
        trace.write_text(traces.get(row.key) or "")
        header, steps, end = read_trace(trace)
        assert header["seed"] == row.seed and len(steps) == row.steps
        assert end is not None and end["result"]["outcome"] == row.outcome
    again = Traces.read(traces_path(out))  # what report reads, the same
    assert {k: again.get(k) for k in again} == {k: traces.get(k) for k in traces}


def test_only_the_games_not_won_keep_a_trace_by_default(tmp_path):
    traces = Traces()
    rows = batch.compare(["rpx"], _entries("EASY1", "EASY2"), runs=4, seed=1, jobs=1,
                         traces=traces)
    assert set(traces) == {r.key for r in rows if r.outcome != "won"}


def test_a_traces_file_cut_short_is_read_and_a_forged_line_refused(tmp_path):
    path = tmp_path / "runs.csv.traces.jsonl"
    kept = Traces(path, keep="all")
    kept.add(("a", "EASY1", 0, 7), '{"type": "begin"}\n')
    kept.add(("a", "EASY1", 1, 8), '{"type": "begin"}\n')
    kept.close()
    whole = path.read_text()
    path.write_text(whole[:-20])  # a kill mid-write: the last line torn
    assert set(Traces.read(path)) == {("a", "EASY1", 0, 7)}
    path.write_text('{"key": ["a", "EASY1", 0], "trace": ""}\n' + whole)
    with pytest.raises(FormatError) as raised:  # a line that is not a trace: where it is
        Traces.read(path)
    assert (raised.value.file, raised.value.line) == (str(path), 1)


NAMES = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\\:"),
                min_size=1).filter(lambda s: s.strip() == s and s.strip())


@settings(deadline=None, max_examples=300)
@given(NAMES, st.sampled_from(["students/x/agent.py:Agent", "a=b/agent.py:Agent",
                               "students/=2+3/agent.py:Agent"]))
def test_a_name_with_equals_comes_back_as_it_was_written(name, reference):
    assert named_reference(named_as(name, reference)) == (name, reference)


def test_a_plain_reference_is_no_name(tmp_path):
    assert named_reference("students/=2+3/agent.py:Agent") == (
        "", "students/=2+3/agent.py:Agent")
    assert named_reference("=2+3") == ("", "=2+3")
    assert Path(named_as("=2+3", "x.py:A")).name == "\\=2+3=x.py:A"


def test_a_memory_budget_chooses_the_workers_or_refuses_in_one_line(capsys):
    import os

    from logic_agents.cli import main
    from logic_agents.cli.compare import jobs_within
    from logic_agents.errors import UsageError

    assert jobs_within(1536, 256, None) == min(2, os.cpu_count() or 1)  # 2 x (256 + 512)
    assert jobs_within(None, 256, 3) == 3  # no budget: --jobs as given
    assert jobs_within(1536, 256, 1) == 1
    with pytest.raises(UsageError, match=r"--jobs 4 x \(256 \+ 512 MiB\) = 3,072 MiB"):
        jobs_within(1536, 256, 4)
    with pytest.raises(UsageError, match="holds no worker"):
        jobs_within(500, 256, None)
    code = main(["compare", "EASY1", "--agents", "spx", "--runs", "1", "--memory-budget", "600",
                 "--memory-cap", "256"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "holds no worker" in err, err


def test_play_study_stops_a_module_where_the_study_did(tmp_path, monkeypatch, capsys):
    """A play-again command of `report` names the study, not its --import-timeout: the
    record keeps the players' limits, and `play --study` applies them unless given."""
    import json

    from logic_agents.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "students" / "spin").mkdir(parents=True)
    (tmp_path / "students" / "spin" / "agent.py").write_text("while True:\n    pass\n")
    assert main(["compare", "EASY1", "--submissions", "students", "--agents", "spx", "--runs",
                 "1", "--import-timeout", "1", "--max-processes", "5", "--out",
                 "runs.csv"]) == 3
    capsys.readouterr()
    record = json.loads(Path("runs.csv.study.json").read_text())
    assert record["limits"] == {"import_timeout": 1.0, "max_processes": 5}
    code = main(["play", "EASY1", "--study", "runs.csv", "--agent",
                 "students/spin/agent.py:Agent", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and "more than 1 s (the import cap)" in err, err


def test_a_record_whose_limits_are_not_numbers_is_refused_in_words():
    import argparse

    from logic_agents.cli.play import study_limits
    from logic_agents.errors import UsageError

    args = argparse.Namespace(import_timeout=None, max_processes=None, isolation=None)
    study_limits(args, {}, "old.csv")  # an older record: nothing to apply
    for bad in ({"import_timeout": "60", "max_processes": 32}, {"import_timeout": 60},
                {"import_timeout": True, "max_processes": 32}, [1, 2]):
        with pytest.raises(UsageError, match="its record's limits are not"):
            study_limits(args, {"limits": bad}, "runs.csv")
