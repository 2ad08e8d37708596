"""Undead (Simon Tatham's Portable Puzzle Collection): board, encode, world, agents, search,
generate; registered as game "undead"."""

from __future__ import annotations

from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.games.undead.agents import AGENTS
from logic_agents.games.undead.board import (
    UndeadPuzzle,
    format_game_id,
    format_picture,
    is_solution,
    looks_like_game_id,
    parse_game_id,
)
from logic_agents.games.undead.encode import UndeadSolver, count_solutions, decode, encode, solve
from logic_agents.games.undead.files import load_entries, load_puzzles, parse_puzzles
from logic_agents.games.undead.generate import GENERATOR
from logic_agents.games.undead.sight import trace_sights
from logic_agents.games.undead.view import VIEW
from logic_agents.games.undead.world import UndeadAction, UndeadObservation, UndeadWorld, place
from logic_agents.ground.inputs import path_exists
from logic_agents.ground.shapes import Record
from logic_agents.solving.puzzle import SolveResult
from logic_agents.world import spec
from logic_agents.world.resolve import load_indexed, parses, shipped_maps

AGENT_HELP = {
    "sat": "solve the whole encoding once, then write the answer",
    "logic": "place only entailed monsters, one per step; give up when none is entailed",
    "brute-force": "the report's random fill until every constraint holds (node/time cap)",
    "dfs-square": "the report's depth-first search square by square with a constraint check",
    "dfs-path": "the report's depth-first search line of sight by line of sight",
    "dfs-path-tight": "dfs-path with each line once, its options valid from both ends",
}
WORKED_EXAMPLE = "4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3"


def load(path: str | Path) -> UndeadPuzzle:
    """One puzzle: a game ID, FILE (its first puzzle) or FILE:K (its K-th, from 1)."""
    text = str(path)
    if looks_like_game_id(text) and not path_exists(text):
        return parse_game_id(text.strip(), "<game id>")
    return load_indexed(path, load_puzzles)


_PARSES = parses(parse_puzzles)  # 1 if the text parses as Undead puzzles


def sniff(text: str, file: str = "<input>") -> int:
    """File detection: 2 for a file whose first puzzle line is an Undead game ID (WxH:...,
    its first column), even if a later line is broken (that error, from the reader, is the
    one to show); 1 for a file of pictures that parses; else 0. The sure claim reads one
    line: detection then ends before any plug-in loads and before the file is parsed whole
    more than once (by the reader)."""
    first = next((line for line in text.splitlines()
                  if line.strip() and not line.lstrip().startswith("#")), "")
    if looks_like_game_id(first):
        try:
            parse_game_id(first.split("\t")[0].strip(), file)
        except FormatError:
            return 0
        return 2
    return 1 if _PARSES(text, file) else 0


def sniff_text(text: str) -> int:
    """2 for a game ID written on the command line (it says WxH:), else 0."""
    return 2 if looks_like_game_id(text) else 0


def illegal_actions(obs: UndeadObservation) -> list[UndeadAction]:
    p = obs.puzzle
    out = [place(-1, 0, "G"), place(0, p.width, "G"), place(p.height, 0, "Z")]
    mirrors = [i for i, ch in enumerate(p.grid) if ch in "LR"]
    if mirrors:
        out.append(place(*p.cell(mirrors[0]), "V"))
    if p.givens:
        out.append(place(*p.cell(next(iter(p.givens))), "Z"))
    empty = [i for i in p.monster_cells if i not in p.givens]
    if empty:
        out.append(UndeadAction(p.cell(empty[0]), "X"))
    return out


def render(obs: UndeadObservation) -> str:
    return f"step {obs.step}\n" + format_picture(obs.puzzle, obs.cells)


def solve_puzzle(puzzle: UndeadPuzzle, unique: bool = True, solver: str | None = None) -> SolveResult[str]:
    return solve(puzzle, unique, solver)


LEGEND = ("variables G_r<row>c<col>, V_..., Z_... (0-based): the cell holds a ghost, vampire or "
          "zombie",
          "the rules: Exactly(1, G, V, Z) per cell; Exactly(total) per monster type; "
          "Exactly(clue) per line of sight over ~G (before a bounce) and ~V (after); givens: "
          "unit clauses")


def describe(p: UndeadPuzzle) -> str:
    return (f"{p.width}x{p.height}, ghosts {p.counts[0]}, vampires {p.counts[1]}, zombies "
            f"{p.counts[2]}")

_PUZZLE = spec.InstanceText(lambda p: f"{format_game_id(p)}\t{p.name}",
                           lambda text, source: parse_puzzles(text, source)[0])


def _observation(obs: UndeadObservation) -> Record:
    return {"puzzle": _PUZZLE.encode(obs.puzzle), "cells": obs.cells, "step": obs.step}


def _observation_from(record: Record) -> UndeadObservation:
    return UndeadObservation(_PUZZLE.decode(record["puzzle"]), str(record["cells"]),
                             int(record["step"]))


SPEC = spec.GameSpec(
    name="undead",
    description="Undead: ghosts, vampires and zombies among mirrors (Simon Tatham)",
    make_world=UndeadWorld, agents=spec.agents_from(AGENTS, AGENT_HELP), render=render,
    instances=spec.Instances(read=load_puzzles, parse=_PUZZLE.parse, format=_PUZZLE.format,
                             many=True,
        sample=lambda: parse_game_id(WORKED_EXAMPLE, "<example>"),
        facts=lambda p: {"size": f"{p.width}x{p.height}"}),
    actions=spec.Actions(from_json=UndeadAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="4x4de:1",
    capabilities=(VIEW, GENERATOR, spec.Inline(parse_puzzles), spec.CnfLegend(LEGEND),
                  spec.Shipped(shipped_maps("logic_agents", "maps", "undead")),
                  spec.Detection(lambda text, file: sniff_text(text) if file is None
                                 else sniff(text, file)),
                  spec.Puzzle(solve=solve_puzzle, is_solution=is_solution, encode=encode,
                              show=format_picture, to_json=lambda puzzle, solution: solution,
                              describe=describe),
                  spec.Observations(_observation, _observation_from)),
)

__all__ = [
    "AGENTS", "UndeadAction", "UndeadObservation", "UndeadPuzzle", "UndeadSolver", "UndeadWorld",
    "count_solutions", "decode", "encode", "format_game_id", "format_picture", "is_solution",
    "load", "load_entries", "load_puzzles", "parse_game_id", "parse_puzzles", "place", "solve",
    "trace_sights",
]
