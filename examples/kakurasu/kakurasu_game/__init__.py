"""Kakurasu for logic-agents: the third example plug-in, written from docs/write-a-game.md.

Shade cells so that each row's shaded column numbers (counted from 1) add up to its clue,
and each column's shaded row numbers to its. It shows two things the other examples do not:
a board labelled from 1 (BoardView.labels), and sums as cardinalities over weight units.
No test of the project names it: CI installs it to show the suite passes beside a
stranger's game (tests/test_kakurasu_example.py is its own, and skips when it is absent).
"""

from __future__ import annotations

from kakurasu_game.agents import AGENTS
from kakurasu_game.board import Cell, KakurasuPuzzle, format_puzzle, is_solution, load, parse
from kakurasu_game.encode import KakurasuSolver, encode
from kakurasu_game.view import VIEW
from kakurasu_game.world import KakurasuAction, KakurasuObservation, KakurasuWorld, render
from logic_agents.solving.puzzle import SolveResult, result_of
from logic_agents.world import spec
from logic_agents.world.resolve import shipped_maps, sniffer


def solve(puzzle: KakurasuPuzzle, unique: bool = True,
          solver: str | None = None) -> SolveResult[frozenset[Cell]]:
    with KakurasuSolver(puzzle, solver) as sat:
        return result_of(sat.solutions(2 if unique else 1), unique)


def illegal_actions(obs: KakurasuObservation) -> list[KakurasuAction]:
    return [KakurasuAction("shade", (-1, 0)), KakurasuAction("shade", (0, obs.puzzle.width)),
            KakurasuAction("press", (0, 0))]


def show(puzzle: KakurasuPuzzle, shaded: frozenset[Cell]) -> str:
    return render(KakurasuObservation(puzzle, shaded, 0)).split("\n", 1)[1]


def facts(puzzle: KakurasuPuzzle) -> dict[str, object]:
    return {"size": f"{puzzle.width}x{puzzle.height}"}


sniff = sniffer(parse, "kakurasu")  # 2 for a file that says `game: kakurasu`, 1 if it parses

_PUZZLE = spec.InstanceText(format_puzzle, parse)
OBSERVATIONS = spec.Observations(
    lambda obs: {"puzzle": _PUZZLE.encode(obs.puzzle), "shaded": sorted(map(list, obs.shaded)),
                 "step": obs.step},
    lambda record: KakurasuObservation(_PUZZLE.decode(record["puzzle"]),
                                       frozenset((int(r), int(c)) for r, c in record["shaded"]),
                                       int(record["step"])))

LEGEND = ("variables B_r<row>c<col> (0-based): the cell is shaded",
          "U_r<row>c<col>_k<k> and V_r<row>c<col>_k<k>: the k-th unit of the cell's weight in "
          "its row (U) and its column (V), each equivalent to B; Exactly(clue) units per line")

SPEC = spec.GameSpec(
    name="kakurasu",
    description="Kakurasu: shade cells so each row's and column's weights sum to its clue",
    make_world=KakurasuWorld, agents=spec.agents_from(AGENTS), render=render,
    instances=spec.Instances(read=lambda path: [load(path)], parse=parse, format=format_puzzle,
                             sample=lambda: parse("# name: tiny\nrows: 1 2\ncols: 1 2\n"),
                             facts=facts),
    actions=spec.Actions(from_json=KakurasuAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="kakurasu-5x5-a",
    capabilities=(VIEW, spec.CnfLegend(LEGEND), OBSERVATIONS, spec.Detection(sniff),
                  spec.Shipped(shipped_maps("kakurasu_game", "puzzles")),
                  spec.Puzzle(solve=solve, is_solution=is_solution, encode=encode, show=show,
                              to_json=lambda puzzle, shaded: sorted(map(list, shaded)),
                              describe=lambda p: f"{p.width}x{p.height}")),
)

__all__ = ["SPEC", "KakurasuAction", "KakurasuPuzzle", "KakurasuWorld", "encode", "is_solution",
           "solve"]
