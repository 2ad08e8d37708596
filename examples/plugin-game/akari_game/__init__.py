"""Akari (Light Up) for logic-agents: a game from outside the core, plugged in.

It registers through the entry-point group `logic_agents.games` (see pyproject.toml), the
same door the built-in games use, and declares what it can do: a world, two agents (`sat`,
`dfs`), shipped puzzles, the Puzzle capability (`solve`, `cnf`), a generator, and a View
(the board as tiles and keys: the HTML page of `view` and human play).
"""

from __future__ import annotations

from typing import Any

from akari_game.agents import AGENTS
from akari_game.board import AkariPuzzle, Cell, format_puzzle, is_solution, load, parse, render
from akari_game.encode import AkariSolver, encode
from akari_game.generate import GENERATOR
from akari_game.view import VIEW
from akari_game.world import AkariAction, AkariObservation, AkariWorld, render_observation
from logic_agents.solving.puzzle import SolveResult, result_of
from logic_agents.world import spec
from logic_agents.world.resolve import shipped_maps, sniffer


def solve(puzzle: AkariPuzzle, unique: bool = True,
          solver: str | None = None) -> SolveResult[frozenset[Cell]]:
    with AkariSolver(puzzle, solver) as sat:
        return result_of(sat.solutions(2 if unique else 1), unique)


def illegal_actions(obs: AkariObservation) -> list[AkariAction]:
    out = [AkariAction("bulb", (-1, 0)), AkariAction("bulb", (0, obs.puzzle.width))]
    walls = [(r, c) for r, row in enumerate(obs.puzzle.rows) for c, ch in enumerate(row)
             if ch != "."]
    if walls:
        out.append(AkariAction("bulb", walls[0]))
    whites = obs.puzzle.whites()
    dark = [c for c in whites if c not in obs.bulbs]
    if dark:
        out.append(AkariAction("clear", dark[0]))
    if obs.bulbs:
        out.append(AkariAction("bulb", min(obs.bulbs)))
    return out


sniff = sniffer(parse, "akari")  # 2 for a file that says `game: akari`, 1 if it parses


def facts(puzzle: AkariPuzzle) -> dict[str, Any]:
    return {"size": f"{puzzle.width}x{puzzle.height}", "numbers": len(puzzle.numbered())}


LEGEND = ("variables L_r<row>c<col> (0-based): a bulb stands on the cell",
          "the rules: AtMost(1) bulb per row or column segment; AtLeast(1) bulb lighting each "
          "white cell; Exactly(k) bulbs beside each wall numbered k")

# what crosses to an agent playing in a player process (referee.remote): the public puzzle,
# as its own text (once per game), and the bulbs
_PUZZLE = spec.InstanceText(format_puzzle, parse)
OBSERVATIONS = spec.Observations(
    lambda obs: {"puzzle": _PUZZLE.encode(obs.puzzle), "bulbs": sorted(map(list, obs.bulbs)),
                 "step": obs.step},
    lambda record: AkariObservation(_PUZZLE.decode(record["puzzle"]),
                                    frozenset((int(r), int(c)) for r, c in record["bulbs"]),
                                    int(record["step"])))

SPEC = spec.GameSpec(
    name="akari",
    description="Akari (Light Up): light every cell with bulbs that do not see each other",
    make_world=AkariWorld, agents=spec.agents_from(AGENTS), render=render_observation,
    instances=spec.Instances(read=lambda path: [load(path)], parse=parse, format=format_puzzle,
                             sample=lambda: parse("# tiny\n.1.\n...\n#..\n"), facts=facts),
    actions=spec.Actions(from_json=AkariAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="akari-7x7-a",
    capabilities=(VIEW, GENERATOR, spec.CnfLegend(LEGEND), OBSERVATIONS,
                  spec.Shipped(shipped_maps("akari_game", "puzzles")),  # package data
                  spec.Detection(sniff),
                  spec.Puzzle(solve=solve, is_solution=is_solution, encode=encode,
                              show=lambda puzzle, bulbs: render(puzzle, bulbs),
                              to_json=lambda puzzle, bulbs: sorted([list(c) for c in bulbs]),
                              describe=lambda p: f"{p.width}x{p.height}, "
                                                 f"{len(p.numbered())} numbered walls")),
)

__all__ = ["SPEC", "AkariAction", "AkariPuzzle", "AkariWorld", "encode", "is_solution", "solve"]
