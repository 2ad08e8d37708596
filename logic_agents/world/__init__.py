"""The shared simulator. It knows no game's rules: protocols, the step loop, traces, registry."""

from logic_agents.world.core import Agent, EpisodeResult, Outcome, StepResult, World
from logic_agents.world.runner import run_episode

__all__ = ["Agent", "EpisodeResult", "Outcome", "StepResult", "World", "run_episode"]
