"""The Clock's alarm is set once and left pending across an agent's calls (issue 42: two
system calls a call cost 6% of a small game); it must still stop each call at that call's own
deadline, never before it, and nothing of it may ring after a game."""

from __future__ import annotations

import signal
import time

import pytest

from logic_agents.errors import AgentFailed
from logic_agents.games.daggers.agents import SinglePointAgent
from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.games.daggers.world import DaggersWorld
from logic_agents.referee.clock import Caps, Clock
from logic_agents.world.runner import run_episode

# Windows has no interval timers: there the Clock sets no alarm (the supervisor alone stops a
# call), so there is nothing here to test
pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers")


def _spin(seconds: float) -> None:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        pass


def test_a_call_after_a_quick_one_runs_to_its_own_deadline_and_no_further():
    clock = Clock(Caps(move_timeout=0.4, game_timeout=None, memory_cap=None))
    clock.start_game()
    assert clock.call("act", lambda: 7) == 7  # leaves the alarm pending for its deadline
    time.sleep(0.25)  # the first call's deadline is now 0.15 s away
    started = time.monotonic()
    with pytest.raises(AgentFailed) as failed:
        clock.call("act", _spin, 10.0, step=2)
    # rung at the first call's deadline, the alarm waited for this call's own
    assert time.monotonic() - started >= 0.4 - 0.01
    assert failed.value.timeout and failed.value.step == 2
    clock.rest()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_nothing_of_ours_rings_after_a_game_and_a_handler_before_ours_still_rings():
    rang = []
    previous = signal.signal(signal.SIGALRM, lambda *_: rang.append(1))
    try:
        board = generate_maps(PRESETS["beginner"], 1, 3, (2, 2), True)[0]
        clock = Clock(Caps(move_timeout=30.0, game_timeout=60.0, memory_cap=None))
        run_episode(DaggersWorld(board), SinglePointAgent(), seed=1, clock=clock)
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # the user's own alarm, after the game
        time.sleep(0.3)
        assert rang == [1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_watch_says_what_runs_and_is_cleared_after_each_call():
    """What a supervisor reads: the deadline, the step and the call while the agent's call
    runs; no deadline and no call once it returns (the step stays)."""
    import multiprocessing

    from logic_agents.referee.clock import Watch

    watch = Watch(multiprocessing.get_context("fork"))
    clock = Clock(Caps(move_timeout=30.0), watch)
    clock.start_game()
    seen = []
    clock.call("act", lambda: seen.append((watch.deadline, watch.step, watch.where)), step=4)
    deadline, step, where = seen[0]
    assert deadline > time.monotonic() and step == 4 and where == "act"
    assert (watch.deadline, watch.step, watch.where) == (0.0, 4, "")
    clock.rest()
    copy = Watch.__new__(Watch)
    copy.__setstate__(watch.__getstate__())  # as a spawned worker gets it
    copy.set(5.0, 9, "why")
    assert (watch.deadline, watch.step, watch.where) == (5.0, 9, "why")  # the same memory
