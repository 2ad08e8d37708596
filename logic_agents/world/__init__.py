"""The shared simulator.

It knows no game's rules: protocols, the step loop, traces, registry, the game contract
(GameSpec and its capabilities, check_game) and the base classes.

The contract's names are imported on first use (PEP 562), so that `import logic_agents.world`
stays light; `dir()` lists them all, for tab completion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from logic_agents.ground.lazy import LazyNames
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
                     "CnfLegend", "AgentEntry", "agents_from", "Observations", "InstanceText"),
                   "spec"),
    **dict.fromkeys(("Instance", "Answer", "Solve"), "values"),
    "Option": "declared",
    **dict.fromkeys(("WorldBase", "PuzzleWorld", "CellAction", "PlaceAction", "GridShape",
                     "PlanningAgent"), "base"),
    **dict.fromkeys(("View", "BoardView", "Tile", "Controls"), "view"),
    **dict.fromkeys(("register", "get_game", "games"), "registry"),
    **dict.fromkeys(("shipped_maps", "sniffer"), "resolve"),
    "check_game": "contract", "check_world": "check",
}

__all__ = [
    "Actions",
    "Agent",
    "AgentEntry",
    "Answer",
    "BoardView",
    "CellAction",
    "CnfLegend",
    "Controls",
    "Detection",
    "EpisodeResult",
    "GameSpec",
    "GenerateReport",
    "GenerateRequest",
    "Generator",
    "GridShape",
    "Inline",
    "Instance",
    "InstanceText",
    "Instances",
    "Lives",
    "Observations",
    "Option",
    "Outcome",
    "PlaceAction",
    "PlanningAgent",
    "Puzzle",
    "PuzzleWorld",
    "Results",
    "Shipped",
    "Solve",
    "StepResult",
    "Tile",
    "View",
    "Why",
    "World",
    "WorldBase",
    "agents_from",
    "check_game",
    "check_world",
    "games",
    "get_game",
    "register",
    "run_episode",
    "shipped_maps",
    "sniffer",
]

if TYPE_CHECKING:  # what a type checker and an editor see; at run time __getattr__ imports
    from logic_agents.world.base import (
        CellAction,
        GridShape,
        PlaceAction,
        PlanningAgent,
        PuzzleWorld,
        WorldBase,
    )
    from logic_agents.world.check import check_world
    from logic_agents.world.contract import check_game
    from logic_agents.world.declared import Option
    from logic_agents.world.registry import games, get_game, register
    from logic_agents.world.resolve import shipped_maps, sniffer
    from logic_agents.world.spec import (
        Actions,
        AgentEntry,
        CnfLegend,
        Detection,
        GameSpec,
        GenerateReport,
        GenerateRequest,
        Generator,
        Inline,
        Instances,
        InstanceText,
        Lives,
        Observations,
        Puzzle,
        Results,
        Shipped,
        agents_from,
    )
    from logic_agents.world.values import Answer, Instance, Solve
    from logic_agents.world.view import BoardView, Controls, Tile, View


# the names that moved out of the world say where (issue 40: the world imports no logic)
_LAZY = LazyNames(__name__, {name: f"logic_agents.world.{home}" for name, home in _HOMES.items()},
                  moved=dict.fromkeys(("SolveResult", "SolverCache", "SolverChoice"),
                                      "logic_agents.solving"))
__getattr__ = _LAZY.attribute


def __dir__() -> list[str]:
    return _LAZY.listed(globals())
