"""Ooze: the timed pipe-laying game (RULES.md §4), registered with the shared world.

Concepts: `ooze` is the built-in instance (no map file); `--pieces SEQ` fixes the first pieces
(a world option, so traces replay). Agents: greedy, rbfs (the course report's), sat (the
planner on one incremental SAT oracle).
"""

from __future__ import annotations

from logic_agents.games.ooze.agents import GreedyOozeAgent
from logic_agents.games.ooze.planner import SatOozeAgent
from logic_agents.games.ooze.rbfs import RbfsOozeAgent
from logic_agents.games.ooze.world import (
    OozeAction,
    OozeInstance,
    OozeObservation,
    OozeWorld,
    load_instance,
    parse_pieces,
    render,
)
from logic_agents.world.registry import GameSpec, register

AGENTS = {"greedy": GreedyOozeAgent, "rbfs": RbfsOozeAgent, "sat": SatOozeAgent}


def make_world(instance: OozeInstance, *, pieces: str | None = None,
               max_ticks: int | None = None) -> OozeWorld:
    return OozeWorld(pieces=parse_pieces(pieces) if pieces is not None else instance.pieces,
                     max_ticks=max_ticks if max_ticks is not None else instance.max_ticks)


def illegal_actions(obs: OozeObservation):
    # the rules turn every well-formed but refused action into a wait; only what is not an
    # OozeAction at all is illegal
    yield "place 3 2"
    yield ("place", (3, 2))


SPEC = register(GameSpec(
    name="ooze",
    description="Ooze: lay pipe from a queue of pieces ahead of the flowing ooze",
    load=load_instance,
    make_world=make_world,
    agents=dict(AGENTS),
    render=render,
    action_from_json=OozeAction.from_json,
    illegal_actions=illegal_actions,
    maps_dir="ooze",  # nothing shipped: `ooze` is the built-in instance
    default_agent="sat",
    agent_help={"greedy": "place the current piece at the pipe's open end if it fits, "
                          "else park it far away; never destroy",
                "rbfs": "the course report's agent: a utility over main and sub-pipes, best "
                        "and second-best placements 5 pieces deep, destroys a blocking piece",
                "sat": "the planner: routes of --horizon tiles (default 24) and placements of "
                       "the visible queue on one incremental SAT oracle; maximises the "
                       "guaranteed extension, then the pieces on the route"},
    example=lambda: OozeInstance(max_ticks=200),
    result_keys=("score", "ticks", "tiles", "pieces", "actions"),
    world_options=("pieces", "max_ticks"),
))

__all__ = ["AGENTS", "GreedyOozeAgent", "RbfsOozeAgent", "SatOozeAgent", "OozeAction",
           "OozeInstance", "OozeWorld", "SPEC"]
