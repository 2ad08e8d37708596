"""run_episode: the only step loop in logic-agents.

Concepts: the world and agent are reset with the same seed; the agent sees observations only;
each step may be written to a Trace; the result is an EpisodeResult. An agent may expose
`stats() -> dict` (guesses, queries, ...) and `close()`, called when the episode ends however
it ends; a world may expose `summary() -> dict` (lives_left, score).
"""

from __future__ import annotations

import time
from typing import Any

from logic_agents.world.core import Agent, EpisodeResult, Outcome, World


def run_episode(
    world: World,
    agent: Agent,
    seed: int | None = None,
    trace: Any = None,
    *,
    game: str = "",
    map_name: str = "",
    on_step: Any = None,
) -> EpisodeResult:
    """Play one episode; `trace` is a Trace (or None); `on_step(obs, action, reward)` observes."""
    try:
        return _play(world, agent, seed, trace, game, map_name, on_step)
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def agent_name(agent: Any) -> str:
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else type(agent).__name__


def _play(world: World, agent: Agent, seed: int | None, trace: Any, game: str, map_name: str,
          on_step: Any) -> EpisodeResult:
    start = time.perf_counter()
    observation, info = world.reset(seed=seed)
    agent.reset(seed)
    if trace is not None:
        trace.begin(game=game, map=map_name, agent=agent_name(agent), seed=seed,
                    observation=observation)
    steps = 0
    score = 0.0
    outcome = Outcome.GAVE_UP
    if info.get("terminated"):  # some boards are finished by the opening move alone
        outcome = Outcome.WON if info.get("won") else Outcome.LOST
    while not info.get("terminated"):
        action = agent.act(observation)
        if action is None:
            outcome = Outcome.GAVE_UP
            break
        observation, reward, terminated, truncated, info = world.step(action)
        steps += 1
        score += reward
        if trace is not None:
            trace.step(action, observation, reward, terminated, truncated,
                       why=getattr(agent, "why", None))
        if on_step is not None:
            on_step(observation, action, reward)
        if terminated:
            outcome = Outcome.WON if info.get("won") else Outcome.LOST
            break
        if truncated:
            outcome = Outcome.TRUNCATED
            break
    elapsed = time.perf_counter() - start
    stats = agent.stats() if hasattr(agent, "stats") else {}
    extra = world.summary() if hasattr(world, "summary") else {}
    extra.update({k: v for k, v in stats.items() if k != "guesses"})
    result = EpisodeResult(
        game=game,
        map=map_name,
        agent=agent_name(agent),
        seed=seed,
        outcome=outcome,
        won=outcome is Outcome.WON,
        steps=steps,
        guesses=int(stats.get("guesses", 0)),
        score=score,
        time_s=elapsed,
        extra=extra,
    )
    if trace is not None:
        trace.end(result)
    return result
