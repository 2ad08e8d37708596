"""The Sudoku report's evolutionary solvers, as baselines for the SAT agents.

Concepts:
- an individual is a grid (0 = empty) that keeps the puzzle's givens;
- conflicts(grid): the cells whose value repeats within a row, column or box;
- ea_repair: the hybrid repair EA. Each generation repairs every infeasible individual by
  emptying its conflicting non-given cells, sorts by fitness (filled cells), drops the worse
  half, and mutates the survivors into children (a random value in a random empty cell; when
  full, a random non-given cell changes);
- ea_multi: the multi-objective EA. Fitness is (filled cells, violations); each parent makes
  one mutated child, which replaces it only if it is at least as good on both objectives and
  better on one (Pareto dominance, our reading of the report's comparison);
- both stop at a generation cap; they return (solution or None, generations used).
"""

from __future__ import annotations

import random

from logic_agents.games.sudoku.board import Grid, SudokuPuzzle, unit_indices


def conflicts(grid: list[int], n: int) -> set[int]:
    """Cells whose value appears twice in one of their units."""
    bad: set[int] = set()
    for unit in unit_indices(n):
        seen: dict[int, int] = {}
        for i in unit:
            v = grid[i]
            if not v:
                continue
            if v in seen:
                bad.add(i)
                bad.add(seen[v])
            else:
                seen[v] = i
    return bad


def _mutate(grid: list[int], free: list[int], n: int, rng: random.Random) -> list[int]:
    child = list(grid)
    empty = [i for i in free if not child[i]]
    i = rng.choice(empty) if empty else rng.choice(free)
    child[i] = rng.randint(1, n)
    return child


def _first_population(puzzle: SudokuPuzzle, rng: random.Random, population: int
                      ) -> tuple[int, list[int], list[int], list[list[int]]]:
    """(N, the givens, the free cells, the first population: mutations of the puzzle)."""
    n = puzzle.n
    given = list(puzzle.cells)
    free = [i for i, v in enumerate(given) if not v]
    pop = [_mutate(given, free, n, rng) for _ in range(population)] if free else []
    return n, given, free, pop


def ea_repair(puzzle: SudokuPuzzle, rng: random.Random, population: int = 40,
              generations: int = 2000) -> tuple[Grid | None, int]:
    n, given, free, pop = _first_population(puzzle, rng, population)
    if not free:
        return (tuple(given) if not conflicts(given, n) else None), 0
    for generation in range(1, generations + 1):
        for grid in pop:
            for i in conflicts(grid, n):
                if not given[i]:
                    grid[i] = 0
            if all(grid) and not conflicts(grid, n):
                return tuple(grid), generation
        pop.sort(key=lambda g: -sum(1 for v in g if v))
        survivors = pop[: max(1, population // 2)]
        pop = survivors + [_mutate(g, free, n, rng) for g in survivors]
    return None, generations


def _fitness(grid: list[int], n: int) -> tuple[int, int]:
    return sum(1 for v in grid if v), len(conflicts(grid, n))


def ea_multi(puzzle: SudokuPuzzle, rng: random.Random, population: int = 40,
             generations: int = 2000) -> tuple[Grid | None, int]:
    n, given, free, pop = _first_population(puzzle, rng, population)
    if not free:
        return (tuple(given) if not conflicts(given, n) else None), 0
    scores = [_fitness(g, n) for g in pop]
    for generation in range(1, generations + 1):
        for k, parent in enumerate(pop):
            child = _mutate(parent, free, n, rng)
            filled, violations = _fitness(child, n)
            best_filled, best_violations = scores[k]
            if (filled >= best_filled and violations <= best_violations
                    and (filled, -violations) != (best_filled, -best_violations)):
                pop[k], scores[k] = child, (filled, violations)
                if filled == n * n and violations == 0:
                    return tuple(child), generation
    return None, generations
