"""Fair play (issue 38): agents that try to cheat gain nothing, and nothing they do changes
another agent's result, at --jobs 1 and 2, with and without the sandbox tool (bubblewrap),
and on a loopback Ray cluster.

Each cheat (tests/agents/cheats.py) plays exactly as spx whenever its trick finds nothing and
counts in its stats what the trick found, so "gains nothing" is checked as: its rows are spx's
rows, game for game, and it found nothing. Without the sandbox, what the same user can do to
the user's own files, sockets and processes still works, and the tests say so (the table in
docs/compare.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.referee.clock import Caps
from logic_agents.referee.isolation import Isolation
from logic_agents.referee.owner import owner
from logic_agents.referee.sandbox import bubblewrap
from logic_agents.study import batch
from logic_agents.study.entries import MapEntry
from logic_agents.study.record import sealing_key
from logic_agents.study.rows import read_rows
from logic_agents.world.runner import AFTER_THE_GAME

from .agents import cheats
from .conftest import ROOT
from .test_cluster import processes_mentioning

# the studies here play games in player processes: `make test-fast` leaves them out
pytestmark = pytest.mark.slow

CHEATS = ROOT / "tests" / "agents" / "cheats.py"
MAPS = ROOT / "maps" / "daggers" / "2018"
HAVE_SANDBOX = bubblewrap() is not None
needs_sandbox = pytest.mark.skipif(
    not HAVE_SANDBOX and not os.environ.get("CI_REQUIRE_SANDBOX"),
    reason="bubblewrap is not installed (CI installs it and requires it)")
SANDBOXES = ["bwrap", "none"] if HAVE_SANDBOX or os.environ.get("CI_REQUIRE_SANDBOX") \
    else ["none"]


# the cheats' settings, passed to their players by name: no other variable of the referee's
# reaches a player (test_the_referees_environment_never_reaches_a_player)
CHEAT_ENV = ("CHEAT_PORT", "CHEAT_MARK", "CHEAT_MAPS", "CHEAT_RESULTS")


def cheat(kind: type) -> str:
    return f"{CHEATS}:{kind.__name__}"


def _entries():
    from logic_agents.games.daggers import load

    return [MapEntry(load(MAPS / f"{m}.txt"), "2018") for m in ("EASY1", "EASY2")]


def plain(rows):
    """What a game's result is, whoever played it."""
    return sorted((r.map, r.run, r.seed, r.outcome, r.won, r.steps, r.guesses,
                   json.dumps(r.extra, sort_keys=True)) for r in rows)


def players_left() -> list[int]:
    """Player processes under this test's process (none may outlive a study)."""
    from logic_agents.referee.process_tree import descendants

    left = []
    for pid in descendants({os.getpid()}):
        try:
            if b"logic_agents.referee.server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                left.append(pid)
        except OSError:
            continue
    return left


@pytest.fixture
def friend(monkeypatch, tmp_path):
    """A listening socket on loopback (a friend's server), the cheats' settings."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.setblocking(False)
    mark = f"{secrets.randbelow(10**6)}.{secrets.randbelow(10**6)}"
    monkeypatch.setenv("CHEAT_PORT", str(server.getsockname()[1]))
    monkeypatch.setenv("CHEAT_MARK", mark)
    monkeypatch.setenv("CHEAT_MAPS", str(MAPS))
    monkeypatch.setenv("CHEAT_RESULTS", str(tmp_path / "runs.csv"))
    yield mark
    server.close()


# --jobs 1 in the sandbox, --jobs 2 without it (and on Ray, tests/test_cluster.py): each
# backend and each containment once, the suite's time kept
@pytest.mark.parametrize("jobs, sandbox", [(1, SANDBOXES[0]), (2, "none")])
def test_cheats_in_game_gain_nothing_and_change_no_other_result(friend, tmp_path, jobs,
                                                                sandbox):
    if sandbox == "bwrap" and not HAVE_SANDBOX:
        pytest.fail("CI_REQUIRE_SANDBOX is set but bubblewrap is not installed")
    alone = batch.compare(["spx"], _entries(), runs=2, seed=5, jobs=1)
    out = tmp_path / "runs.csv"
    isolation = Isolation(sandbox=sandbox, hide=(str(MAPS), str(out)), env=CHEAT_ENV)
    rows = batch.compare(["spx", *map(cheat, cheats.IN_GAME)], _entries(), runs=2, seed=5,
                         jobs=jobs, out=out, isolation=isolation, caps=Caps(move_timeout=20))
    by: dict[str, list] = {}
    for row in rows:
        by.setdefault(row.agent, []).append(row)
    assert plain(by["spx"]) == plain(alone)  # nothing a cheat did reached spx's games
    found = {name: sum(r.stats.get("found", 0) for r in rs) for name, rs in by.items()}
    # seeing the hidden state, declaring a win, patching the framework, reseeding the others,
    # overriding the world's figures: nothing to find in a player, so it plays blind
    for name in ("peek-gc", "peek-frames", "peek-inspect", "declare-win", "patch-framework",
                 "reseed", "override-score"):
        assert plain(by[name]) == plain(alone), name
        assert found[name] == 0, name
    # forging an answer on the pipe: its own games are errors, nobody else's
    assert all(r.outcome == "error" and "ProtocolError" in r.error for r in by["forge-pipe"])
    # a negative guess count is refused after the game ended (issue 66): the world's outcome
    # stands, the refusal a note on its own rows, and the study resumes
    assert sorted((r.map, r.run, r.outcome, r.steps) for r in by["negative-guesses"]) == \
        sorted((r.map, r.run, r.outcome, r.steps) for r in by["spx"])
    assert all(r.error.startswith(AFTER_THE_GAME) and "guesses" in r.error
               for r in by["negative-guesses"])
    # the results file holds the referee's rows only, each sealed, and reads back whole
    written = read_rows(out, sealing_key(out))
    assert plain(written) == plain(rows) and len(written) == len(rows)
    assert plain(by["forge-results"]) == plain(alone)
    # every process a cheat started died with its game, and every player with the study
    assert found["leave-children"] > 0 and processes_mentioning(friend) == [] and players_left() == []
    if sandbox == "bwrap":  # files, the network, the study's maps: out of sight
        for name in ("read-maps", "open-socket", "forge-results"):
            assert found[name] == 0 and plain(by[name]) == plain(alone), name
    else:  # without the sandbox the same user's files and sockets stay open (docs/compare.md)
        assert found["read-maps"] > 0 and found["open-socket"] > 0
        assert found["forge-results"] > 0  # it wrote; the referee wrote the file again


@needs_sandbox
def test_killing_siblings_and_the_referee_changes_nothing_in_the_sandbox(tmp_path):
    """In its PID namespace a cheat sees no process of the study to kill."""
    out = tmp_path / "runs.csv"
    agents = f"spx,{cheat(cheats.KillsItsSiblings)},{cheat(cheats.KillsTheReferee)}"
    done = subprocess.run([sys.executable, "-m", "logic_agents", "compare", "EASY1", "EASY2",
                           "--agents", agents, "--runs", "2", "--seed", "5", "--jobs", "2",
                           "--sandbox", "bwrap", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = read_rows(out, sealing_key(out))
    alone = batch.compare(["spx"], _entries(), runs=2, seed=5, jobs=1)
    # what it can signal is its own sandbox's init, which ignores it: every game as spx's
    for name in ("spx", "kill-siblings", "kill-referee"):
        assert plain([r for r in rows if r.agent == name]) == plain(alone), name


def test_killing_sibling_workers_without_the_sandbox_loses_no_other_game(tmp_path):
    """Without the sandbox a cheat can kill the study's other workers; the games that were
    running there are played again, so the other agents' rows are as without it."""
    out = tmp_path / "runs.csv"
    rows = batch.compare(["spx", cheat(cheats.KillsItsSiblings)], _entries(), runs=2, seed=5,
                         jobs=2, out=out, isolation=Isolation(sandbox="none"))
    alone = batch.compare(["spx"], _entries(), runs=2, seed=5, jobs=1)
    assert plain([r for r in rows if r.agent == "spx"]) == plain(alone)
    assert sum(r.stats.get("found", 0) for r in rows if r.agent == "kill-siblings") > 0
    assert players_left() == []


def test_killing_the_referee_without_the_sandbox_loses_no_finished_game(tmp_path):
    """Without the sandbox a cheat can kill the referee itself (the same user's process):
    the study stops, every finished game is in --out, sealed, and a resume finishes it."""
    out = tmp_path / "runs.csv"
    study = [sys.executable, "-m", "logic_agents", "compare", "EASY1", "EASY2", "--agents",
             f"spx,{cheat(cheats.KillsTheReferee)}", "--runs", "2", "--seed", "5", "--jobs",
             "1", "--sandbox", "none", "--out", str(out)]
    temp = tmp_path / "tmp"  # the study's temporary folder: what its players leave is seen here
    temp.mkdir()
    done = subprocess.run(study, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TMPDIR": str(temp)})
    assert done.returncode == -9  # killed: the documented limit without the sandbox
    # the killed referee could not remove its player's folder (its last game's files): the
    # next player started on the machine does, and its own when it ends
    left = list(temp.glob("logic-agents-player-*"))
    again = subprocess.run([sys.executable, "-m", "logic_agents", "play", "EASY1", "--agent",
                            "examples/my_agent.py:MyAgent", "--sandbox", "none", "--quiet"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env={**os.environ, "TMPDIR": str(temp)})
    assert again.returncode == 0, again.stderr[-2000:]
    assert left and list(temp.glob("logic-agents-player-*")) == []
    kept = read_rows(out, sealing_key(out))  # every row there is the referee's, sealed
    alone = {(r.map, r.run): r for r in batch.compare(["spx"], _entries(), runs=2, seed=5,
                                                      jobs=1)}
    assert len({r.key for r in kept}) == len(kept)
    for row in kept:
        assert row.agent in ("spx", "kill-referee")
        if row.agent == "spx":
            assert plain([row]) == plain([alone[(row.map, row.run)]])


def test_only_the_folders_of_ended_referees_are_removed(tmp_path, monkeypatch):
    from logic_agents.referee import players, process_tree

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    dead = int(ended.stdout)
    zombie = os.fork()
    if zombie == 0:
        os._exit(0)
    try:
        while process_tree.running(zombie):  # it ends at once; until reaped it is a zombie
            time.sleep(0.01)
        outside = tmp_path / "outside"
        outside.mkdir()
        names = {"mine": f"logic-agents-player-{os.getpid()}-a", "dead": f"logic-agents-player-{dead}-b",
                 "zombie": f"logic-agents-player-{zombie}-c", "old": "logic-agents-player-k2x9",
                 "other": f"something-{dead}-d"}
        for name in names.values():
            (tmp_path / name).mkdir()
            (tmp_path / name / "left.txt").write_text("a game's file")
        (tmp_path / f"logic-agents-player-{dead}-link").symlink_to(outside)
        players._remove_stale_folders()
    finally:
        os.waitpid(zombie, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [names["mine"], names["old"], names["other"], f"logic-agents-player-{dead}-link",
         "outside"])


@pytest.mark.parametrize("name, flags, words", [
    ("cheat_import_loop.py:Never", ["--import-timeout", "1"],
     "took more than 1 s (the import cap)"),
    ("cheat_import_hog.py:Hoarder", ["--memory-cap", "300"], "MemoryError"),
])
def test_an_agent_module_that_loops_or_hoards_is_stopped_before_any_game(capsys, name,
                                                                         flags, words):
    reference = str(ROOT / "tests" / "agents" / name)
    # compare stops as play does with --stop-on-broken; without it, issue 53 makes such a
    # submission its own error rows and the study goes on (test below)
    for verb in (["play", "EASY1", "--agent", reference],
                 ["compare", "EASY1", "--agents", f"spx,{reference}", "--runs", "1",
                  "--stop-on-broken"]):
        start = time.monotonic()
        code = main([*verb, *flags])
        err = capsys.readouterr().err
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
        assert time.monotonic() - start < 30


@pytest.mark.parametrize("name, flags, words", [
    ("cheat_import_loop.py:Never", ["--import-timeout", "1"],
     "took more than 1 s (the import cap)"),
    ("cheat_import_hog.py:Hoarder", ["--memory-cap", "300"], "MemoryError"),
])
def test_an_agent_module_that_loops_or_hoards_plays_no_game_of_a_study(capsys, name, flags,
                                                                       words):
    """Without --stop-on-broken: every game of it is an error row with the reason; spx plays."""
    reference = str(ROOT / "tests" / "agents" / name)
    code = main(["compare", "EASY1", "EASY2", "--agents", f"spx,{reference}", "--runs", "2",
                 "--json", *flags])
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    broken = [a for a in summary["agents"] if a != "spx"]
    assert code == 3 and len(broken) == 1
    assert summary["agents"][broken[0]]["errors"] == 4
    assert summary["agents"]["spx"]["games"] == 4 and summary["agents"]["spx"]["errors"] == 0
    assert words in captured.err and "reading its module" in captured.err


def test_an_agent_module_that_patches_the_study_patches_only_its_player(capsys):
    reference = f"{ROOT / 'tests' / 'agents' / 'cheat_import_patch.py'}:Patcher"
    code = main(["compare", "EASY1", "EASY2", "--agents", f"spx,{reference}", "--runs", "2",
                 "--seed", "5", "--jobs", "1", "--json"])
    summary = json.loads(capsys.readouterr().out)
    alone = batch.compare(["spx"], _entries(), runs=2, seed=5, jobs=1)
    wins = sum(r.won for r in alone)
    assert code == 0
    assert summary["agents"]["spx"]["wins"] == wins
    assert summary["agents"]["patch-at-import"]["wins"] == wins


def test_the_referee_never_runs_the_agents_code(capsys):
    """The agent's module is read in a player process only: the referee's modules hold no
    module of the agent's after a whole study."""
    before = set(sys.modules)
    assert main(["compare", "EASY1", "--agents", f"spx,{cheat(cheats.PeeksThroughGc)}",
                 "--runs", "1", "--jobs", "1"]) == 0
    capsys.readouterr()
    new = {m for m in set(sys.modules) - before if m.startswith("logic_agents_user_")}
    assert new == set()


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_fork_bomb_meets_the_process_cap_and_leaves_nothing(friend, sandbox):
    """--max-processes holds before the agent's code runs (a pids cgroup of the player's own
    where the machine gives one, else RLIMIT_NPROC): the bomb starts at most that many, its
    games are spx's, and none of its processes outlives its game."""
    from logic_agents.referee.cgroups import ProcessGroup

    group = ProcessGroup(4)
    capped = group.path is not None or os.getuid() != 0  # root ignores RLIMIT_NPROC
    group.remove()
    rows = batch.compare(["spx", cheat(cheats.ForksWithoutEnd)], _entries(), runs=1, seed=5,
                         jobs=1, isolation=Isolation(sandbox=sandbox, max_processes=8,
                                                     env=CHEAT_ENV))
    alone = batch.compare(["spx"], _entries(), runs=1, seed=5, jobs=1)
    bomb = [r for r in rows if r.agent == "fork-bomb"]
    assert plain(bomb) == plain(alone) and plain([r for r in rows if r.agent == "spx"]) == \
        plain(alone)
    if capped:
        assert all(1 <= r.stats["found"] <= 10 for r in bomb), [r.stats for r in bomb]
    assert processes_mentioning(friend) == []


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("jobs", [1, 2])
def test_nothing_carries_from_one_game_to_the_next(sandbox, jobs):
    """Issue 52: every game of an untrusted agent starts from fresh interpreter state, by
    default: a child forked from a player server that has read no agent code, with an empty
    private /tmp (the sandbox's, emptied; without it, a TMPDIR of the game's own). With
    player_per_game (--player-per-game) each game has a fresh server besides. Before, a
    player served all of its agent's games on a worker and its module remembered them."""
    def remembered(per_game: bool, cheat_class: type) -> list[int]:
        rows = batch.compare([cheat(cheat_class)], _entries(), runs=2, seed=5, jobs=jobs,
                             isolation=Isolation(sandbox=sandbox, player_per_game=per_game))
        return sorted(r.stats.get("remembered", r.stats.get("found")) for r in rows)

    for per_game in (False, True):
        assert remembered(per_game, cheats.Remembers) == [0, 0, 0, 0]
        assert remembered(per_game, cheats.RemembersInTmp) == [0, 0, 0, 0]
        if sandbox == "bwrap":  # /tmp itself is the sandbox's own, emptied after each game
            assert remembered(per_game, cheats.RemembersInSlashTmp) == [0, 0, 0, 0]


SPINNER = """import os


class Agent:  # a student's endless loop: it notes its process, then never answers
    def reset(self, seed=None):
        pass

    def act(self, obs):
        with open({mark!r}, "a") as f:
            f.write(f"{{os.getpid()}}\\n")
        while True:
            pass
"""


@pytest.mark.parametrize("verb", ["compare", "play"])
@pytest.mark.parametrize("stop", ["ctrl-c", "kill"])
def test_a_stopped_study_leaves_no_game_running_without_the_sandbox(tmp_path, stop, verb):
    """A study (or `play`) stopped while a student's agent loops (Ctrl-C; the referee killed
    outright) leaves no game running. Before, without the sandbox, Ctrl-C ended each busy
    worker at once and its player server with it, but the game the server had forked ran on
    under init, at full speed, for ever (the course page's command did that in the suite)."""
    from logic_agents.referee.process_tree import running

    mark = tmp_path / "pids.txt"
    agent = tmp_path / "spin.py"
    agent.write_text(SPINNER.format(mark=str(mark)))
    argv = (["compare", "EASY1", "EASY2", "--agents", f"spx,{agent}:Agent", "--runs", "2",
             "--jobs", "2", "--out", str(tmp_path / "runs.csv")] if verb == "compare"
            else ["play", "EASY1", "--agent", f"{agent}:Agent", "--quiet"])
    games = 2 if verb == "compare" else 1  # a study's two workers, each with a looping game
    study = subprocess.Popen([sys.executable, "-m", "logic_agents", *argv, "--sandbox", "none",
                              "--move-timeout", "120"], cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(_pids(mark)) < games:
        time.sleep(0.05)
    spinning = _pids(mark)
    assert len(spinning) == games and all(running(p) for p in spinning)
    if stop == "ctrl-c":
        os.killpg(study.pid, signal.SIGINT)  # what a terminal sends the foreground group
    else:
        study.kill()
    _, err = study.communicate(timeout=60)
    assert study.returncode == (130 if stop == "ctrl-c" else -9), err
    deadline = time.monotonic() + 10  # a kill takes the kernel a moment
    while time.monotonic() < deadline and any(running(p) for p in spinning):
        time.sleep(0.05)
    assert [p for p in spinning if running(p)] == []


def _pids(mark: Path) -> list[int]:
    return [int(line) for line in mark.read_text().split()] if mark.exists() else []


def test_the_groups_of_a_referee_that_ended_are_emptied_and_removed(monkeypatch):
    """A referee killed outright leaves its pids cgroups, and in them what its games ran; the
    next player server started removes them (where the machine gives pids cgroups)."""
    from logic_agents.referee import cgroups
    from logic_agents.referee.process_tree import running

    made = subprocess.run([sys.executable, "-c", """
import subprocess
from logic_agents.referee.cgroups import ProcessGroup
group = ProcessGroup(4)
left = subprocess.Popen(["sleep", "600"], preexec_fn=group.join, start_new_session=True,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(group.path, left.pid)
"""], capture_output=True, text=True, check=True, cwd=ROOT)
    path, pid = made.stdout.split()
    if path == "None":  # no pids cgroup here: there is nothing to leave, nothing to sweep
        cgroups.ProcessGroup.remove_stale(running)
        return
    try:
        assert running(int(pid)) and Path(path).is_dir()
        monkeypatch.setattr(owner(), "stale_swept", False)  # this process's sweep, again
        cgroups.ProcessGroup.remove_stale(running)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and running(int(pid)):
            time.sleep(0.05)
        assert not running(int(pid)) and not Path(path).exists()
    finally:
        with contextlib.suppress(OSError):
            os.kill(int(pid), signal.SIGKILL)
