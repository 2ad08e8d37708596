"""logic-agents: agents that play and solve logic games by reasoning with SAT.

Public API:
- load(path, game="daggers") -> the game's instance (a parsed map or puzzle);
- make_world(instance, game="daggers", **options) -> a World;
- make_agent(name, game="daggers", **options) -> an Agent;
- run_episode(world, agent, seed) -> EpisodeResult.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from logic_agents.errors import LogicAgentsError
from logic_agents.world.registry import get_game
from logic_agents.world.runner import run_episode

__version__ = "0.1.0"


def load(path: str | Path, game: str = "daggers") -> Any:
    return get_game(game).load(path)


def make_world(instance: Any, game: str = "daggers", **options: Any) -> Any:
    return get_game(game).make_world(instance, **options)


def make_agent(name: str, game: str = "daggers", **options: Any) -> Any:
    return get_game(game).make_agent(name, **options)


__all__ = ["LogicAgentsError", "load", "make_agent", "make_world", "run_episode", "__version__"]
