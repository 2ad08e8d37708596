"""race: the first accepted answer wins, the others are stopped, nothing outlives the call."""

import os
import time

import pytest

from logic_agents.errors import SolverError
from logic_agents.logic import portfolio
from logic_agents.logic.portfolio import race


@pytest.fixture(autouse=True)
def two_cores(monkeypatch):
    """Race as on two cores whatever this machine has (forked children run anywhere)."""
    monkeypatch.setattr(portfolio, "cores", lambda: 2)


def slow(pid_file, seconds=60.0, answer="slow"):
    def task():
        with open(pid_file, "w") as f:
            f.write(str(os.getpid()))
        time.sleep(seconds)
        return answer
    return task


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0): read its state
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def wait_for(path, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.01)
    raise AssertionError(f"{path} never written")


def test_the_first_answer_wins_and_the_loser_is_stopped(tmp_path):
    pid_file = tmp_path / "slow.pid"
    started = time.monotonic()
    index, answer = race([slow(pid_file), lambda: (time.sleep(0.3), "quick")[1]])
    assert (index, answer) == (1, "quick")
    assert time.monotonic() - started < 30
    assert not alive(wait_for(pid_file))  # killed and reaped, not orphaned


def test_a_loser_dies_by_sigterm_even_under_the_parents_handler(tmp_path):
    """The console script handles SIGTERM in Python (stop_on_signals). A child that kept that
    handler would not die of the parent's SIGTERM while its solver runs in C: the handler
    waits for the call to return, and the race then waits for the loser (up to a second)
    before killing it. Each racer takes the default action back."""
    import signal

    previous = signal.signal(signal.SIGTERM, lambda *_: None)  # as the console script's
    try:
        index, dispositions = race([
            lambda: (signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
                     signal.getsignal(signal.SIGINT) == signal.SIG_IGN),
            slow(tmp_path / "loser.pid")])
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert (index, dispositions) == (0, (True, True))


def test_an_answer_refused_waits_for_the_first_set_up(tmp_path):
    """accept=False for a later set-up's answer (one that would depend on timing): the first
    set-up's answer is the one returned, however late."""
    index, answer = race([slow(tmp_path / "a.pid", 0.5, "first"), lambda: "second"],
                         accept=lambda i, a: False)
    assert (index, answer) == (0, "first")


def test_a_set_up_that_fails_or_dies_drops_out():
    def boom():
        raise ValueError("broken set-up")

    assert race([boom, lambda: 7]) == (1, 7)
    assert race([lambda: os._exit(3), lambda: (time.sleep(0.2), 8)[1]]) == (1, 8)
    with pytest.raises(ValueError, match="broken set-up"):
        race([boom, boom])
    with pytest.raises(SolverError, match="without an answer"):
        race([lambda: os._exit(3), lambda: os._exit(4)])


def test_one_task_or_one_core_runs_the_first_set_up_here(monkeypatch):
    assert race([lambda: os.getpid()]) == (0, os.getpid())
    monkeypatch.setattr(portfolio, "cores", lambda: 1)
    assert race([lambda: os.getpid(), lambda: "never"]) == (0, os.getpid())
