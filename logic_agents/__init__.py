"""logic-agents: agents that play and solve logic games by reasoning with SAT.

Public API:
- load(ref, game=None) -> the game's instance (a parsed map or puzzle): a file, FILE:K, a
  shipped map's name or an inline puzzle, resolved as the command line does (the game is
  detected when not given);
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


def load(ref: str | Path, game: str | None = None) -> Any:
    from logic_agents.world.resolve import detect_game, resolve

    spec = get_game(game or detect_game([str(ref)]))
    return resolve(str(ref), spec)[1][0]


def make_world(instance: Any, game: str = "daggers", **options: Any) -> Any:
    return get_game(game).make_world(instance, **options)


def make_agent(name: str, game: str = "daggers", **options: Any) -> Any:
    return get_game(game).make_agent(name, **options)


__all__ = ["LogicAgentsError", "load", "make_agent", "make_world", "run_episode", "__version__"]
