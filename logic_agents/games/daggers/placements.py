"""Every placement of the remaining daggers that agrees with what an agent observes.

Concepts:
- placements(obs, limit): the sets of covered cells that may hold the remaining daggers (the
  clues and the total agree), found by backtracking over the covered cells, clue-bound cells
  first so that a clue's count closes early; None when there are more than `limit`. The
  endgame's exact search (endgame.py) runs over them.
"""

from __future__ import annotations

from logic_agents.games.daggers.odds import constraints, remaining_daggers
from logic_agents.games.daggers.world import DaggersObservation
from logic_agents.world.view import Cell


def placements(obs: DaggersObservation, limit: int) -> list[frozenset[Cell]] | None:
    """All consistent placements (sets of dagger cells among the covered ones), or None if
    there are more than `limit`."""
    unknown = obs.unknown_cells()
    remaining = remaining_daggers(obs)
    cons = constraints(obs)
    if any(not cells for cells, _ in cons):
        return []  # a clue that cannot add up: no placement agrees
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
