"""Endgame: when few placements of the daggers remain, the probe that maximises the chance
of winning, found by exact search over those placements.

Concepts:
- placements(obs, limit): every placement of the remaining daggers on the covered cells that
  agrees with the clues and the total, or None when there are more than `limit`.
- What a probe shows: in a given placement, probing a safe cell uncovers its clue, and a 0
  uncovers its neighbours in turn (gold reads as 0 and cascades the same way). Placements that
  show the same thing stay together; the others are ruled out.
- win_probability(state): the best, over covered cells, of the chance the probe is safe times
  the expected win probability of what it shows; a dagger costs a life and is shown. The game
  is won when every covered cell is a dagger. States are memoised; a node budget bounds the
  search (None when it runs out, and the caller guesses by probability instead).
"""

from __future__ import annotations

from functools import cache

from logic_agents.games.daggers.board import Cell
from logic_agents.games.daggers.probability import constraints
from logic_agents.games.daggers.world import FLAGGED, HIT, DaggersObservation


class _OutOfBudget(Exception):
    pass


def placements(obs: DaggersObservation, limit: int) -> list[frozenset[Cell]] | None:
    """All consistent placements (sets of dagger cells among the covered ones), or None if
    there are more than `limit`."""
    unknown = obs.unknown_cells()
    remaining = obs.total_daggers - sum(obs.at(c) in (FLAGGED, HIT) for c in obs.cells())
    cons = constraints(obs)
    touching: dict[Cell, list[int]] = {c: [] for c in unknown}
    for i, (cells, _) in enumerate(cons):
        for c in cells:
            touching[c].append(i)
    # clue-bound cells first, so constraints close early
    order = sorted(unknown, key=lambda c: (not touching[c], c))
    need = [k for _, k in cons]
    left = [len(cells) for cells, _ in cons]
    found: list[frozenset[Cell]] = []
    chosen: list[Cell] = []

    def go(j: int, daggers_left: int) -> None:
        if len(found) > limit:
            return
        if j == len(order):
            if daggers_left == 0:
                found.append(frozenset(chosen))
            return
        if daggers_left > len(order) - j:
            return
        cell = order[j]
        for i in touching[cell]:
            left[i] -= 1
        for dagger in (False, True):
            if dagger and daggers_left == 0:
                continue
            ok = all(need[i] - dagger >= 0 and need[i] - dagger <= left[i] for i in touching[cell])
            if not ok:
                continue
            for i in touching[cell]:
                need[i] -= dagger
            if dagger:
                chosen.append(cell)
            go(j + 1, daggers_left - dagger)
            if dagger:
                chosen.pop()
            for i in touching[cell]:
                need[i] += dagger
        for i in touching[cell]:
            left[i] += 1

    go(0, remaining)
    return None if len(found) > limit else found


def best_probe(obs: DaggersObservation, limit: int = 300,
               budget: int = 200_000) -> tuple[Cell, float] | None:
    """The covered cell whose probe maximises the win probability, and that probability;
    None if more than `limit` placements remain, the search exceeds `budget` nodes, or no
    covered cell is safe in any placement."""
    worlds = placements(obs, limit)
    if not worlds:
        return None
    table = obs.neighbours
    covered = tuple(obs.unknown_cells())
    covered_set = frozenset(covered)
    known_daggers = frozenset(c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT))
    nodes = 0

    def shows(world: frozenset[Cell], cell: Cell, open_: frozenset[Cell]) -> frozenset:
        """What probing a safe `cell` uncovers in `world`: (cell, clue) pairs, cascading."""
        daggers = world | known_daggers
        seen: dict[Cell, int] = {}
        todo = [cell]
        while todo:
            c = todo.pop()
            if c in seen or c in open_ or c not in covered_set:
                continue
            clue = sum(n in daggers for n in table[c])
            seen[c] = clue
            if clue == 0:
                todo.extend(n for n in table[c] if n not in daggers)
        return frozenset(seen.items())

    def value(cell: Cell, worlds_now: frozenset, open_: frozenset[Cell], lives: int) -> float:
        """The win probability after probing `cell` (None-free: 0 for a certain dagger)."""
        safe: dict[frozenset, list[frozenset[Cell]]] = {}
        hit: list[frozenset[Cell]] = []
        for w in worlds_now:
            if cell in w:
                hit.append(w)
            else:
                safe.setdefault(shows(w, cell, open_), []).append(w)
        n = len(worlds_now)
        out = sum(len(ws) / n * win(frozenset(ws), open_ | {c for c, _ in shown}, lives)
                  for shown, ws in safe.items())
        if hit and safe and lives > 1:
            out += len(hit) / n * win(frozenset(hit), open_ | {cell}, lives - 1)
        return out

    @cache
    def win(worlds_now: frozenset[frozenset[Cell]], open_: frozenset[Cell], lives: int) -> float:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _OutOfBudget
        some = next(iter(worlds_now))
        # won: every covered cell not yet open is a dagger (then it is so in every world, as
        # all worlds hold the same number of daggers)
        if all(c in some or c in open_ for c in covered):
            return 1.0
        best = 0.0
        for cell in covered:
            if cell not in open_:
                best = max(best, value(cell, worlds_now, open_, lives))
                if best >= 1.0:
                    break
        return best

    all_worlds = frozenset(worlds)
    if all(all(c in w for c in covered) for w in worlds):
        return None  # every covered cell is a dagger: nothing is left to probe
    try:
        scored = [(value(cell, all_worlds, frozenset(), obs.lives), cell) for cell in covered]
    except _OutOfBudget:
        return None
    best_value = max(v for v, _ in scored)
    # among equal win chances, the lowest dagger probability, then reading order
    daggers_at = {c: sum(c in w for w in worlds) for c in covered}
    cell = min((c for v, c in scored if v >= best_value - 1e-12), key=lambda c: (daggers_at[c], c))
    return cell, best_value
