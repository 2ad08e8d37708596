"""Issue 42: a worker whose games are quick is sent BATCH jobs in one message. A batch must
keep every guarantee of one job a message: each row comes back as it is made, and a worker
that dies mid-batch costs the game it was playing (a row) and nothing else (the games it had
not begun are played by another worker, each once)."""

from __future__ import annotations

import gc
import os
import threading
import weakref

import pytest

from logic_agents.errors import AgentFailed
from logic_agents.referee import pool as processes
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.pool import BATCH, Pool


def _play(job: int, clock: Clock) -> tuple[str, int, int]:
    if job == 37:
        os._exit(3)  # its own doing: a row, not played again
    return "ok", job, os.getpid()


def _lost(job: int, failure: AgentFailed) -> tuple[str, int, int]:
    return "lost", job, 0


@pytest.mark.parametrize("workers", [1, 2])
def test_a_worker_lost_mid_batch_costs_only_its_game(workers, monkeypatch):
    sent: list[list[int]] = []
    send = Pool._send
    monkeypatch.setattr(Pool, "_send", lambda self, i, jobs: (sent.append(list(jobs)),
                                                             send(self, i, jobs))[1])
    rows: list[tuple[str, int, int]] = []
    Pool(workers, Caps(None, None, None), _play, _lost).run(iter(range(200)), rows.append,
                                                            threading.Event())
    assert sorted(job for _, job, _ in rows) == list(range(200))  # each game once
    assert [r for r in rows if r[0] == "lost"] == [("lost", 37, 0)]
    assert max(len(jobs) for jobs in sent) == BATCH  # quick games went in batches
    assert len(sent) < 200 // 4
    if workers == 1:  # one worker plays in the study's order, the lost batch's rest next
        assert [job for _, job, _ in rows] == list(range(200))
        assert len({pid for _, job, pid in rows if job < 37}) == 1
        assert {pid for _, job, pid in rows if job < 37}.isdisjoint(
            {pid for _, job, pid in rows if job > 37})


def test_slow_games_go_one_at_a_time(monkeypatch):
    monkeypatch.setattr(processes, "QUICK_S", 0.0)  # no game is quick
    sent: list[int] = []
    send = Pool._send
    monkeypatch.setattr(Pool, "_send", lambda self, i, jobs: (sent.append(len(jobs)),
                                                             send(self, i, jobs))[1])
    rows: list[tuple[str, int, int]] = []
    Pool(2, Caps(None, None, None), _play, _lost).run(iter(range(20)), rows.append,
                                                      threading.Event())
    assert sorted(job for _, job, _ in rows) == list(range(20)) and set(sent) == {1}


class _Cycle:
    me: object = None


def _collector(job: int, clock: Clock) -> tuple[int, bool]:
    """What a worker's garbage collector sees: the objects it inherited frozen out of it, and
    its own cycles still collected."""
    cycle = _Cycle()
    cycle.me = cycle
    alive = weakref.ref(cycle)
    del cycle
    gc.collect()
    return gc.get_freeze_count(), alive() is None


def test_a_worker_leaves_what_it_inherited_out_of_its_garbage_collection():
    """A collection writes into each object it scans, so a worker that scanned the referee's
    objects copied the pages it shared with it; it still collects its own garbage."""
    rows: list[tuple[int, bool]] = []
    Pool(1, Caps(None, None, None), _collector, _lost).run(iter(range(3)), rows.append,
                                                           threading.Event())
    assert len(rows) == 3
    assert all(frozen > 1000 and collected for frozen, collected in rows), rows
    assert gc.get_freeze_count() == 0  # the referee's own collector is left as it was
