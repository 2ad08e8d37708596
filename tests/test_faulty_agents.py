"""A study survives its agents (issue 26): a broken agent's game is a row with outcome error
or timeout, whatever the fault (a raise in any of its calls, a non-action, sys.exit, os._exit,
KeyboardInterrupt, an endless loop in Python or in C, too much memory), at --jobs 1 and 2;
`play` says where the agent failed, shows its own frames and exits 3; an --agent that is no
agent is one clean line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from logic_agents.cli import main
from logic_agents.errors import AgentFailed
from logic_agents.referee.clock import Caps, Clock
from logic_agents.study import batch
from logic_agents.study.entries import MapEntry
from logic_agents.study.rows import read_rows
from logic_agents.study.summary import summarize
from logic_agents.world.runner import AFTER_THE_GAME

from .conftest import ROOT

FAULTY = ROOT / "tests" / "agents" / "faulty.py"


def agent(name: str) -> str:
    return f"{FAULTY}:{name}"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def no_traceback(err: str) -> None:
    assert "Traceback" not in err, err
    assert "logic_agents/" not in err, err


@pytest.mark.parametrize("name, where, kind", [
    ("RaisesInAct", "act() at step 2", "ZeroDivisionError"),
    ("RaisesInInit", "__init__", "ValueError"),
    ("RaisesInReset", "reset()", "RuntimeError"),
    ("RaisesInWhy", "why() at step 1", "TypeError"),
    ("ExitsThree", "act() at step 1", "SystemExit"),
    ("ExitsZero", "act() at step 1", "SystemExit"),
    ("Interrupts", "act() at step 1", "KeyboardInterrupt"),
])
def test_play_says_where_the_agent_failed_and_shows_its_own_frames(capsys, name, where, kind):
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent(name), "--quiet")
    assert code == 3
    assert f"{kind}" in err and f"(in {where})" in err, err
    assert 'faulty.py", line' in err  # the agent's own frame, in its own file
    no_traceback(err)
    assert out.startswith("ERROR EASY1")


@pytest.mark.parametrize("name, where, kind", [
    ("RaisesInStats", "stats()", "LookupError"),
    ("RaisesInClose", "close()", "OSError"),
])
def test_play_says_an_agent_failed_after_its_game_and_keeps_the_worlds_outcome(capsys, name,
                                                                              where, kind):
    """Issue 66: once the world has ended the game, its outcome stands; the agent's failure
    after it is still shown, where and with its own frames, and play exits 3."""
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent(name), "--quiet")
    assert code == 3
    assert f"failed {AFTER_THE_GAME}{kind}" in err and f"(in {where})" in err, err
    assert 'faulty.py", line' in err
    no_traceback(err)
    plain = run(capsys, "play", "EASY1", "--agent", agent("Plain"), "--quiet")[1]
    assert out.split(" with ")[0] == plain.split(" with ")[0]  # LOST EASY1, as Plain's
    assert not out.startswith("ERROR")


@pytest.mark.parametrize("name, words", [
    ("Banana", "not a daggers action: 'banana'"),
    ("FortyTwo", "not a daggers action: 42"),
    ("FloatCell", "a cell is two whole numbers"),
    ("OffTheBoard", "off the"),
])
def test_a_non_action_is_the_agents_error(capsys, name, words):
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent(name), "--json")
    assert code == 3
    result = json.loads(out)
    assert result["outcome"] == "error" and "IllegalAction" in result["error"]
    assert words in result["error"]
    no_traceback(err)


def test_os_exit_endless_loops_and_c_are_stopped(capsys):
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent("HardExit"), "--json")
    assert code == 3 and "ProcessDied" in json.loads(out)["error"]
    # an agent in a player process is stopped by the referee, which stops waiting and kills
    # the player, whatever the agent is doing; a trusted one, in-process, by the alarm, and
    # when the alarm cannot cut it (stuck in C), by the supervisor
    for name, words, trust in (
            ("Loops", "ran past the 0.5 s move cap", ()),
            ("StuckInC", "ran past the 0.5 s move cap; its player process was killed", ()),
            ("Loops", "ran past the 0.5 s move cap", ("--trust", agent("Loops"))),
            ("StuckInC", "did not answer the alarm", ("--trust", agent("StuckInC")))):
        code, out, err = run(capsys, "play", "EASY1", "--agent", agent(name), "--json",
                             "--move-timeout", "0.5", *trust)
        result = json.loads(out)
        assert code == 3 and result["outcome"] == "timeout" and words in result["error"]
        no_traceback(err)
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent("Loops"), "--json",
                         "--move-timeout", "0", "--game-timeout", "0.5")
    assert code == 3 and "the game's 0.5 s cap" in json.loads(out)["error"]


def test_the_memory_cap_holds_for_agents(capsys):
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent("Hog"), "--json",
                         "--memory-cap", "200")
    result = json.loads(out)
    assert code == 3 and result["outcome"] == "error" and "MemoryError" in result["error"]


def test_an_agents_prints_do_not_pollute_json(capsys):
    code, out, err = run(capsys, "play", "EASY1", "--agent", agent("Prints"), "--json")
    assert json.loads(out)["agent"].endswith("Prints")  # stdout is the one JSON object
    assert "thinking out loud" in err
    code, out, err = run(capsys, "compare", "EASY1", "--agents", agent("Prints"), "--runs", "2",
                         "--jobs", "1", "--json")
    assert json.loads(out)["agents"]


@pytest.mark.parametrize("reference, words", [
    ("json:loads", "json:loads is a function that does not return an agent"),
    ("os:system", "os:system is a function that does not return an agent"),
    ("math:pi", "math:pi is a float, not an agent class"),
    (f"{FAULTY}:not_a_factory", "is a function that does not return an agent"),
    ("collections:OrderedDict", "has no reset() or act()"),
])
def test_a_reference_to_something_else_is_one_clean_line(capsys, reference, words):
    for verb in (["play", "EASY1", "--agent", reference],
                 ["compare", "EASY1", "--agents", f"spx,{reference}", "--runs", "1"]):
        code, out, err = run(capsys, *verb)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_a_study_survives_its_agents_at_any_jobs(capsys, tmp_path):
    """The issue's bar: spx and four faulty agents at --jobs 2 with a move cap; then every
    other fault at --jobs 1. spx's rows are those of spx alone; the others' are failures."""
    alone = batch.compare(["spx"], _entries(), runs=2, seed=3, jobs=1)
    four = ["RaisesInAct", "Banana", "ExitsThree", "Loops"]
    out = tmp_path / "runs.csv"
    code, stdout, err = run(capsys, "compare", "EASY1", "EASY2", "--agents",
                            ",".join(["spx", *map(agent, four)]), "--runs", "2", "--seed", "3",
                            "--jobs", "2", "--move-timeout", "0.5", "--out", str(out))
    assert code == 3
    no_traceback(err)
    rows = read_rows(out)
    assert len(rows) == 2 * 2 * 5
    assert _plain([r for r in rows if r.agent == "spx"]) == _plain(alone)
    outcomes: dict[str, set] = {}
    for r in rows:
        if r.agent != "spx":
            outcomes.setdefault(r.agent.rsplit(":", 1)[1], set()).add(r.outcome)
    # RaisesInAct raises at its second move; a first move onto a dagger loses before that
    assert outcomes.pop("RaisesInAct") in ({"error"}, {"error", "lost"})
    assert outcomes == {"Banana": {"error"}, "ExitsThree": {"error"}, "Loops": {"timeout"}}
    summary = summarize(rows)
    assert summary["agents"][agent("Loops")]["timeouts"] == 4
    assert summary["agents"][agent("Banana")]["errors"] == 4
    assert "errors" in stdout and "timeouts" in stdout  # the table counts them apart

    others = ["RaisesInInit", "RaisesInReset", "RaisesInWhy", "FortyTwo", "FloatCell",
              "ExitsZero", "HardExit", "Interrupts", "StuckInC"]
    # issue 66: what fails after the world ended the game is a note on a row that keeps the
    # world's outcome (an error would be played again by --retry-errors: a re-rolled loss)
    after = ["RaisesInStats", "RaisesInClose", "HugeCounter", "EnormousCounter"]
    rows = batch.compare(["spx", agent("Plain"), *map(agent, others + after)], _entries(),
                         runs=1, seed=3, jobs=1, caps=Caps(move_timeout=0.5))
    assert _plain([r for r in rows if r.agent == "spx"]) == _plain(alone[::2])
    plain_outcomes = [(r.map, r.outcome, r.steps) for r in rows if r.agent == agent("Plain")]
    # a why that fails on the move that ended the game (Plain's first move on EASY2) is a note
    assert all(r.failed and r.error or r.agent == agent("RaisesInWhy") and r.error.startswith(
        AFTER_THE_GAME) and (r.map, r.outcome, r.steps) in plain_outcomes
        for r in rows if r.agent in {*map(agent, others)}), [
        (r.agent, r.outcome) for r in rows if not r.failed]
    for name, words in zip(after, ["LookupError: no stats for you", "OSError: no close for you",
                                   "counter 'nodes' is a number of 17 digits",
                                   "(in stats())"]):
        late = [r for r in rows if r.agent == agent(name)]
        assert [(r.map, r.outcome, r.steps) for r in late] == plain_outcomes, name
        assert all(r.error.startswith(AFTER_THE_GAME) and words in r.error for r in late), \
            [r.error for r in late]


def test_resume_keeps_failed_games_unless_asked_to_retry(capsys, tmp_path):
    out = tmp_path / "runs.jsonl"
    study = ["compare", "EASY1", "--agents", f"spx,{agent('RaisesInAct')}", "--runs", "2",
             "--jobs", "1", "--out", str(out)]
    assert run(capsys, *study)[0] == 3
    assert run(capsys, *study, "--resume")[0] == 3
    assert len(read_rows(out)) == 4  # nothing replayed
    assert run(capsys, *study, "--resume", "--retry-errors")[0] == 3
    rows = read_rows(out)
    assert len(rows) == 6  # the two failed games once more
    assert sum(r.failed for r in rows) == 4
    assert run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "1",
               "--retry-errors")[0] == 2


def test_every_exception_an_agent_raises_is_its_failure():
    clock = Clock(Caps(None, None, None), own_interrupts=True)
    clock.agent = "x"
    for error in (ValueError("v"), SystemExit(2), KeyboardInterrupt(), GeneratorExit(),
                  MemoryError(), RecursionError("deep")):
        def boom(error=error):
            raise error

        with pytest.raises(AgentFailed) as caught:
            clock.call("act", boom, step=4)
        assert caught.value.kind == type(error).__name__ and caught.value.step == 4
    with pytest.raises(KeyboardInterrupt):  # outside a worker, Ctrl-C is the user's
        Clock().call("act", lambda: (_ for _ in ()).throw(KeyboardInterrupt()))


def test_a_stuck_agent_in_a_real_process_stops_in_bounded_time(tmp_path):
    """The whole command, as a person runs it: one line per failing agent, exit 3."""
    done = subprocess.run(
        [sys.executable, "-m", "logic_agents", "compare", "EASY1", "--agents",
         f"spx,{agent('StuckInC')}", "--runs", "2", "--jobs", "2", "--move-timeout", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    assert "StuckInC failed 2 game(s)" in done.stderr


def _entries():
    from logic_agents.games.daggers import load

    return [MapEntry(load(ROOT / "maps/daggers/2018" / f"{m}.txt"), "2018")
            for m in ("EASY1", "EASY2")]


def _plain(rows):
    return sorted((r.agent, r.map, r.run, r.seed, r.outcome, r.steps, r.guesses) for r in rows)


def test_a_world_that_raises_is_its_games_rows_not_the_end_of_the_study(monkeypatch):
    """A plug-in world's bug, outside any agent's call: its games are rows, the study ends."""
    from logic_agents.games.daggers import world

    def broken(self, action):
        raise RuntimeError("the world broke")

    monkeypatch.setattr(world.DaggersWorld, "step", broken)  # forked workers inherit it
    rows = batch.compare(["spx"], _entries(), runs=2, seed=3, jobs=2)
    assert len(rows) == 4 and all(r.outcome == "error" for r in rows)
    assert all("RuntimeError: the world broke" in r.error and "the world" in r.error
               for r in rows)


def test_the_alarm_is_for_the_agent_alone(capsys):
    """An alarm due while the framework reads the agent's error (its __str__ is slow) does
    not fire in the framework's code: the game is the agent's error, the worker lives on.
    In a player process the error's words are the agent's own code, run on its own time: a
    slow one is a timeout, and the study goes on all the same."""
    code, out, err = run(capsys, "compare", "EASY1", "--agents", agent("RaisesSlowly"),
                         "--runs", "2", "--jobs", "1", "--move-timeout", "0.5", "--json",
                         "--trust", agent("RaisesSlowly"))
    assert code == 3 and "Traceback" not in err
    assert "SlowToSay: slow to say (in act() at step 1)" in err
    code, out, err = run(capsys, "compare", "EASY1", "--agents", agent("RaisesSlowly"),
                         "--runs", "2", "--jobs", "1", "--move-timeout", "0.5", "--json")
    assert code == 3 and "Traceback" not in err
    assert json.loads(out)["agents"][agent("RaisesSlowly")]["timeouts"] == 2


def test_a_move_made_before_the_agent_failed_stays_in_its_trace(capsys, tmp_path):
    """Found by a by-hand round: `why` raising after a move made the trace one step short
    of its result, so view and replay refused it."""
    trace = tmp_path / "t.jsonl"
    code, _, err = run(capsys, "play", "EASY1", "--agent", agent("RaisesInWhy"), "--quiet",
                       "--trace", str(trace))
    assert code == 3 and "(in why() at step 1)" in err
    code, out, _ = run(capsys, "replay", str(trace))
    assert code == 0 and "1 steps replayed, outcome error" in out
    code, out, err = run(capsys, "view", "EASY1", "--agent", agent("RaisesInWhy"), "-o",
                         str(tmp_path / "p.html"))
    assert code == 3 and "1 steps, error" in out and (tmp_path / "p.html").exists()
