"""Daggers and Gold: board, world, encode, agents, render; registered as game "daggers".

Agents: the 2018 report's rpx, spx and satx (agents.py), and prob (prob.py), which plays
satx's certainties and guesses by exact dagger probability (probability.py).
"""

from logic_agents.games.daggers import agents as _report_agents
from logic_agents.games.daggers.agents import SatAgent, single_point_moves
from logic_agents.games.daggers.board import DaggersMap, format_map, load, parse
from logic_agents.games.daggers.prob import ProbAgent
from logic_agents.games.daggers.render import render, render_markup
from logic_agents.games.daggers.world import (
    DaggersAction,
    DaggersObservation,
    DaggersWorld,
    flag,
    probe,
)
from logic_agents.world.registry import GameSpec, register

AGENTS = {**_report_agents.AGENTS, "prob": ProbAgent}
AGENT_HELP = {**_report_agents.AGENT_HELP,
              "prob": "satx's certainties, then the guess with the lowest exact dagger "
                      "probability (--explain prints the candidates)"}


def illegal_actions(obs: DaggersObservation) -> list[DaggersAction]:
    """Actions the rules forbid in `obs` (for check_world)."""
    out = [probe(-1, 0), probe(0, obs.width), flag(obs.height, 0)]
    shown = [c for c in obs.cells() if obs.clue(c) is not None]
    if shown:
        out += [probe(*shown[0]), flag(*shown[0]), DaggersAction("unflag", shown[0])]
    return out


SPEC = register(
    GameSpec(
        name="daggers",
        description="Daggers and Gold (2018 AI course): Minesweeper with gold and lives",
        load=load,
        make_world=DaggersWorld,
        agents=AGENTS,
        render=render,
        render_markup=render_markup,
        action_from_json=DaggersAction.from_json,
        illegal_actions=illegal_actions,
        maps_dir="daggers",
        has_lives=True,
        format_instance=format_map,
        parse_instance=parse,
        default_agent="satx",
        agent_help=AGENT_HELP,
        example=lambda: parse("name: example\n0 1 d .\n1 2 . .\nd . . .\n. . . d\n"),
    )
)

__all__ = [
    "AGENTS",
    "DaggersAction",
    "DaggersMap",
    "DaggersObservation",
    "DaggersWorld",
    "ProbAgent",
    "SatAgent",
    "flag",
    "format_map",
    "load",
    "parse",
    "probe",
    "render",
    "single_point_moves",
]
