"""The shared search budget: node, time and memory caps."""

import pytest

from logic_agents.world.budget import DEFAULT_MEMORY_CAP, MIB, Budget, BudgetExceeded


def test_the_default_memory_cap_is_at_most_two_gib():
    assert 0 < DEFAULT_MEMORY_CAP <= 2 << 30
    assert Budget().memory_cap == DEFAULT_MEMORY_CAP


def test_each_cap_names_itself():
    budget = Budget(node_cap=3).start()
    budget.tick(3)
    with pytest.raises(BudgetExceeded, match="node cap 3"):
        budget.tick()
    budget = Budget(memory_cap=4 * MIB).start()
    budget.weigh(4 * MIB)
    with pytest.raises(BudgetExceeded, match="memory cap 4 MiB"):
        budget.weigh(4 * MIB + 1)
    budget.hold(3 * MIB)
    with pytest.raises(BudgetExceeded, match="memory cap"):
        budget.hold(2 * MIB)
    assert Budget(memory_cap=None).start().weigh(1 << 60) is None  # no cap, no stop


def test_start_forgets_what_was_held():
    budget = Budget(memory_cap=MIB).start()
    budget.hold(MIB - 1)
    budget.start()
    budget.hold(MIB - 1)
    assert budget.held == MIB - 1
