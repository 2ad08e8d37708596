"""Failures named for their true cause (issue 39, item 7): a worker that died while a process
it started holds its pipe is a death, not a game "stuck in C"; a SIGKILL is from outside, not
the memory cap; a world that hangs is past the game's cap, not the agent's move cap."""

from __future__ import annotations

import os
import signal
import time

from logic_agents.games.daggers.agents import SinglePointAgent
from logic_agents.referee.clock import Caps, Watch, lost_failure
from logic_agents.study import batch
from logic_agents.study.entries import entries_from_references
from logic_agents.world.registry import get_game


class DiesHoldingItsPipe(SinglePointAgent):
    """Starts a process that keeps the worker's pipe open, then ends the worker."""

    name = "dies-holding"

    def act(self, observation):
        if os.fork() == 0:
            time.sleep(8)
            os._exit(0)
        os._exit(3)


def test_a_worker_that_dies_while_its_child_holds_the_pipe_is_said_to_have_died():
    entries = entries_from_references(["EASY1"], get_game("daggers"))
    started = time.monotonic()
    rows = batch.compare([DiesHoldingItsPipe], entries, runs=1, jobs=1, game="daggers",
                         caps=Caps(5.0, 30.0, None))
    assert len(rows) == 1 and rows[0].outcome == "error"
    assert "exit code 3" in rows[0].error and "stuck in C" not in rows[0].error
    assert time.monotonic() - started < 5  # not after the move cap


def test_the_words_of_a_process_ended_by_a_signal():
    from multiprocessing import get_context

    watch = Watch(get_context("fork"))
    killed = lost_failure("a", watch, Caps(), -signal.SIGKILL, killed=False).message
    assert "killed from outside" in killed and "memory cap?" not in killed
    watch.set(1.0, 4, "world")
    hung = lost_failure("a", watch, Caps(120.0, 600.0, None), None, killed=True).message
    assert hung.startswith("the world ran past the game's 600 s cap")


def test_a_board_too_large_to_make_is_refused_at_once(tmp_path, capsys):
    from logic_agents.cli import main

    started = time.monotonic()
    code = main(["generate", "undead", "--size", "50x50", "--count", "1", "-o",
                 str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "boards over 1,300 take minutes and gigabytes" in err
    assert "--no-limits tries anyway" in err and time.monotonic() - started < 10
