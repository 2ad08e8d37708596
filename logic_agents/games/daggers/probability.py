"""Exact dagger probabilities for the sweeper family, from what an agent observes.

Concepts:
- Constraint: a shown clue's unknown neighbours and how many daggers are still among them
  (the clue minus its flagged and hit neighbours; flags are proven daggers). A clue with no
  unknown neighbour that does not add up is kept, as a contradiction.
- Class: unknown frontier cells that lie under exactly the same constraints. They are
  interchangeable, so a class is assigned a number of daggers j, weighted C(size, j).
- Component: classes linked by shared constraints. Components are independent once the total
  is fixed, so each is enumerated alone, grouped by its dagger count k: weight W[k] (how many
  placements) and, per class, the expected daggers E[k] summed over those placements.
- Combination: the interior (unknown cells under no clue) takes the daggers the frontier
  leaves, in C(interior, remaining - s) ways. The components' count polynomials are
  convolved with that weight; every number is an exact integer until the final division.
- DaggerOdds: the dagger probability of each frontier cell, the one all interior cells share,
  and the number of consistent placements.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from logic_agents.errors import LogicAgentsError
from logic_agents.games.daggers.board import Cell
from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT, DaggersObservation


class InconsistentObservation(LogicAgentsError):
    """No placement of the remaining daggers agrees with what is shown."""


@dataclass(frozen=True)
class DaggerOdds:
    frontier: dict[Cell, float]  # covered cells next to a clue
    interior: float | None  # every other covered cell (None: there are none)
    interior_cells: tuple[Cell, ...]
    placements: int  # consistent placements of the remaining daggers
    exact: dict[Cell, Fraction]  # every covered cell, as an exact fraction

    def probability(self, cell: Cell) -> float:
        return float(self.exact[cell])

    def ranked(self) -> list[tuple[Cell, float]]:
        """Every covered cell, safest first (ties in reading order)."""
        return sorted(((c, float(p)) for c, p in self.exact.items()), key=lambda t: (t[1], t[0]))


def constraints(obs: DaggersObservation) -> list[tuple[tuple[Cell, ...], int]]:
    """(unknown neighbours, daggers still among them) for every clue with an unknown neighbour,
    and ((), k) for a clue whose neighbours are all known but do not add up (k != 0), so that
    a hypothetical clue that contradicts the board is caught."""
    table = obs.neighbours
    out = []
    for cell in obs.cells():
        k = obs.clue(cell)
        if k is None:
            continue
        around = table[cell]
        unknown = tuple(n for n in around if obs.at(n) == COVERED)
        marked = sum(obs.at(n) in (FLAGGED, HIT) for n in around)
        if unknown or k != marked:
            out.append((unknown, k - marked))
    return out


def _components(cons: list[tuple[tuple[Cell, ...], int]]) -> list[list[int]]:
    """Indices of constraints, grouped by shared cells."""
    parent = list(range(len(cons)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Cell, int] = {}
    for i, (cells, _) in enumerate(cons):
        for c in cells:
            if c in owner:
                parent[find(i)] = find(owner[c])
            else:
                owner[c] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(cons)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _enumerate(cons: list[tuple[tuple[Cell, ...], int]]):
    """One component: classes of cells, and {k: (W, [E per class])} with exact integers."""
    by_cell: dict[Cell, list[int]] = {}
    for i, (cells, _) in enumerate(cons):
        for c in cells:
            by_cell.setdefault(c, []).append(i)
    class_of: dict[tuple[int, ...], list[Cell]] = {}
    for c, owners in by_cell.items():
        class_of.setdefault(tuple(owners), []).append(c)
    classes = list(class_of.items())  # (constraint ids, cells)
    # order: classes touching the most constraints first, then neighbours of assigned ones, so
    # that constraints close early and prune
    order: list[int] = []
    pending = set(range(len(classes)))
    touched: set[int] = set()
    while pending:
        best = max(pending, key=lambda j: (len(touched & set(classes[j][0])),
                                           len(classes[j][0]), -j))
        order.append(best)
        pending.discard(best)
        touched |= set(classes[best][0])
    classes = [classes[j] for j in order]
    need = [k for _, k in cons]
    left = [len(cells) for cells, _ in cons]  # unassigned cells per constraint
    sizes = [len(cells) for _, cells in classes]
    result: dict[int, list] = {}
    counts = [0] * len(classes)

    def go(j: int, daggers: int, weight: int) -> None:
        if j == len(classes):
            entry = result.setdefault(daggers, [0, [0] * len(classes)])
            entry[0] += weight
            for i, n in enumerate(counts):
                if n:
                    entry[1][i] += weight * n
            return
        owners, _ = classes[j]
        size = sizes[j]
        low = max([0] + [need[i] - (left[i] - size) for i in owners])
        high = min([size] + [need[i] for i in owners])
        for i in owners:
            left[i] -= size
        for n in range(low, high + 1):
            for i in owners:
                need[i] -= n
            counts[j] = n
            go(j + 1, daggers + n, weight * comb(size, n))
            for i in owners:
                need[i] += n
        counts[j] = 0
        for i in owners:
            left[i] += size

    if any(k < 0 or k > len(cells) for cells, k in cons):
        return classes, {}
    go(0, 0, 1)
    return classes, result


def dagger_odds(obs: DaggersObservation) -> DaggerOdds:
    """Exact probabilities for every covered cell (see the module docstring)."""
    cons = constraints(obs)
    unknown = obs.unknown_cells()
    frontier_cells = {c for cells, _ in cons for c in cells}
    interior = tuple(c for c in unknown if c not in frontier_cells)
    remaining = obs.total_daggers - sum(obs.at(c) in (FLAGGED, HIT) for c in obs.cells())
    parts = []
    for group in _components(cons):
        classes, table = _enumerate([cons[i] for i in group])
        if not table:
            raise InconsistentObservation("no placement of the daggers agrees with the clues")
        parts.append((classes, table))
    # polynomial of each component: k -> W; the product of all but one, per component
    polys = [{k: w for k, (w, _) in table.items()} for _, table in parts]

    def product(skip: int | None) -> dict[int, int]:
        out = {0: 1}
        for i, p in enumerate(polys):
            if i == skip:
                continue
            nxt: dict[int, int] = {}
            for a, wa in out.items():
                for b, wb in p.items():
                    nxt[a + b] = nxt.get(a + b, 0) + wa * wb
            out = nxt
        return out

    n_in = len(interior)

    def rest(s: int) -> int:
        left = remaining - s
        return comb(n_in, left) if 0 <= left <= n_in else 0

    everything = product(None)
    total = sum(w * rest(s) for s, w in everything.items())
    if total == 0:
        raise InconsistentObservation("no placement of the daggers agrees with the clues and "
                                      "the dagger total")
    exact: dict[Cell, Fraction] = {}
    for i, (classes, table) in enumerate(parts):
        others = product(i)
        for j, (_, cells) in enumerate(classes):
            expected = 0
            for k, (_, per_class) in table.items():
                if per_class[j]:
                    expected += per_class[j] * sum(w * rest(k + s) for s, w in others.items())
            p = Fraction(expected, total * len(cells))
            for c in cells:
                exact[c] = p
    shared = None
    if n_in:
        in_daggers = sum(w * rest(s) * (remaining - s) for s, w in everything.items())
        shared_exact = Fraction(in_daggers, total * n_in)
        for c in interior:
            exact[c] = shared_exact
        shared = float(shared_exact)
    return DaggerOdds({c: float(exact[c]) for c in frontier_cells}, shared, interior, total,
                      exact)
