"""Exactly One Mazes (Erich Friedman): board, encode, world, agents, search, generate;
registered as game "mazes"."""

from __future__ import annotations

from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.games.mazes.agents import AGENTS
from logic_agents.games.mazes.board import (
    MazeBoard,
    format_board,
    is_solution,
    load_board,
    parse_board,
    render_path,
)
from logic_agents.games.mazes.encode import MazeSolver, count_solutions, encode, solve
from logic_agents.games.mazes.generate import GENERATOR
from logic_agents.games.mazes.view import VIEW
from logic_agents.games.mazes.world import MazeAction, MazeObservation, MazeWorld, legal_moves
from logic_agents.ground.shapes import Record
from logic_agents.world import spec
from logic_agents.world.resolve import declared_game, shipped_maps

AGENT_HELP = {
    "sat": "solve the encoding (lazy cycle cuts), then walk the path",
    "bfs": "the report's breadth-first search over walker states (node/time cap)",
    "dfs": "the report's depth-first search",
    "ids": "the report's iterative deepening search",
    "ucs": "the report's uniform-cost search",
    "greedy": "the report's greedy best-first search (--heuristic)",
    "astar": "the report's A* search (--heuristic)",
}
TOY = "# toy\n1 1 0 0\n0 1 2 0\n0 1 2 0\n0 0 2 2\n"


def load(path: str | Path) -> MazeBoard:
    return load_board(path)


def sniff(text: str, file: str = "<input>") -> int:
    """2 for a board that says it is a maze (`game: mazes`, or the generator's comment
    `# Exactly One Mazes ...`), 1 for one that merely parses as a maze, else 0."""
    try:
        parse_board(text, file)
    except FormatError:
        return 0
    says = any(line.strip().lstrip("#").strip().startswith("Exactly One Mazes")
               for line in text.splitlines() if line.strip().startswith("#"))
    return 2 if says or declared_game(text) == "mazes" else 1


def illegal_actions(obs: MazeObservation) -> list[MazeAction]:
    return [MazeAction(m) for m in ("up", "down", "left", "right", "undo")
            if m not in legal_moves(obs.board, obs.path)]


def render(obs: MazeObservation) -> str:
    return (f"step {obs.step}  shapes crossed {len(obs.crossed)}/{len(obs.board.shapes)}\n"
            + render_path(obs.board, obs.path, obs.walker))


LEGEND = ("variables P_r<row>c<col> (0-based): the cell is on the path; E_r<a>c<b>_r<c>c<d>: "
          "the path steps between the two cells",
          "the rules: start and finish have Exactly(1) step; E -> P; AtMost(2) steps per cell "
          "and Implies(P, AtLeast(2, steps)); Exactly(1, P of a shape) per shape; "
          "connectivity is added while solving, as cycle cuts")

_BOARD = spec.InstanceText(lambda b: format_board(b, f"Exactly One Mazes {b.name}"),
                          parse_board)


def _observation(obs: MazeObservation) -> Record:
    return {"board": _BOARD.encode(obs.board), "path": [list(c) for c in obs.path],
            "step": obs.step}


def _observation_from(record: Record) -> MazeObservation:
    return MazeObservation(_BOARD.decode(record["board"]),
                           tuple((int(r), int(c)) for r, c in record["path"]),
                           int(record["step"]))


SPEC = spec.GameSpec(
    name="mazes", description="Exactly One Mazes (Erich Friedman): one cell of every shape",
    make_world=MazeWorld, agents=spec.agents_from(AGENTS, AGENT_HELP), render=render,
    instances=spec.Instances(read=lambda path: [load(path)], parse=parse_board,
                             format=_BOARD.format,
                             sample=lambda: parse_board(TOY, "<example>"),
                             facts=lambda p: {"size": f"{p.height}x{p.width}"}),
    actions=spec.Actions(from_json=MazeAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="eom-6x6-01",
    capabilities=(VIEW, GENERATOR, spec.CnfLegend(LEGEND),
                  spec.Shipped(shipped_maps("logic_agents", "maps", "mazes")),
                  spec.Detection(lambda text, file: 0 if file is None else sniff(text, file)),
                  spec.Inline(lambda text, source: [parse_board(text, source)]),
                  spec.Puzzle(solve=lambda board, unique=True, solver=None: solve(
                      board, unique, solver), is_solution=is_solution, encode=encode,
                      show=lambda board, path: render_path(board, path),
                      to_json=lambda board, path: [list(cell) for cell in path],
                      describe=lambda b: f"{b.height}x{b.width}, {len(b.shapes)} shapes"),
                  spec.Observations(_observation, _observation_from)),
)

__all__ = [
    "AGENTS", "MazeAction", "MazeBoard", "MazeObservation", "MazeSolver",
    "MazeWorld", "count_solutions", "encode", "format_board", "is_solution", "load",
    "load_board", "parse_board", "render_path", "solve",
]
