"""No process-wide switches (issue 40, part 6): what one command, one study or one notebook
cell sets (the lifted size limits, a generator's time cap, Sudoku's warm solvers) holds in
its own context and ends with it, so two studies in one kernel never influence each other."""

from __future__ import annotations

import contextvars
import threading

import pytest

from logic_agents.errors import FormatError
from logic_agents.games.sudoku import solve_puzzle
from logic_agents.games.sudoku.warm import current_pool, warm_solvers
from logic_agents.ground.inputs import lifted_limits, limits_lifted, within_limit
from logic_agents.world.generated import _ITEM_CAP, item_time_cap


def test_lifted_limits_hold_inside_the_block_only():
    with pytest.raises(FormatError):
        within_limit(11, 10, "a size")
    with lifted_limits():
        within_limit(11, 10, "a size")
        assert limits_lifted()
        with lifted_limits(False):  # nested: the inner setting wins, then the outer is back
            assert not limits_lifted()
        assert limits_lifted()
    assert not limits_lifted()


def test_lifted_limits_are_not_seen_by_another_thread_or_context():
    seen = {}

    def other() -> None:
        seen["thread"] = limits_lifted()

    with lifted_limits():
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        seen["fresh context"] = contextvars.Context().run(limits_lifted)
    assert seen == {"thread": False, "fresh context": False}


def test_a_failing_block_leaves_the_limits_as_they_were():
    with pytest.raises(RuntimeError), lifted_limits():
        raise RuntimeError("a study that fails half-way")
    assert not limits_lifted()


def test_the_item_time_cap_is_scoped():
    assert _ITEM_CAP.get() is None
    with item_time_cap(3.0):
        assert _ITEM_CAP.get() == 3.0
        with item_time_cap(None):
            assert _ITEM_CAP.get() is None
        assert _ITEM_CAP.get() == 3.0
    assert _ITEM_CAP.get() is None


def _sudoku():
    from logic_agents.games.sudoku.board import SudokuPuzzle

    return SudokuPuzzle(4, (1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2))


def test_warm_solvers_belong_to_their_run_and_are_closed_with_it():
    puzzle = _sudoku()
    outside = solve_puzzle(puzzle)
    with warm_solvers() as pool:
        inside = solve_puzzle(puzzle)
        assert current_pool() is pool and pool._solvers  # the run's own pool was used
    assert not pool._solvers  # closed with its run
    assert current_pool() is not pool
    # a pool changes speed, never an answer: the answers are canonical
    assert inside.solution == outside.solution and inside.status == outside.status


def test_two_contexts_keep_two_pools():
    pools = [contextvars.Context().run(current_pool) for _ in range(2)]
    assert pools[0] is not pools[1]
