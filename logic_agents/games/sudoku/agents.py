"""Sudoku agents: sat, logic, norvig, and the report's evolutionary ea-repair and ea-multi.

Concepts:
- SatSudokuAgent (sat): solve the whole encoding once, then write the answer out.
- LogicSudokuAgent (logic): each step writes one value the knowledge base entails: unit
  propagation first, then failed literals, then a full entailment check (backbone). It gives up
  when nothing is entailed, which only happens when the puzzle has several solutions; `deduced`
  says how far pure deduction went.
- norvig_solve / NorvigAgent (norvig): constraint propagation (eliminate, only place) and
  depth-first search on the cell with the fewest candidates, after Norvig's essay; `nodes`
  counts search nodes and a node cap turns a runaway search into a loss.
- RepairEAAgent (ea-repair), MultiObjectiveEAAgent (ea-multi): the report's EAs (evolve.py),
  seeded by the episode's seed; `generations` reports how many they used.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from logic_agents.games.sudoku.board import Grid, SudokuPuzzle, unit_indices
from logic_agents.games.sudoku.encode import SudokuSolver, rule_words
from logic_agents.games.sudoku.evolve import ea_multi, ea_repair
from logic_agents.games.sudoku.world import SudokuAction, SudokuObservation
from logic_agents.ground.shapes import Counters
from logic_agents.logic.oracle import Verdict
from logic_agents.solving.puzzle import SolverChoice
from logic_agents.world.base import PlanningAgent
from logic_agents.world.core import Why
from logic_agents.world.declared import Option
from logic_agents.world.options import node_cap, positive_int


class SudokuAgent(PlanningAgent[SudokuObservation, SudokuAction]):
    solver: str | None = None

    def __init__(self) -> None:
        self._sat: SudokuSolver | None = None
        super().__init__()

    def close(self) -> None:
        if self._sat is not None:
            self._sat.close()
            self._sat = None

    def _solver_of(self, n: int) -> SudokuSolver:
        """This agent's own solver for the episode's size (compiled rules are shared)."""
        if self._sat is None or self._sat.n != n:
            self.close()
            self._sat = SudokuSolver(n, self.solver)
        return self._sat

    @staticmethod
    def moves_to(obs: SudokuObservation, grid: Grid) -> list[SudokuAction]:
        """The placements that turn the grid seen into `grid`."""
        n = obs.n
        return [SudokuAction((i // n, i % n), v) for i, v in enumerate(grid) if obs.cells[i] != v]


class SatSudokuAgent(SolverChoice, SudokuAgent):
    """sat: one SAT call on the size's cached encoding, then the answer, cell by cell."""

    name = "sat"

    def replan(self, obs: SudokuObservation) -> list[SudokuAction] | None:
        grid = self._solver_of(obs.n).solve(SudokuPuzzle(obs.n, obs.cells))
        return None if grid is None else self.moves_to(obs, grid)  # None: unsatisfiable


class LogicSudokuAgent(SolverChoice, SudokuAgent):
    """logic: one entailed value per step; gives up when nothing is entailed."""

    name = "logic"

    def __init__(self, *, solver: str | None = None,
                 explain: Callable[[list[str]], None] | None = None):
        self.explain = explain  # when set, each deduced value carries its minimal proof
        super().__init__(solver=solver)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.why = ""
        self._known: list[int] = []
        self.deduced = 0
        self.by = {"propagation": 0, "failed-literal": 0, "entailment": 0}

    def stats(self) -> Counters:
        return {"guesses": 0, "deduced": self.deduced, **{f"by_{k}": v for k, v in self.by.items()}}

    def act(self, obs: SudokuObservation) -> SudokuAction | None:
        s = self._solver_of(obs.n)
        n = obs.n
        known = s.assumptions(SudokuPuzzle(n, obs.cells))
        self._known = known
        empty = [i for i, v in enumerate(obs.cells) if v == 0]
        if not empty:
            return None
        ok, implied = s.oracle.propagate(known)
        if not ok:
            return None  # the grid so far contradicts the rules
        true = {lit for lit in implied if lit > 0}
        for i in empty:
            for v, var in enumerate(s.ids[i // n][i % n], start=1):
                if var in true:
                    return self._deduce(i, v, n, "propagation")
        # failed literals: a candidate whose assumption propagates to a conflict is false
        false = {-lit for lit in implied if lit < 0}
        for i in empty:
            candidates = [(v, var) for v, var in enumerate(s.ids[i // n][i % n], start=1)
                          if var not in false]
            alive = []
            for v, var in candidates:
                ok, _ = s.oracle.propagate(known + [var])
                if ok:
                    alive.append(v)
            if len(alive) == 1:
                return self._deduce(i, alive[0], n, "failed-literal")
        # full entailment on the remaining candidates
        keys = [var for i in empty for var in s.ids[i // n][i % n] if var not in false]
        verdicts = s.oracle.backbone(keys, assumptions=known)
        for key, verdict in verdicts.items():
            if verdict is Verdict.TRUE and isinstance(key, int):  # keys are ids here
                cell_index, v = divmod(key - 1, n)
                return self._deduce(cell_index, v + 1, n, "entailment")
        return None  # several solutions remain: a guess would be needed

    def _deduce(self, index: int, value: int, n: int, how: str) -> SudokuAction:
        self.deduced += 1
        self.by[how] += 1
        if self.explain is not None:
            self.why = self._proof(index, value, n)
        return SudokuAction((index // n, index % n), value)

    def _proof(self, index: int, value: int, n: int) -> Why:
        """The givens and rules that force the value, a minimal set of them, in words."""
        s = self._solver_of(n)
        found = s.oracle.explain(s.ids[index // n][index % n][value - 1], self._known)
        if found is None:
            return Why("entailed")
        words = rule_words(n)
        facts, cells = [], []
        for lit in found.given:
            cell, v = divmod(lit - 1, n)
            facts.append(f"r{cell // n}c{cell % n}={v + 1}")
            cells.append(divmod(cell, n))
        rules = [words.get(f, str(f)) for f in found.formulas]
        return Why(f"r{index // n}c{index % n}={value}: " + ", ".join(facts)
                   + ("; " if facts and rules else "") + ", ".join(rules)
                   + ("" if found.minimal else " (not minimised)"), cells)


@lru_cache(maxsize=8)
def _peers(n: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, ...], ...]]:
    """(units of each cell, peers of each cell) as cell indices."""
    all_units = unit_indices(n)
    cell_units = tuple(tuple(u for u in all_units if i in u) for i in range(n * n))
    peers = tuple(tuple(sorted({j for u in cell_units[i] for j in u} - {i})) for i in range(n * n))
    return cell_units, peers


def norvig_solve(puzzle: SudokuPuzzle, node_cap: int = 1_000_000) -> tuple[Grid | None, int]:
    """Propagation and MRV depth-first search; (solution or None, search nodes)."""
    n = puzzle.n
    cell_units, peers = _peers(n)
    full = set(range(1, n + 1))
    nodes = 0

    def assign(values: list[set[int]], i: int, d: int) -> bool:
        return all(eliminate(values, i, d2) for d2 in list(values[i] - {d}))

    def eliminate(values: list[set[int]], i: int, d: int) -> bool:
        if d not in values[i]:
            return True
        values[i].discard(d)
        if not values[i]:
            return False
        if len(values[i]) == 1:
            d2 = next(iter(values[i]))
            if not all(eliminate(values, j, d2) for j in peers[i]):
                return False
        for unit in cell_units[i]:
            places = [j for j in unit if d in values[j]]
            if not places:
                return False
            if len(places) == 1 and not assign(values, places[0], d):
                return False
        return True

    def search(values: list[set[int]]) -> list[set[int]] | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_cap:
            return None
        if all(len(v) == 1 for v in values):
            return values
        _, i = min((len(v), i) for i, v in enumerate(values) if len(v) > 1)
        for d in sorted(values[i]):
            copy = [set(v) for v in values]
            if assign(copy, i, d):
                found = search(copy)
                if found is not None:
                    return found
        return None

    values = [set(full) for _ in range(n * n)]
    for i, v in enumerate(puzzle.cells):
        if v and not assign(values, i, v):
            return None, nodes
    result = search(values)
    if result is None:
        return None, nodes
    return tuple(next(iter(v)) for v in result), nodes


class NorvigAgent(SudokuAgent):
    """norvig: propagation plus depth-first search, then the answer, cell by cell."""

    name = "norvig"
    options = (node_cap(1_000_000),)

    def __init__(self, *, node_cap: int = 1_000_000):
        self.node_cap = node_cap
        super().__init__()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.nodes = 0

    def stats(self) -> Counters:
        return {"guesses": 0, "nodes": self.nodes}

    def replan(self, obs: SudokuObservation) -> list[SudokuAction] | None:
        grid, nodes = norvig_solve(SudokuPuzzle(obs.n, obs.cells), self.node_cap)
        self.nodes += nodes
        return None if grid is None else self.moves_to(obs, grid)


class EvolutionaryAgent(SudokuAgent):
    """ea-repair / ea-multi: run the report's EA once; reaching the cap is a loss."""

    name = "ea"
    method = staticmethod(ea_repair)
    options = (
        Option("population", int, 40, "individuals per generation", metavar="N", parse=positive_int),
        Option("generations", int, 2000, "generations before the EA gives up", metavar="N",
               parse=positive_int),
    )

    def __init__(self, *, population: int = 40, generations: int = 2000):
        self.population = population
        self.generations = generations
        super().__init__()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.rng = random.Random(seed)
        self.generations_used = 0

    def stats(self) -> Counters:
        return {"guesses": 0, "generations": self.generations_used}

    replans = False  # one run of the EA per episode

    def replan(self, obs: SudokuObservation) -> list[SudokuAction] | None:
        grid, used = self.method(SudokuPuzzle(obs.n, obs.cells), self.rng, self.population,
                                 self.generations)
        self.generations_used = max(used, 1)
        return None if grid is None else self.moves_to(obs, grid)


class RepairEAAgent(EvolutionaryAgent):
    name = "ea-repair"
    method = staticmethod(ea_repair)


class MultiObjectiveEAAgent(EvolutionaryAgent):
    name = "ea-multi"
    method = staticmethod(ea_multi)


AGENTS = {"sat": SatSudokuAgent, "logic": LogicSudokuAgent, "norvig": NorvigAgent,
          "ea-repair": RepairEAAgent, "ea-multi": MultiObjectiveEAAgent}
