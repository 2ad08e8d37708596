"""Lights Out agents: `sat` (parity constraints in sympy, one SAT model) and `chase` (the
classic light-chasing search: try the first row's presses, chase the rest down).

Both plan on the first observation and play their presses one per step (PlanningAgent).
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod

from lights_game.board import ON, Cell, neighbours
from lights_game.world import LightsAction, LightsObservation, press
from logic_agents.logic import KnowledgeBase, SatOracle
from logic_agents.solving.puzzle import SolverChoice
from logic_agents.world.base import PlanningAgent
from logic_agents.world.options import node_cap


class Planner(PlanningAgent[LightsObservation, LightsAction], ABC):
    replans = False  # one plan per episode

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.nodes = 0

    def replan(self, obs: LightsObservation) -> list[LightsAction] | None:
        presses = self.solve(obs)
        self.why = f"{self.name}: part of a solution"
        return None if presses is None else [press(*cell) for cell in presses]

    def stats(self) -> dict[str, float]:
        return {**super().stats(), "nodes": self.nodes}

    @abstractmethod
    def solve(self, obs: LightsObservation) -> list[Cell] | None:
        """The presses of a solution, or None when the agent finds none."""


def light(lights: tuple[str, ...], cell: Cell) -> bool:
    return lights[cell[0]][cell[1]] == ON


class SatLights(SolverChoice, Planner):
    """sat: each light's presses around it have the parity of the light (a sympy Xor per
    cell, compiled by Tseitin); one model of the knowledge base is the plan."""

    name = "sat"

    def solve(self, obs: LightsObservation) -> list[Cell] | None:
        from sympy import Not, Xor  # here, not at import: every command loads every SPEC

        from logic_agents.logic import sym

        h, w = obs.puzzle.height, obs.puzzle.width
        kb = KnowledgeBase()
        for cell in obs.puzzle.cells():
            parity = Xor(*[sym(("P", r, c)) for r, c in neighbours(h, w, cell)])
            kb.tell(parity if light(obs.lights, cell) else Not(parity))
        with SatOracle(kb, self.solver) as oracle:
            model = oracle.model()
            self.nodes = oracle.calls
        if model is None:
            return None
        return [cell for cell in obs.puzzle.cells() if model.get(f"P_{cell[0]}_{cell[1]}")]


class ChaseLights(Planner):
    """chase: for each pattern of first-row presses (2^W of them), press under every light
    still on, row by row; the pattern that leaves the last row dark is a solution."""

    name = "chase"
    options = (node_cap(1 << 20),)

    def __init__(self, *, node_cap: int = 1 << 20):
        self.node_cap = node_cap
        super().__init__()

    def solve(self, obs: LightsObservation) -> list[Cell] | None:
        h, w = obs.puzzle.height, obs.puzzle.width
        for first in itertools.product((False, True), repeat=w):
            lights = [[ch == ON for ch in row] for row in obs.lights]
            presses = [(0, c) for c in range(w) if first[c]]
            for r in range(h):
                if r > 0:
                    presses += [(r, c) for c in range(w) if lights[r - 1][c]]
                for cell in (p for p in presses if p[0] == r):
                    for y, x in neighbours(h, w, cell):
                        lights[y][x] = not lights[y][x]
                self.nodes += 1
                if self.nodes >= self.node_cap:
                    return None
            if not any(lights[h - 1]):
                return presses
        return None


AGENTS = {"sat": SatLights, "chase": ChaseLights}
