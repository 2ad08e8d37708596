"""A class's modules read beside its first games (issue 67: "the first games start while
modules are still read").

A class of 200 waited 97 s for its first row while every module was read (an import that
hangs costs the import cap). Now the agents read already play at once, and each named
submission joins as soon as a process beside the games has read it:

- a student whose import waits for the first row of a built-in agent reads and plays: the
  built-in's games did not wait for it (a handshake through a file, no clock);
- a module that does not read says so in its rows, in the words a study that read it first
  gives;
- a reading process that dies costs its agents' rows (said so), never the study;
- a pool asked for a job that is not ready (LATER) waits for it and loses none;
- a resume with nothing left to play reads no module;
- what a player prints counts against the budget made before the workers forked;
- an agent seated before it is read is refused (fails closed), and giving agents options
  reads them all first (a student's own option is known only once it is read).
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path

import pytest

from logic_agents.cli import parse
from logic_agents.errors import LogicAgentsError
from logic_agents.referee import reading
from logic_agents.referee.agents import Unread, agent_entries, agent_entry
from logic_agents.referee.clock import NO_CAPS, Clock
from logic_agents.referee.isolation import Isolation
from logic_agents.referee.pool import LATER, Later, Pool
from logic_agents.study import batch
from logic_agents.study.entries import entries_from_references
from logic_agents.world.calls import Calls
from logic_agents.world.registry import get_game

NONE = Isolation(sandbox="none")  # a player process each, no bubblewrap: runs anywhere
SPX = "from logic_agents.games.daggers.agents import SinglePointAgent as Agent\n"


def _entries(*names: str):
    return entries_from_references(list(names), get_game("daggers"))


def _student(folder: Path, name: str, text: str) -> str:
    (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / name / "agent.py").write_text(text)
    return f"{name}={folder / name / 'agent.py'}:Agent"


def test_the_first_games_start_while_a_module_is_still_read(tmp_path):
    flag = tmp_path / "first-row"
    waits = _student(tmp_path, "waits", f"""import os, time
while not os.path.exists({str(flag)!r}):  # read only once the study has a row
    time.sleep(0.02)
{SPX}""")
    order: list[str] = []

    def on_row(row: batch.Row) -> None:
        order.append(row.agent)
        flag.touch()

    rows = batch.compare(["spx", waits], _entries("EASY1", "EASY2"), runs=2, seed=4, jobs=2,
                         isolation=dataclasses.replace(NONE, import_timeout=60.0),
                         on_row=on_row)
    assert order[0] == "spx"  # played before the module was read: it could not be otherwise
    mine = [r for r in rows if r.agent == "waits"]
    assert len(mine) == 4 and not any(r.failed for r in mine), mine
    # paired: the same seeds as spx's games, whoever was read first
    assert {(r.map, r.run, r.seed) for r in mine} == {
        (r.map, r.run, r.seed) for r in rows if r.agent == "spx"}


def test_a_module_read_beside_fails_in_the_words_of_one_read_first(tmp_path):
    broken = _student(tmp_path, "broken", "def oops(:\n")
    good = _student(tmp_path, "good", SPX)
    rows = batch.compare([broken, good, "spx"], _entries("EASY1"), runs=1, seed=1,
                         jobs=2, isolation=NONE)
    by = {r.agent: r for r in rows}
    read_first = agent_entry(get_game("daggers"), broken, isolation=NONE, broken_rows=True)
    words = read_first.factory.message  # type: ignore[attr-defined]
    assert by["broken"].outcome == "error" and words in (by["broken"].error or ""), by["broken"]
    assert by["broken"].error.startswith("SyntaxError")  # type: ignore[union-attr]
    assert by["good"].outcome == "won" and by["spx"].outcome == "won"


def test_a_reading_process_that_dies_costs_its_agents_rows_not_the_study(tmp_path,
                                                                          monkeypatch):
    student = _student(tmp_path, "ann", SPX)
    monkeypatch.setattr(reading, "_read_one", lambda spec, entry: os._exit(7))
    rows = batch.compare(["spx", student], _entries("EASY1"), runs=2, seed=1, jobs=1,
                         isolation=NONE)
    assert [r.outcome for r in rows if r.agent == "spx"] == ["won", "won"]
    mine = [r for r in rows if r.agent == "ann"]
    assert len(mine) == 2 and all(r.outcome == "error" for r in mine)
    assert all("ended before it read this one" in (r.error or "") for r in mine), mine


def _job(job: int | Later, clock: Clock) -> int:
    assert isinstance(job, int)
    return job


def test_a_pool_waits_for_jobs_not_ready_and_loses_none():
    def jobs():
        for k in range(30):
            if k % 7 == 0:
                yield from [LATER] * 3  # nothing ready for a moment
            yield k
        yield LATER

    rows: list[int] = []
    Pool(2, NO_CAPS, _job, lambda job, failure: -1).run(jobs(), rows.append, threading.Event())
    assert sorted(rows) == list(range(30))


def test_a_pool_whose_first_jobs_are_not_ready_starts_its_workers_later():
    asked = []

    def jobs():
        while len(asked) < 5:
            asked.append(1)
            yield LATER
        yield from range(3)

    rows: list[int] = []
    Pool(2, NO_CAPS, _job, lambda job, failure: -1).run(jobs(), rows.append, threading.Event())
    assert sorted(rows) == [0, 1, 2] and len(asked) == 5


def test_a_resume_with_nothing_left_reads_no_module(tmp_path, monkeypatch):
    student = _student(tmp_path, "ann", SPX)
    out = tmp_path / "runs.csv"
    first = batch.compare(["spx", student], _entries("EASY1"), runs=1, seed=3, jobs=1,
                          isolation=NONE, out=out)
    started = []
    real = reading.Reading.__init__
    monkeypatch.setattr(reading.Reading, "__init__",
                        lambda self, *a: (started.append(1), real(self, *a))[1])
    again = batch.compare(["spx", student], _entries("EASY1"), runs=1, seed=3, jobs=1,
                          isolation=NONE, out=out, resume=True)
    assert started == [] and {r.key for r in again} == {r.key for r in first}


def test_an_agent_read_beside_prints_against_the_budget_made_before_the_workers(tmp_path):
    student = _student(tmp_path, "ann", SPX)
    entry, = agent_entries(get_game("daggers"), [student], NONE, broken_rows=True, later=True)
    assert isinstance(entry.factory, Unread)
    seated = reading.read_entry(entry, reading.Read(warm=("json",)))
    assert seated.factory.output is entry.factory.output  # type: ignore[attr-defined]
    assert seated.factory.warm == ("json",) and not isinstance(seated.factory, Unread)
    refused = reading.read_entry(entry, reading.Read(kind="SyntaxError", words="line 1"))
    with pytest.raises(Exception, match="line 1"):
        refused.factory(**{})


def test_an_agent_seated_before_it_is_read_is_refused(tmp_path):
    student = _student(tmp_path, "ann", SPX)
    entry, = agent_entries(get_game("daggers"), [student], NONE, broken_rows=True, later=True)
    with pytest.raises(LogicAgentsError, match="before its module was read"):
        entry.factory.make({}, Calls("ann"))  # type: ignore[attr-defined]


def test_only_a_study_without_agent_options_reads_its_class_beside(tmp_path):
    student = _student(tmp_path, "ann", SPX)
    spec = get_game("daggers")
    later = agent_entries(spec, [student, "spx"], NONE, broken_rows=True, later=True)
    assert isinstance(later[0].factory, Unread) and later[1] is spec.agents["spx"]
    plain = _student(tmp_path, "bob", SPX).replace("bob=", "")  # not named: its name is read
    assert not isinstance(agent_entries(spec, [plain], NONE, broken_rows=True,
                                        later=True)[0].factory, Unread)
    deep = _student(tmp_path, "deep", SPX.replace(" as Agent", "") + """

class Agent(SinglePointAgent):
    def __init__(self, *, depth: int = 1):
        super().__init__()
        self.depth = depth
""")
    jobs = batch.make_jobs("daggers", [deep], _entries("EASY1"), 1, 1,
                           agent_options={"deep": {"depth": 2}}, isolation=NONE, later=True)
    assert not jobs.unread  # an option given: every agent read first, to check it
    assert [o.name for o in jobs.agents_of["deep"].declared()] == ["depth"]
    jobs = batch.make_jobs("daggers", [student], _entries("EASY1"), 1, 1, isolation=NONE,
                           later=True)
    assert list(jobs.unread) == ["ann"]


def test_the_command_line_reads_beside_only_when_no_agent_option_is_given(tmp_path):
    argv = ["compare", "EASY1", "--agents", "spx,rpx", "--runs", "1"]
    assert parse(argv).flags_known
    assert not parse([*argv, "--encoding", "sympy"]).flags_known  # satx's option: read
