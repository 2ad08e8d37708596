"""Shared fixtures (the shipped maps) and the suite's settings.

Hypothesis runs with no deadline: on a busy 2-core machine any example can take longer than
Hypothesis's 200 ms default, and speed is measured by benchmarks/bench_*.py, never by tests.
Under CI=1 (.ci/run sets it) Hypothesis is derandomised: the same examples in every CI run.
Tests marked `slow` run in `make test`; `make test-fast` leaves them out.
"""

import atexit
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
MAPS = sorted((ROOT / "maps" / "daggers" / "2018").glob("*.txt"))
# the distributions of the project's own games: its built-in ones and its two example
# plug-ins. A plug-in a user installed beside them may break the contract or import what it
# likes (`games --check` tells them); the project's tests are about the project's games.
PROJECT_DISTRIBUTIONS = ("logic-agents", "logic-agents-akari", "logic-agents-lights-out")


def project_games() -> list[str]:
    """The names of the project's own installed games (see PROJECT_DISTRIBUTIONS)."""
    from logic_agents.world.registry import games, origin

    return sorted(name for name in games()
                  if origin(name) in ("builtin", *PROJECT_DISTRIBUTIONS))

# where clean plug-in trials are remembered (world.trial): a folder of this run's own, so
# the suite never writes to the user's ~/.cache and starts with nothing remembered
os.environ["LOGIC_AGENTS_CACHE"] = tempfile.mkdtemp(prefix="logic-agents-cache-")
# ...and removed when the process that made it ends (each run used to leave one in /tmp)
atexit.register(shutil.rmtree, os.environ["LOGIC_AGENTS_CACHE"], ignore_errors=True)

settings.register_profile("logic-agents", deadline=None)
# CI (.ci/run sets CI=1) runs the same examples every time: a red CI is a finding anyone can
# reproduce, not luck; a developer's runs keep drawing new ones
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "logic-agents")


@pytest.fixture(scope="session")
def official_maps():
    from logic_agents.games.daggers import load

    return {p.stem: load(p) for p in MAPS}


def pytest_collection_modifyitems(config, items):
    """The files with the most slow tests run first, each file's tests in their own order.

    `make test` runs each file on one worker (--dist loadfile, --no-loadscope-reorder, which
    keeps this order): a heavy file that starts last stretches the run by its whole length
    while the other core waits.
    """
    slow = Counter(item.path for item in items if item.get_closest_marker("slow"))
    first_seen = {path: i for i, path in enumerate(dict.fromkeys(item.path for item in items))}
    items.sort(key=lambda item: (-slow[item.path], first_seen[item.path]))
