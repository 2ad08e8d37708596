"""Cluster mode: `compare --backend ray --address` on a real two-node Ray cluster.

The cluster (a head and one worker node) runs on 127.0.0.1 only, with token authentication;
the test checks that every socket it listens on is a loopback one, that the rows equal those of
a `--jobs 2` run of the same study, and that nothing of the cluster outlives it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from logic_agents.errors import LogicAgentsError, UsageError
from logic_agents.study import batch
from logic_agents.study.entries import MapEntry
from logic_agents.study.ray_backend import is_loopback, parse_address
from logic_agents.study.rows import read_rows
from tests.test_batch import comparable

ROOT = Path(__file__).resolve().parents[1]
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="the 'ray' extra is not installed")
needs_proc = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
STUDY = ["compare", str(ROOT / "maps/daggers/2018"), "--agents", "spx,satx", "--runs", "2",
         "--seed", "3"]


def listening_sockets() -> set[tuple[str, str]]:
    """(local address, port) of every listening TCP socket, as hex from /proc/net/tcp{,6}."""
    found = set()
    for name in ("tcp", "tcp6"):
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                address, port = fields[1].split(":")
                found.add((address, port))
    return found


def loopback_hex(address: str) -> bool:
    ipv4_loopback = address.endswith("7F")  # 127.x.x.x, stored little-endian
    if len(address) == 8:
        return ipv4_loopback
    return address == "00000000000000000000000001000000" or (
        address.startswith("0000000000000000FFFF0000") and ipv4_loopback)


def processes_mentioning(text: str) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if text.encode() in (proc / "cmdline").read_bytes():
                    pids.append(int(proc.name))
            except OSError:
                continue
    return pids


@pytest.fixture
def loopback_cluster():
    """Start a head and a worker node on 127.0.0.1; yield (address, environment for clients)."""
    token = secrets.token_hex(32)
    temp_dir = tempfile.mkdtemp(prefix="la-ray-", dir="/tmp")  # Ray's socket paths must be short
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token,
           "RAY_USAGE_STATS_ENABLED": "0", "PYTHONPATH": str(ROOT)}
    cluster_env = {**env, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    before = listening_sockets()
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests/loopback_cluster.py"), temp_dir],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=cluster_env, cwd=ROOT)
    first: list[str] = []
    reader = threading.Thread(target=lambda: first.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout=120)
    try:
        if not first or not first[0].strip():
            proc.kill()
            pytest.fail(f"the loopback cluster did not start: {proc.stderr.read()[-2000:]}")
        started = json.loads(first[0])
        assert started["nodes"] == 2
        opened = listening_sockets() - before
        assert opened, "the cluster listens on no socket?"
        assert all(loopback_hex(address) for address, _ in opened), opened
        client_env = {k: v for k, v in env.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
        yield started["address"], client_env
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        left = processes_mentioning(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
        assert not left, f"cluster processes still running: {left}"


@needs_ray
@needs_proc
@pytest.mark.slow
def test_compare_on_a_loopback_cluster_equals_a_local_run(loopback_cluster, tmp_path):
    address, env = loopback_cluster
    assert address.startswith("127.0.0.1:")
    on_cluster = tmp_path / "cluster.csv"
    on_pool = tmp_path / "pool.csv"
    run = subprocess.run([sys.executable, "-m", "logic_agents", *STUDY, "--backend", "ray",
                          "--address", address, "--out", str(on_cluster)],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    local = subprocess.run([sys.executable, "-m", "logic_agents", *STUDY, "--jobs", "2",
                            "--out", str(on_pool)],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert local.returncode == 0, local.stderr[-3000:]
    cluster_rows = read_rows(on_cluster)
    assert len(cluster_rows) == 30 * 2 * 2  # 30 official maps x 2 runs x 2 agents
    assert comparable(cluster_rows) == comparable(read_rows(on_pool))
    # issue 41: without the token, one clear line (Ray itself printed 20 over 20 s)
    tokenless = {k: v for k, v in env.items() if not k.startswith("RAY_AUTH")}
    refused = subprocess.run([sys.executable, "-m", "logic_agents", "compare", "EASY1",
                              "--agents", "spx", "--runs", "1", "--backend", "ray", "--address",
                              address], capture_output=True, text=True, env=tokenless, cwd=ROOT,
                             timeout=300)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert "wants an authentication token: set RAY_AUTH_MODE=token" in refused.stderr


def test_addresses_are_checked_before_ray_is_asked():
    assert parse_address("127.0.0.1:6379") == ("127.0.0.1", 6379)
    assert parse_address("[::1]:6379") == ("::1", 6379)
    for bad in ("foo", "host:", ":80", "host:0", "host:99999", "host:²", "ray://h:10001"):
        with pytest.raises(UsageError):
            parse_address(bad)
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("10.0.0.5") and not is_loopback("head.example")


def test_an_unreachable_head_is_one_clear_error(tmp_path):
    with pytest.raises(LogicAgentsError, match="cannot reach a Ray head at 127.0.0.1:1"):
        batch.compare(["spx"], [MapEntry(_easy1(), "2018")], runs=1, backend="ray",
                      address="127.0.0.1:1")


def _easy1():
    from logic_agents.games.daggers.board import load

    return load(ROOT / "maps/daggers/2018/EASY1.txt")


@needs_ray
@needs_proc
@pytest.mark.slow
def test_a_study_on_ray_survives_its_agents(loopback_cluster, tmp_path):
    """Issue 26: on Ray as on --jobs, a failing agent's games are rows (error, timeout)."""
    address, env = loopback_cluster
    faulty = ROOT / "tests" / "agents" / "faulty.py"
    out = tmp_path / "ray.csv"
    run = subprocess.run([sys.executable, "-m", "logic_agents", "compare", "EASY1", "--agents",
                          f"spx,{faulty}:RaisesInInit,{faulty}:Loops,{faulty}:StuckInC",
                          "--runs", "2",
                          "--move-timeout", "0.5", "--backend", "ray", "--address", address,
                          "--out", str(out)],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert run.returncode == 3, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    outcomes = {(r.agent.rsplit(":", 1)[-1], r.outcome) for r in read_rows(out)}
    assert outcomes == {("spx", "won"), ("RaisesInInit", "error"), ("Loops", "timeout"),
                        ("StuckInC", "timeout")}
    # fair play on Ray as on --jobs (issue 38): the cheats play blind, in players of their
    # own (sandboxed where bubblewrap is installed), and spx's rows are spx's alone
    from tests.agents import cheats
    from tests.test_fair_play import _entries, plain

    names = [cheats.PeeksThroughGc, cheats.PeeksThroughFrames, cheats.DeclaresItsWin,
             cheats.PatchesTheFramework, cheats.ForgesThePipe, cheats.OverridesTheScore]
    out = tmp_path / "cheats.csv"
    references = ",".join(f"{ROOT / 'tests/agents/cheats.py'}:{c.__name__}" for c in names)
    run = subprocess.run([sys.executable, "-m", "logic_agents", "compare", "EASY1", "EASY2",
                          "--agents", f"spx,{references}", "--runs", "2", "--seed", "5",
                          "--backend", "ray", "--address", address, "--out", str(out)],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert run.returncode == 3, run.stderr[-3000:]  # the pipe forger's games are errors
    rows = read_rows(out)
    alone = batch.compare(["spx"], _entries(), runs=2, seed=5, jobs=1)
    for name in ("spx", "peek-gc", "peek-frames", "declare-win", "patch-framework",
                 "override-score"):
        assert plain([r for r in rows if r.agent == name]) == plain(alone), name
        assert all(r.stats.get("found", 0) == 0 for r in rows if r.agent == name), name
    assert all(r.outcome == "error" for r in rows if r.agent == "forge-pipe")
