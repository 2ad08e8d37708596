"""Lights Out for logic-agents: the second example plug-in, written from docs/write-a-game.md
and the base classes alone. Pressing a light toggles it and its four neighbours; put every
light out. A different kind of game from Akari: one verb (`press R C`), and rules that are
parities (a sympy Xor per cell) rather than counts.
"""

from __future__ import annotations

from lights_game.agents import AGENTS
from lights_game.board import LightsPuzzle, format_puzzle, load, parse
from lights_game.view import VIEW
from lights_game.world import LightsAction, LightsObservation, LightsWorld, render
from logic_agents.world import spec
from logic_agents.world.resolve import shipped_maps, sniffer


def illegal_actions(obs: LightsObservation) -> list[LightsAction]:
    return [LightsAction("press", (-1, 0)), LightsAction("press", (0, obs.puzzle.width)),
            LightsAction("toggle", (0, 0))]


sniff = sniffer(parse, "lights-out")  # 2 for a file that says `game: lights-out`, 1 if it parses


# how an observation crosses to an agent that plays in a player process: the public puzzle as
# its own text (sent once per game) and the lights as they are now
_PUZZLE = spec.InstanceText(format_puzzle, parse)
OBSERVATIONS = spec.Observations(
    lambda obs: {"puzzle": _PUZZLE.encode(obs.puzzle), "lights": list(obs.lights),
                 "step": obs.step},
    lambda record: LightsObservation(_PUZZLE.decode(record["puzzle"]),
                                     tuple(str(row) for row in record["lights"]),
                                     int(record["step"])))

SPEC = spec.GameSpec(
    name="lights-out",
    description="Lights Out: press lights (each toggles its neighbours too) until all are out",
    make_world=LightsWorld, agents=spec.agents_from(AGENTS), render=render,
    instances=spec.Instances(read=lambda path: [load(path)], parse=parse, format=format_puzzle,
                             sample=lambda: parse("# name: tiny\n*.\n**\n"),
                             facts=lambda p: {"size": f"{p.width}x{p.height}",
                                              "on": sum(row.count("*") for row in p.rows)}),
    actions=spec.Actions(from_json=LightsAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="lights-5x5-a",
    capabilities=(VIEW, spec.Shipped(shipped_maps("lights_game", "puzzles")),
                  spec.Detection(sniff), OBSERVATIONS,
                  spec.CnfLegend(("variables P_<row>_<col> (0-based): the light is pressed",))),
)

__all__ = ["SPEC", "LightsPuzzle", "LightsWorld", "LightsAction", "load", "parse"]
