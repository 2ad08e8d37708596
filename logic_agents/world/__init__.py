"""The shared simulator. It knows no game's rules: protocols, the step loop, traces, registry,
the game contract (GameSpec and its capabilities, check_game) and the base classes.

The contract's names are imported on first use (PEP 562), so that `import logic_agents.world`
stays light; `dir()` lists them all, for tab completion.
"""

from __future__ import annotations

import importlib
from typing import Any

from logic_agents.world.core import (  # noqa: F401 - re-exported (__all__)
    Agent,
    EpisodeResult,
    Outcome,
    StepResult,
    Why,
    World,
)
from logic_agents.world.runner import run_episode  # noqa: F401 - re-exported

_HOMES = {
    **dict.fromkeys(("GameSpec", "Instances", "Actions", "Puzzle", "Generator", "GenerateRequest",
                     "GenerateReport", "Lives", "Shipped", "Detection", "Inline", "Results",
                     "CnfLegend", "AgentEntry", "Option", "agents_from"), "spec"),
    **dict.fromkeys(("WorldBase", "PuzzleWorld", "CellAction", "PlaceAction", "GridShape",
                     "PlanningAgent"), "base"),
    **dict.fromkeys(("View", "BoardView", "Tile", "Controls"), "view"),
    **dict.fromkeys(("register", "get_game", "games"), "registry"),
    **dict.fromkeys(("shipped_maps", "sniffer"), "resolve"),
    "check_game": "contract", "check_world": "check",
}

__all__ = sorted({"Agent", "EpisodeResult", "Outcome", "StepResult", "Why", "World",
                  "run_episode", *_HOMES})


# names that moved out of the world (issue 40: the world imports no logic)
_MOVED = dict.fromkeys(("SolveResult", "SolverCache", "SolverChoice"), "logic_agents.solving")


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        raise ImportError(f"logic_agents.world.{name} moved: import it from {_MOVED[name]}")
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"logic_agents.world.{_HOMES[name]}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
