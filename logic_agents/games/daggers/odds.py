"""Exact dagger probabilities for the sweeper family, from what an agent observes.

Concepts:
- Constraint: a shown clue's unknown neighbours and how many daggers are still among them
  (the clue minus its flagged and hit neighbours; flags are proven daggers). A clue with no
  unknown neighbour that does not add up is kept, as a contradiction.
- Class and Component (components.py): a component's classes of interchangeable cells are
  enumerated alone, grouped by its dagger count k: weight W[k] (how many placements) and,
  per class, the expected daggers E[k] summed over those placements.
- Combination: the interior (unknown cells under no clue) takes the daggers the frontier
  leaves, in C(interior, remaining - s) ways. The components' count polynomials are
  convolved with that weight; every number is an exact integer until the final division.
- Evidence: the constraints, unknown cells and daggers left; `showing` is the evidence after one
  more cell shows a clue or a dagger (a look-ahead), derived without rescanning the grid.
  Components already enumerated are reused through a cache, since a reveal changes one.
- DaggerOdds: the dagger probability of each frontier cell, the one all interior cells share,
  and the number of consistent placements.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from logic_agents.errors import LogicAgentsError
from logic_agents.games.daggers.clues import OpenClues
from logic_agents.games.daggers.components import (
    Component,
    Table,
    components,
    enumerate_component,
)
from logic_agents.games.daggers.world import (
    HIT,
    DaggersObservation,
    clue_neighbourhoods,
    neighbourhood,
)
from logic_agents.world.view import Cell


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


Constraint = tuple[tuple[Cell, ...], int]


def constraints(obs: DaggersObservation, clues: OpenClues | None = None) -> list[Constraint]:
    """(unknown neighbours, daggers still among them) for every clue with an unknown neighbour,
    and ((), k) for a clue whose neighbours are all known but do not add up (k != 0), so that
    a hypothetical clue that contradicts the evidence is caught. `clues`, an agent's own tracker,
    spares a scan of the grid; it skips clues with no covered neighbour, so it is only for
    observations whose flags are all sound (every flag a proven dagger), where they add up."""
    around = clue_neighbourhoods(obs) if clues is None else clues.neighbourhoods(obs)
    return [(tuple(unknown), k - marked) for _, k, unknown, marked in around
            if unknown or k != marked]


def remaining_daggers(obs: DaggersObservation) -> int:
    """The daggers not yet shown (flagged or hit)."""
    return obs.total_daggers - obs.marked


@dataclass(frozen=True)
class Evidence:
    """What the odds depend on: the clue constraints, the unknown cells and the daggers left.
    `showing` gives the evidence after one more cell is shown, without rescanning the grid."""

    cons: list[Constraint]
    unknown: tuple[Cell, ...]
    remaining: int

    @classmethod
    def of(cls, obs: DaggersObservation, clues: OpenClues | None = None) -> Evidence:
        """The evidence `obs` shows (`clues`: as for constraints)."""
        return cls(constraints(obs, clues), tuple(obs.unknown_cells()), remaining_daggers(obs))

    def showing(self, obs: DaggersObservation, cell: Cell, token: str) -> Evidence:
        """The evidence if the unknown `cell` of `obs` showed `token`: a clue value (it is safe)
        or HIT (a dagger)."""
        hit = token == HIT
        cons = []
        for cells, k in self.cons:
            if cell in cells:
                cells = tuple(c for c in cells if c != cell)
                k -= hit
            if cells or k:
                cons.append((cells, k))
        if not hit:
            unknown, marked = neighbourhood(obs, cell)
            value = int(token)
            if unknown or value != marked:
                cons.append((tuple(unknown), value - marked))
        return Evidence(cons, tuple(c for c in self.unknown if c != cell), self.remaining - hit)


ComponentCache = dict[tuple[object, ...], Component]  # the constraints of a component -> its enumeration
Parts = list[Component]


def _parts(evidence: Evidence, cache: ComponentCache | None) -> Parts:
    """Each component's classes and table, from `cache` when the same constraints were
    enumerated before (a look-ahead changes one component and leaves the others alone)."""
    cons = evidence.cons
    parts = []
    for group in components(cons):
        key = tuple(sorted(cons[i] for i in group))
        found = cache.get(key) if cache is not None else None
        if found is None:
            found = enumerate_component(list(key))
            if cache is not None:
                cache[key] = found
        if not found[1]:
            raise InconsistentObservation("no placement of the daggers agrees with the clues")
        parts.append(found)
    return parts


Poly = dict[int, int]  # dagger count -> placements


def _times(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for i, wa in a.items():
        for j, wb in b.items():
            out[i + j] = out.get(i + j, 0) + wa * wb
    return out


def _poly(table: Table) -> Poly:
    return {k: w for k, (w, _) in table.items()}


def _products(parts: Parts) -> tuple[list[Poly], Poly]:
    """(per component, the product of every other component's count polynomial; the product
    of all), from prefix and suffix products."""
    polys = [_poly(table) for _, table in parts]
    prefix = [{0: 1}]
    for poly in polys:
        prefix.append(_times(prefix[-1], poly))
    suffix = [{0: 1}]
    for poly in reversed(polys):
        suffix.append(_times(suffix[-1], poly))
    suffix.reverse()
    return [_times(prefix[i], suffix[i + 1]) for i in range(len(polys))], prefix[-1]


def _combine(parts: Parts, n_in: int, remaining: int,
             known: tuple[list[Poly], Poly] | None = None) -> tuple[int, list[list[int]], int]:
    """(total placements, per component the expected daggers of each class summed over all
    placements, the same for the interior as a whole): exact integers. `known`: _products of
    all parts but the last, when only the last changes between calls (a look-ahead's clues)."""
    if known is None:
        others_of, everything = _products(parts)
    else:
        last = _poly(parts[-1][1])
        others_of = [_times(others, last) for others in known[0]] + [known[1]]
        everything = _times(known[1], last)

    rest_of: dict[int, int] = {}

    def rest(s: int) -> int:
        """Ways for the interior to hold the daggers the frontier leaves, when it holds s."""
        if s not in rest_of:
            left = remaining - s
            rest_of[s] = comb(n_in, left) if 0 <= left <= n_in else 0
        return rest_of[s]

    total = sum(w * rest(s) for s, w in everything.items())
    if total == 0:
        raise InconsistentObservation("no placement of the daggers agrees with the clues and "
                                      "the dagger total")
    expected_per_part = []
    for (classes, table), others in zip(parts, others_of):
        expected = [0] * len(classes)
        for k, (_, per_class) in table.items():  # summed a count at a time, class by class
            tail = sum(w * rest(k + s) for s, w in others.items())
            if tail:
                expected = [e + d * tail for e, d in zip(expected, per_class)]
        expected_per_part.append(expected)
    in_daggers = sum(w * rest(s) * (remaining - s) for s, w in everything.items()) if n_in else 0
    return total, expected_per_part, in_daggers


def odds_of(evidence: Evidence, cache: ComponentCache | None = None) -> DaggerOdds:
    """Exact probabilities for every unknown cell of a evidence (see the module docstring)."""
    parts = _parts(evidence, cache)
    frontier_cells = {c for cells, _ in evidence.cons for c in cells}
    interior = tuple(c for c in evidence.unknown if c not in frontier_cells)
    total, expected_per_part, in_daggers = _combine(parts, len(interior), evidence.remaining)
    exact: dict[Cell, Fraction] = {}
    for (classes, _), expected in zip(parts, expected_per_part):
        for (_, cells), e in zip(classes, expected):
            p = Fraction(e, total * len(cells))
            for c in cells:
                exact[c] = p
    shared = None
    if interior:
        shared_exact = Fraction(in_daggers, total * len(interior))
        for c in interior:
            exact[c] = shared_exact
        shared = float(shared_exact)
    return DaggerOdds({c: float(exact[c]) for c in frontier_cells}, shared, interior, total,
                      exact)


def lowest_odds(evidence: Evidence, cache: ComponentCache | None = None) -> tuple[int, float]:
    """(placements, the lowest dagger probability of any unknown cell) of a evidence: what a
    look-ahead needs, without the exact fractions."""
    parts = _parts(evidence, cache)
    frontier = sum(len(cells) for classes, _ in parts for _, cells in classes)
    return _lowest(parts, len(evidence.unknown) - frontier, evidence.remaining, len(evidence.unknown))


def _lowest(parts: Parts, n_in: int, remaining: int, unknown: int,
            known: tuple[list[Poly], Poly] | None = None) -> tuple[int, float]:
    total, expected_per_part, in_daggers = _combine(parts, n_in, remaining, known)
    low = in_daggers / (total * n_in) if n_in else 1.0
    for (classes, _), expected in zip(parts, expected_per_part):
        for (_, cells), e in zip(classes, expected):
            low = min(low, e / (total * len(cells)))
    return total, (low if unknown else 0.0)


def branch_odds(evidence: Evidence, obs: DaggersObservation, cell: Cell,
                cache: ComponentCache | None = None) -> list[tuple[int, int, float]]:
    """For each clue the unknown `cell` may show (it is safe), in increasing order: (clue,
    placements, the lowest dagger probability of any unknown cell then), as lowest_odds gives
    for evidence.showing(obs, cell, clue), but with one enumeration of the component the clue
    joins for every clue at once. Clues no placement agrees with are left out."""
    around, marked = neighbourhood(obs, cell)
    if not around:  # the clue is known already: only that one agrees
        try:
            return [(marked, *lowest_odds(evidence.showing(obs, cell, str(marked)), cache))]
        except InconsistentObservation:
            return []
    safe = evidence.showing(obs, cell, str(marked))  # the cell safe; its own clue set below
    cons = safe.cons[:-1]  # the last is the shown clue's own constraint, over `around`
    free = len(cons)
    cons.append((tuple(around), 0))
    groups = components(cons)
    joined = next(g for g in groups if free in g)
    parts: Parts = []
    try:
        parts = _parts(Evidence([cons[i] for g in groups if g is not joined for i in g],
                             safe.unknown, safe.remaining), cache)
    except InconsistentObservation:
        return []
    local = [cons[i] for i in joined]
    key = ("branch", tuple(local), joined.index(free))
    found = cache.get(key) if cache is not None else None
    if found is None:
        found = enumerate_component(local, joined.index(free))
        if cache is not None:
            cache[key] = found
    classes, table = found
    frontier = sum(len(cells) for part_classes, _ in parts for _, cells in part_classes)
    frontier += sum(len(cells) for _, cells in classes)
    n_in = len(safe.unknown) - frontier
    out = []
    known = _products(parts)  # the components the clue leaves alone, multiplied once
    for shown in sorted({f for _, f in table}):
        by_k = {k: entry for (k, f), entry in table.items() if f == shown}
        try:
            out.append((shown + marked, *_lowest(parts + [(classes, by_k)], n_in,
                                                safe.remaining, len(safe.unknown), known)))
        except InconsistentObservation:
            continue
    return out


def dagger_odds(obs: DaggersObservation) -> DaggerOdds:
    """Exact probabilities for every covered cell (see the module docstring)."""
    return odds_of(Evidence.of(obs))
