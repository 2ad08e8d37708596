"""Shared fixtures (the shipped maps) and the suite's settings.

Hypothesis runs with no deadline: on a busy 2-core machine any example can take longer than
Hypothesis's 200 ms default, and speed is measured by scripts/bench_*.py, never by tests.
Tests marked `slow` run in `make test`; `make test-fast` leaves them out.
"""

from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
MAPS = sorted((ROOT / "maps" / "daggers" / "2018").glob("*.txt"))

settings.register_profile("logic-agents", deadline=None)
settings.load_profile("logic-agents")


@pytest.fixture(scope="session")
def official_maps():
    from logic_agents.games.daggers import load

    return {p.stem: load(p) for p in MAPS}
