"""Sudoku N x N: board, encode, world, agents, render; registered as game "sudoku"."""

from __future__ import annotations

from pathlib import Path

from logic_agents.games.sudoku.agents import AGENTS, norvig_solve
from logic_agents.games.sudoku.board import (
    Grid,
    SudokuPuzzle,
    format_grid,
    format_line,
    is_solution,
    load_puzzles,
    parse_puzzles,
)
from logic_agents.games.sudoku.core import solve_one
from logic_agents.games.sudoku.encode import (
    SudokuSolver,
    count_solutions,
    decode,
    encode,
)
from logic_agents.games.sudoku.generate import GENERATOR
from logic_agents.games.sudoku.view import VIEW
from logic_agents.games.sudoku.warm import current_pool, warm_solvers
from logic_agents.games.sudoku.world import SudokuAction, SudokuObservation, SudokuWorld, place
from logic_agents.ground.shapes import Record
from logic_agents.logic.certify import certifying_now
from logic_agents.solving.puzzle import SolveResult
from logic_agents.world import spec
from logic_agents.world.resolve import load_indexed, parses, shipped_maps

AGENT_HELP = {
    "sat": "solve the whole encoding once, then write the answer",
    "logic": "write only entailed values, one per step; give up when none is entailed",
    "norvig": "constraint propagation and depth-first search (Norvig's essay)",
    "ea-repair": "the report's hybrid repair evolutionary algorithm (generation cap)",
    "ea-multi": "the report's multi-objective evolutionary algorithm (generation cap)",
}


def load(path: str | Path) -> SudokuPuzzle:
    """One puzzle: FILE (its first puzzle) or FILE:K (its K-th, counting from 1)."""
    return load_indexed(path, load_puzzles)


sniff = parses(parse_puzzles)  # file detection: 1 if the text parses as Sudoku puzzles


def detect(text: str, file: str | None) -> int:
    """A file is judged by parsing it; an argument by its look (sniff_argument)."""
    return sniff_argument(text) if file is None else sniff(text, file)


def sniff_argument(text: str) -> int:
    """1 for an argument that is a Sudoku line (digits and dots, 16 or more), even one of a
    wrong length: the parser then says what is wrong with it ("80 cells is no Sudoku size")."""
    line = text.split("#")[0].strip()
    return 1 if len(line) >= 16 and all(ch in "0123456789." for ch in line) else sniff(text)


def illegal_actions(obs: SudokuObservation) -> list[SudokuAction]:
    out = [place(-1, 0, 1), place(0, obs.n, 1)]
    empty = [i for i, v in enumerate(obs.cells) if v == 0]
    given = [i for i, g in enumerate(obs.givens) if g]
    if empty:
        out.append(place(empty[0] // obs.n, empty[0] % obs.n, obs.n + 1))
        out.append(place(empty[0] // obs.n, empty[0] % obs.n, 0))
    if given:
        out.append(place(given[0] // obs.n, given[0] % obs.n, 1))
    return out


def solve_puzzle(puzzle: SudokuPuzzle, unique: bool = True, solver: str | None = None, *,
                 shuffle: int | None = None) -> SolveResult[Grid]:
    """One puzzle. 9x9 and smaller go to a solver kept warm (sudoku.warm: the rules told
    once, the clues as assumptions), whose answers are canonical (the first solution in
    reading order), so what it answers never depends on what it solved before; other sizes
    get a fresh solver fed only the rules their clues leave open (solve_one): on 25x25 the
    whole rules are 750,000 pairwise clauses, which took 3 s to hand to a solver per puzzle,
    where the clue core takes 0.06 s (median; docs/BENCHMARKS.md "SAT tails"). `shuffle`
    renumbers the variables (on a solver of its own), to measure luck
    (benchmarks/bench_tails.py)."""
    # certified: the clue core too, a fresh solver's (the warm pool's is not certified), and
    # a formula a tenth the size for the checker to read
    if puzzle.n > 9 or certifying_now() is not None:
        return solve_one(puzzle, unique, solver, shuffle)
    if shuffle is not None:
        with SudokuSolver(puzzle.n, solver, shuffle=shuffle) as own:
            return own.canonical(puzzle, unique)
    return current_pool().get(puzzle.n, solver).canonical(puzzle, unique)


def render(obs: SudokuObservation) -> str:
    return f"step {obs.step}\n" + format_grid(obs.cells)


LEGEND = ("variables X_r<row>c<col>_v<value> (0-based row and column): the cell holds the value",
          "the rules: Exactly(1, ...) per cell, and per value in each row, column and box; "
          "the clues: unit clauses")

def _observation(obs: SudokuObservation) -> Record:
    return {"n": obs.n, "cells": list(obs.cells),
            "givens": "".join("1" if g else "0" for g in obs.givens), "step": obs.step}


def _observation_from(record: Record) -> SudokuObservation:
    return SudokuObservation(int(record["n"]), tuple(int(v) for v in record["cells"]),
                             tuple(g == "1" for g in record["givens"]), int(record["step"]))


SPEC = spec.GameSpec(
    name="sudoku", description="Sudoku N x N (4, 9, 16, 25)",
    make_world=SudokuWorld, agents=spec.agents_from(AGENTS, AGENT_HELP), render=render,
    instances=spec.Instances(read=load_puzzles, parse=lambda text, source: parse_puzzles(
        text, source)[0], format=lambda p: format_line(p, p.name), many=True,
        sample=lambda: parse_puzzles("12..3..2.1.34..1  # example")[0],
        facts=lambda p: {"size": f"{p.n}x{p.n}"}),
    actions=spec.Actions(from_json=SudokuAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="norvig_top95:1",
    capabilities=(VIEW, GENERATOR, spec.Inline(parse_puzzles), spec.CnfLegend(LEGEND),
                  spec.Shipped(shipped_maps("logic_agents", "maps", "sudoku")),
                  spec.Detection(detect),
                  spec.Puzzle(solve=solve_puzzle, is_solution=is_solution, encode=encode,
                              session=warm_solvers,
                              show=lambda puzzle, grid: format_grid(grid),
                              to_json=lambda puzzle, grid: format_line(grid),
                              describe=lambda p: f"{p.n}x{p.n}, {p.clues} clues"),
                  spec.Observations(_observation, _observation_from)),
)

__all__ = [
    "AGENTS", "SudokuAction", "SudokuObservation", "SudokuPuzzle", "SudokuWorld",
    "count_solutions", "decode", "encode",
    "format_grid", "format_line", "is_solution", "load", "load_puzzles",
    "norvig_solve", "parse_puzzles", "place", "SudokuSolver",
]
