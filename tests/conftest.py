"""Shared fixtures: the shipped maps."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPS = sorted((ROOT / "maps" / "daggers" / "2018").glob("*.txt"))


@pytest.fixture(scope="session")
def official_maps():
    from logic_agents.games.daggers import load

    return {p.stem: load(p) for p in MAPS}
