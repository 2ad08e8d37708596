"""Fair play, round two (issue 52): the held-out cheats of the second hostile round gain
nothing, with and without the sandbox and at --jobs 1 and 2.

- secrets by construction: an agent's seed is derived from its game's by a keyed one-way
  function (Ooze's piece queue cannot be predicted), a study with an isolated agent has a
  secret seed by default (generated boards cannot be rebuilt, names carry no seed), a player's
  environment is an allowlist (a grader's token never reaches it), and a results file whose
  rows were forged and sealed again with the key is written again from the referee's rows;
- what an agent sends is bounded data: its prints are escaped, attributed and capped, a flood
  costs the referee bounded memory, a lone surrogate is refused at the wire and in-process;
- the seam: a worker that dies as its games are sent costs at most those games, and
  `la.compare` takes the fair-play settings itself (nothing process-wide).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import tracemalloc
from io import StringIO

import pytest

import logic_agents as la
from logic_agents.cli import main
from logic_agents.errors import UsageError
from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.referee import output
from logic_agents.referee.isolation import Isolation, player_environment
from logic_agents.referee.wire import WireError, _decode
from logic_agents.study import batch
from logic_agents.study.entries import MapEntry
from logic_agents.study.record import read_study, sealing_key
from logic_agents.study.rows import read_rows
from logic_agents.world.registry import get_game
from logic_agents.world.runner import run_episode
from logic_agents.world.seeds import PUBLIC_KEY, agent_seed, study_key

from .agents import cheats
from .conftest import ROOT
from .test_fair_play import SANDBOXES, cheat, plain, players_left

# the studies here play games in player processes: `make test-fast` leaves them out
pytestmark = pytest.mark.slow

# each containment once at --jobs 1 and once at --jobs 2, the suite's time kept
SETUPS = [(1, SANDBOXES[0]), (2, "none"), (2, SANDBOXES[0]), (1, "none")]


def _expert(count: int = 2) -> list[MapEntry]:
    """Boards the blind spx loses now and then: a forger has rows to forge."""
    return [MapEntry(m, "expert") for m in generate_maps(PRESETS["expert"], count, 11)]


def _ooze_entries() -> list[MapEntry]:
    from logic_agents.games.ooze import load_instance

    return [MapEntry(load_instance("ooze"), "ooze")]


# -- seeds ------------------------------------------------------------------------------------
def test_an_agents_seed_tells_nothing_of_the_worlds_draws():
    """Ooze draws its queue from the world's seed; the agent's reset is given another, so
    drawing the queue from its own seed fails, game after game. Given the world's own seed,
    the same trick predicts every queue (what the first hostile round did)."""
    spec = get_game("ooze")
    instance = _ooze_entries()[0].instance
    for seed in range(60):
        agent = cheats.PredictsThePieces()
        run_episode(spec.make_world(instance), agent, seed, game="ooze")
        assert agent.stats()["found"] == 0, seed
        blind = cheats.PredictsThePieces()
        blind.reset(seed)  # the world's seed itself: the leak this issue closes
        world = spec.make_world(instance)
        observation, _ = world.reset(seed=seed)
        done = False
        while not done:  # the whole game: every queue it sees was predicted
            observation, _, terminated, truncated, _ = world.step(blind.act(observation))
            done = terminated or truncated
        assert blind.stats()["found"] == 1 and blind.position > 5, seed


def test_the_agents_seed_is_one_way_keyed_and_the_same_for_every_agent_of_a_game():
    seeds = [agent_seed(s) for s in range(2000)]
    assert seeds == [agent_seed(s, PUBLIC_KEY) for s in range(2000)]  # reproducible
    assert len(set(seeds)) > 1990 and all(a != s for s, a in enumerate(seeds))
    key = study_key(5)
    assert sum(agent_seed(s, key) == a for s, a in enumerate(seeds)) < 3  # another stream
    assert agent_seed(None, key) is None
    # paired: two agents of a study get one seed per game (rpx, which only guesses, plays
    # every game the same as its copy)
    rows = batch.compare(["rpx", f"{ROOT / 'tests/agents/cheats.py'}:RandomCopy"],
                         _expert(1), runs=3, seed=5, jobs=1, isolation=Isolation(isolate="none"))
    by = {}
    for row in rows:
        by.setdefault(row.agent, []).append((row.map, row.run, row.seed, row.steps, row.outcome))
    assert by["rpx"] == by["rpx-copy"]


@pytest.mark.parametrize("jobs, sandbox", SETUPS[:2])
def test_ooze_pieces_cannot_be_predicted_in_a_study(jobs, sandbox, capsys):
    code = main(["compare", "ooze", "--game", "ooze", "--agents",
                 f"greedy,{cheat(cheats.PredictsThePieces)}", "--runs", "6", "--jobs", str(jobs),
                 "--sandbox", sandbox, "--seed", "random", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    agents = summary["agents"]
    assert agents["predict-pieces"]["mean_stats"]["found"] == 0
    assert agents["predict-pieces"]["score"] == agents["greedy"]["score"]  # played blind


@pytest.mark.parametrize("jobs, sandbox", SETUPS[:2])
def test_generated_boards_cannot_be_rebuilt_from_the_default_seed(jobs, sandbox, capsys,
                                                                  tmp_path):
    out = tmp_path / "gen.csv"
    argv = ["compare", "--generate", "cs5011-hard", "--count", "3", "--agents",
            f"spx,{cheat(cheats.RebuildsTheBoard)}", "--runs", "2", "--jobs", str(jobs),
            "--sandbox", sandbox]
    assert main([*argv, "--out", str(out)]) == 0
    captured = capsys.readouterr()
    rows = read_rows(out)
    assert {r.stats.get("found", 0) for r in rows if r.agent == "rebuild-board"} == {0}
    assert plain([r for r in rows if r.agent == "spx"]) == \
        plain([r for r in rows if r.agent == "rebuild-board"])
    assert all("-s" not in r.map.removeprefix("cs5011-hard") for r in rows)  # no seed in names
    record = read_study(out)
    assert record["seed_secret"] is True and record["seed"] >= 0
    assert str(record["seed"]) not in captured.out + captured.err
    assert "seed secret" in captured.out
    # the same study with a public seed: the boards can be rebuilt, and a note says so
    assert main([*argv, "--seed", "0", "--runs", "1"]) == 0
    captured = capsys.readouterr()
    assert "--seed 0 is public: an agent that knows it can rebuild the generated maps" in \
        captured.err
    assert "rebuild-board means per game: found 0.0" not in captured.out


def test_a_study_of_trusted_agents_keeps_seed_0_and_a_resume_keeps_a_secret_seed(tmp_path,
                                                                                 capsys):
    out = tmp_path / "r.csv"
    assert main(["compare", "EASY1", "--agents", "spx", "--runs", "1", "--out", str(out)]) == 0
    assert read_study(out)["seed"] == 0 and read_study(out)["seed_secret"] is False
    out = tmp_path / "s.csv"
    study = ["compare", "EASY1", "--agents", f"spx,{cheat(cheats.PeeksThroughGc)}", "--out",
             str(out), "--sandbox", "none"]
    assert main([*study, "--runs", "1"]) == 0
    first = read_study(out)
    assert first["seed_secret"] is True
    assert main([*study, "--runs", "2", "--resume"]) == 0
    assert read_study(out)["seed"] == first["seed"] and len(read_rows(out)) == 4
    capsys.readouterr()


# -- the environment --------------------------------------------------------------------------
@pytest.mark.parametrize("jobs, sandbox", SETUPS)
def test_the_referees_environment_never_reaches_a_player(jobs, sandbox, monkeypatch):
    monkeypatch.setenv("GRADER_TOKEN", "a-grader-secret")
    monkeypatch.setenv("RAY_AUTH_TOKEN", "another-secret")
    assert "GRADER_TOKEN" not in player_environment()
    agents = ["spx", cheat(cheats.ReadsTheEnvironment)]
    rows = batch.compare(agents, _expert(1), runs=2, seed=5, jobs=jobs,
                         isolation=Isolation(sandbox=sandbox))
    spx = plain([r for r in rows if r.agent == "spx"])
    cheater = [r for r in rows if r.agent == "read-env"]
    assert plain(cheater) == spx and all(r.stats["found"] == 0 for r in cheater)
    # a variable the user names reaches it: their choice, said by name
    rows = batch.compare(agents, _expert(1), runs=1, seed=5, jobs=jobs,
                         isolation=Isolation(sandbox=sandbox, env=("GRADER_TOKEN",)))
    assert all(r.stats["found"] == 1 for r in rows if r.agent == "read-env")


def test_pass_env_checks_its_names(capsys):
    assert main(["play", "EASY1", "--agent", cheat(cheats.PeeksThroughGc), "--pass-env",
                 "A=B"]) == 2
    err = capsys.readouterr().err
    assert "not the name of an environment variable" in err and "Traceback" not in err


# -- the results file -------------------------------------------------------------------------
@pytest.mark.parametrize("jobs, sandbox", SETUPS)
def test_rows_forged_and_sealed_again_are_replaced_by_the_referees(jobs, sandbox, tmp_path,
                                                                   monkeypatch, capsys):
    """Without the sandbox a cheat reads --out and the seal key and rewrites its lost rows as
    wins; the study's end finds the file is not what the referee wrote (content, not seals)
    and writes it again. In the sandbox it finds neither."""
    out = tmp_path / "runs.csv"
    monkeypatch.setenv("CHEAT_RESULTS", str(out))
    isolation = Isolation(sandbox=sandbox, env=("CHEAT_RESULTS",))
    agents = ["spx", cheat(cheats.ResealsTheResults)]
    rows = batch.compare(agents, _expert(2), runs=3, seed=7, jobs=jobs, out=out,
                         isolation=isolation)
    assert read_rows(out, sealing_key(out)) == rows  # the referee's rows, and only them
    cheater = [r for r in rows if r.agent == "reseal-results"]
    assert any(not r.won for r in cheater)  # it had games to forge
    found = sum(r.stats.get("found", 0) for r in cheater)
    if sandbox == "none":
        assert found > 0
        assert "was written again from the referee's own" in capsys.readouterr().err
    else:
        assert found == 0
    # a resume reads the file it left, and finishes the study with the referee's rows
    more = batch.compare(agents, _expert(2), runs=4, seed=7, jobs=jobs, out=out, resume=True,
                         isolation=isolation)
    assert read_rows(out, sealing_key(out)) == more and len(more) == 16
    assert players_left() == []


# -- what an agent prints ---------------------------------------------------------------------
@pytest.mark.parametrize("jobs, sandbox", SETUPS[:2])
def test_an_agents_prints_reach_the_terminal_escaped_and_attributed(jobs, sandbox, capfd,
                                                                   tmp_path):
    kept = tmp_path / "said"
    code = main(["compare", "EASY1", "EASY2", "--agents",
                 f"spx,{cheat(cheats.DrivesTheTerminal)}", "--runs", "1", "--jobs", str(jobs),
                 "--sandbox", sandbox, "--agent-output", str(kept)])
    err = capfd.readouterr().err
    assert code == 0
    lines = [line for line in err.splitlines() if "pwned" in line]
    assert lines and all(line.startswith("[drive-terminal] \\x1b]0;pwned\\x07") for line in lines)
    assert "\x1b]" not in err and "\x07" not in err
    # --agent-output keeps the agent's output, escaped as shown, a line a print
    said = (kept / "drive-terminal.txt").read_text().splitlines()
    assert len(said) == len(lines) and all(s.startswith("\\x1b]0;pwned") for s in said)


def test_an_agents_output_is_capped_per_agent_and_per_study(monkeypatch, tmp_path):
    monkeypatch.setattr(output, "AGENT_LIMIT", 200)
    monkeypatch.setattr(output, "STUDY_LIMIT", 300)
    shared = output.OutputBudget("study").study
    loud = output.OutputBudget("loud", shared, str(tmp_path))
    other = output.OutputBudget("other", shared)
    shown = StringIO()
    read, write = os.pipe()
    os.write(write, b"".join(b"line %d\n" % i for i in range(100)))
    os.close(write)
    output.relay(os.fdopen(read, "rb"), loud, shown)
    text = shown.getvalue()
    assert text.startswith("[loud] line 0\n") and text.count("\n") < 20
    assert "its output past its 200 characters is not shown; it is kept in" in text
    assert (tmp_path / "loud.txt").read_text().count("\n") == 100  # kept whole
    for _ in range(30):  # the study's cap holds for the other agents too
        other.show("x" * 20, shown)
    assert shown.getvalue().count("[other] x") < 10
    assert "the study's 300 characters" in shown.getvalue()


def test_a_line_of_any_length_costs_the_referee_bounded_memory():
    read, write = os.pipe()
    size = 256 << 20

    def flood() -> None:
        block = b"y" * (1 << 20)
        for _ in range(size >> 20):
            os.write(write, block)
        os.write(write, b"\nafter\n")
        os.close(write)

    writer = threading.Thread(target=flood)
    shown = StringIO()
    tracemalloc.start()
    writer.start()
    output.relay(os.fdopen(read, "rb"), output.OutputBudget("flood"), shown)
    writer.join()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 4 << 20, peak  # a quarter of a gigabyte read, a few MiB held
    lines = shown.getvalue().splitlines()
    assert lines[0].startswith("[flood] yyyy") and lines[0].endswith("is not shown)")
    assert len(lines[0]) < output.LINE_LIMIT + 100 and lines[1] == "[flood] after"


def test_a_flooding_agent_plays_on_and_its_neighbours_too(capfd):
    code = main(["compare", "EASY1", "--agents", f"spx,{cheat(cheats.FloodsItsOutput)}",
                 "--runs", "2", "--jobs", "1", "--seed", "5", "--json"])
    captured = capfd.readouterr()
    summary = json.loads(captured.out)
    assert code == 0 and len(captured.err) < 1 << 20
    assert summary["agents"]["flood-output"]["wins"] == summary["agents"]["spx"]["wins"]


# -- text no file can hold --------------------------------------------------------------------
def test_a_lone_surrogate_is_refused_at_the_wire():
    with pytest.raises(WireError, match="lone surrogate"):
        _decode(json.dumps({"op": "action", "why": {"text": "x\ud800"}}).encode())
    with pytest.raises(WireError, match="lone surrogate"):
        _decode(json.dumps({"op": "x", "y": [{"k\udfff": 1}]}).encode())
    assert _decode(json.dumps({"text": "\U0001f600 \\ud800"}).encode())["text"] == \
        "\U0001f600 \\ud800"  # a pair is text, and so are the characters of an escape


@pytest.mark.parametrize("trusted", [False, True])
def test_a_lone_surrogate_in_a_why_is_the_agents_error_and_every_page_is_written(trusted,
                                                                                 tmp_path):
    reference = cheat(cheats.SaysASurrogate)
    trust = ["--trust", reference] if trusted else []
    for argv in (["compare", "EASY1", "--agents", f"spx,{reference}", "--runs", "1",
                  "--html", str(tmp_path / "study.html")],
                 ["view", "EASY1", "--agent", reference, "-o", str(tmp_path / "game.html")]):
        done = subprocess.run([sys.executable, "-m", "logic_agents", *argv, *trust,
                               "--force"] if argv[0] == "compare" else
                              [sys.executable, "-m", "logic_agents", *argv, *trust],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 3, done.stderr[-2000:]
        assert "Traceback" not in done.stderr and "lone surrogate" in done.stderr
    assert (tmp_path / "study.html").is_file() and (tmp_path / "game.html").is_file()


# -- the seam ---------------------------------------------------------------------------------
@pytest.mark.parametrize("deaths, won", [(2, True), (100, False)])
def test_workers_that_die_as_their_games_are_sent_cost_at_most_those_games(monkeypatch,
                                                                           deaths, won):
    """A worker dead before its games reach it is replaced and they are sent again, also
    twice in a row; one that dies at every send costs those games their rows, never the
    study (it raised BrokenPipeError before)."""
    from logic_agents.referee import pool as processes

    spawn = processes.Pool._spawn
    spawned = [0]

    def dying(self, slot):
        made = spawn(self, slot)
        spawned[0] += 1
        if spawned[0] <= deaths:
            made.proc.kill()
            made.proc.join()
        return made

    monkeypatch.setattr(processes.Pool, "_spawn", dying)
    entries = [MapEntry(la.load("EASY1"), "2018")]
    rows = batch.compare(["spx"], entries, runs=2, seed=5, jobs=1)
    assert len(rows) == 2
    if won:
        assert all(r.won for r in rows)
    else:
        assert all(r.outcome == "error" and "ProcessDied" in r.error for r in rows)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_live_player_processes_do_not_grow_with_the_class(sandbox, tmp_path, monkeypatch):
    """Five file agents at --jobs 1: the worker keeps at most SERVERS_PER_WORKER player
    servers alive at once, and plays the class agent by agent; describing them runs a few
    side by side."""
    from logic_agents.referee import players
    from logic_agents.referee.owner import owner
    from logic_agents.referee.remote import SERVERS_PER_WORKER

    seen = tmp_path / "alive.txt"
    start = players.PlayerServer.__init__

    def counted(self, *args, **kwargs):
        start(self, *args, **kwargs)
        with seen.open("a") as f:  # the worker is a fork of this process: it writes here too
            f.write(f"{os.getpid()} {len(owner().players)}\n")

    monkeypatch.setattr(players.PlayerServer, "__init__", counted)
    folder = tmp_path / "class"
    agents = []
    for k in range(5):
        student = folder / f"s{k}"
        student.mkdir(parents=True)
        (student / "agent.py").write_text(
            "from logic_agents.games.daggers.agents import SinglePointAgent\n\n\n"
            f"class Agent(SinglePointAgent):\n    name = 's{k}'\n")
        agents.append(f"{student / 'agent.py'}:Agent")
    rows = batch.compare(agents, _expert(2), runs=2, seed=5, jobs=1,
                         isolation=Isolation(sandbox=sandbox))
    assert len(rows) == 20 and {r.outcome for r in rows} <= {"won", "lost"}
    alive = [tuple(map(int, line.split())) for line in seen.read_text().splitlines()]
    playing = [n for pid, n in alive if pid != os.getpid()]  # in the worker
    describing = [n for pid, n in alive if pid == os.getpid()]  # the agents, described here
    assert playing and max(playing) <= SERVERS_PER_WORKER
    assert max(describing) <= 2 * (os.cpu_count() or 1)  # side by side, a few at a time
    assert [r.agent for r in rows] == sorted(r.agent for r in rows)  # agent by agent
    assert players_left() == []


def test_compare_takes_its_fair_play_settings_and_no_command_leaves_one_behind(capsys,
                                                                               tmp_path):
    """The command line's --isolate none once set a process-wide switch that the next
    la.compare quietly used; now each call says its own."""
    reference = cheat(cheats.Remembers)
    assert main(["compare", "EASY1", "--agents", reference, "--runs", "1", "--jobs", "1",
                 "--isolate", "none"]) == 0
    capsys.readouterr()

    def seen_here() -> int:  # games the agent's module counted in this very process
        return sum(len(m.GAMES_SEEN) for name, m in list(sys.modules.items())
                   if name.startswith("logic_agents_user_") and hasattr(m, "GAMES_SEEN"))

    before = seen_here()
    study = la.compare(reference, ["EASY1"], runs=2, jobs=1, progress=False)
    assert seen_here() == before  # played in a player, as the default says
    assert study.meta["seed"] == "secret"  # an isolated agent: a secret seed by default
    # every fair-play setting of the command line's tournament, as keywords
    study = la.compare(["spx", reference], ["EASY1"], runs=1, jobs=1, seed=3, progress=False,
                       isolate="all", trust=["spx"], sandbox="none", hide=[tmp_path],
                       pass_env=["HOME"], move_timeout=30, game_timeout=60, memory_cap=512,
                       max_processes=4, agent_output=tmp_path / "said")
    assert study.meta["seed"] == "3" and len(study.rows) == 2
    for bad, words in [({"isolate": "some"}, "isolate must be one of"),
                       ({"move_timeout": -1}, "move_timeout must be a positive number"),
                       ({"hide": "maps"}, "hide must be a list"),
                       ({"pass_env": ["A=B"]}, "not the name of an environment variable"),
                       ({"seed": "lucky"}, "seed must be")]:
        with pytest.raises(UsageError, match=words):
            la.compare("spx", ["EASY1"], runs=1, progress=False, **bad)


def test_a_published_page_shows_no_secret_seed_and_no_hidden_path(tmp_path, capsys):
    secret_folder = tmp_path / "answers-for-grading"
    secret_folder.mkdir()
    out = tmp_path / "runs.csv"
    page = tmp_path / "study.html"
    assert main(["compare", "EASY1", "--agents", f"spx,{cheat(cheats.PeeksThroughGc)}",
                 "--runs", "1", "--out", str(out), "--html", str(page), "--hide",
                 str(secret_folder), "--sandbox", "none"]) == 0
    err = capsys.readouterr().err
    text = page.read_text()
    assert str(read_study(out)["seed"]) not in text and "secret" in text
    assert "answers-for-grading" not in text
    assert "ran without a sandbox" in text and "ran without a sandbox" in err
