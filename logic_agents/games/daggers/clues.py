"""What changed on the grid, and what one clue proves on its own.

Concepts:
- GridChanges: the one tracker of what changed since an agent's last look: one diff per
  observation (rows compared whole first), kept as an append-only log of (cell, shown) that
  each reader (OpenClues, DaggersEncoder) follows with its own cursor. A game starts from an
  all-covered grid, so the first look logs every cell that is not covered.
- OpenClues: the clue cells that still have a covered neighbour, kept from the changes.
- single_point_moves / single_point_proofs: the single-point strategy's sound deductions, one
  clue at a time (each with the clue that proves it).
"""

from __future__ import annotations

from logic_agents.games.daggers.board import Cell
from logic_agents.games.daggers.world import (
    COVERED,
    DaggersAction,
    DaggersObservation,
    clue_neighbourhoods,
    clue_value,
    neighbourhood,
)


class GridChanges:
    """The cells whose shown token changed, in the order the observations showed them."""

    def __init__(self) -> None:
        self.grid: tuple | None = None
        self.log: list[tuple[Cell, str]] = []

    def look(self, obs: DaggersObservation) -> None:
        """Log what `obs` shows that the last observation looked at did not."""
        grid, last = obs.grid, self.grid
        if grid is last:
            return
        if last is None or len(last) != len(grid) or len(last[0]) != len(grid[0]):
            # a first look (or another board): everything not covered is news
            last = tuple((COVERED,) * len(row) for row in grid)
        log = self.log
        for r, (row, old) in enumerate(zip(grid, last)):
            if row is old or row == old:  # the world hands unchanged rows out again
                continue
            for c, (now, before) in enumerate(zip(row, old)):
                if now != before:
                    log.append(((r, c), now))
        self.grid = grid

    def since(self, obs: DaggersObservation, cursor: int) -> tuple[list[tuple[Cell, str]], int]:
        """(the changes logged after `cursor`, up to `obs`; the new cursor)."""
        self.look(obs)
        return self.log[cursor:], len(self.log)


class OpenClues:
    """The clue cells that still have a covered neighbour, kept up to date from the cells
    that changed since the last look: single-point moves read those clues, in reading order,
    instead of the whole grid at every step."""

    def __init__(self, changes: GridChanges | None = None) -> None:
        self.changes = changes if changes is not None else GridChanges()
        self.cursor = 0
        self.open: set[Cell] = set()
        self._last: tuple[DaggersObservation, list] | None = None
        # per open clue: (cell, clue, covered neighbours, marked), until a neighbour changes
        self._entries: dict[Cell, tuple[Cell, int, list[Cell], int]] = {}

    def neighbourhoods(self, obs: DaggersObservation
                       ) -> list[tuple[Cell, int, list[Cell], int]]:
        """As world.clue_neighbourhoods(obs), for the clues with a covered neighbour (the
        same list again when asked twice about one observation: do not change it)."""
        if self._last is not None and self._last[0] is obs:
            return self._last[1]
        news, self.cursor = self.changes.since(obs, self.cursor)
        grid, table = obs.grid, obs.neighbours
        entries = self._entries
        for (r, c), now in news:
            for n in table[r, c]:  # the clues around a changed cell see it change
                entries.pop(n, None)
            entries.pop((r, c), None)
            if clue_value(now) is not None:
                self.open.add((r, c))
            elif now == COVERED:  # unflagged: its clues have a covered cell again
                self.open.update(n for n in table[r, c]
                                 if clue_value(grid[n[0]][n[1]]) is not None)
        out = []
        for cell in sorted(self.open):
            entry = entries.get(cell)
            if entry is None:
                unknown, marked = neighbourhood(obs, cell)
                k = clue_value(grid[cell[0]][cell[1]])
                if not unknown or k is None:
                    self.open.discard(cell)
                    continue
                entry = entries[cell] = (cell, k, unknown, marked)
            out.append(entry)
        self._last = (obs, out)
        return out


def single_point_moves(obs: DaggersObservation) -> list[DaggersAction]:
    """Every move one clue proves on its own.

    A clue whose daggers are all marked (flagged or hit) makes its other covered neighbours
    safe; a clue whose unmarked covered neighbours number exactly its missing daggers makes
    them all daggers."""
    return [move for move, _ in single_point_proofs(obs)]


def single_point_proofs(obs: DaggersObservation, clues: OpenClues | None = None
                        ) -> list[tuple[DaggersAction, Cell]]:
    """single_point_moves, each with the clue cell that proves it (the first one found).
    `clues` (an agent's OpenClues) reads only the clues that may still prove something."""
    probes: dict[Cell, Cell] = {}
    flags: dict[Cell, Cell] = {}
    around = clue_neighbourhoods(obs) if clues is None else clues.neighbourhoods(obs)
    for cell, k, unknown, marked in around:
        if not unknown:
            continue
        if marked == k:
            probes.update((n, cell) for n in unknown if n not in probes)
        elif len(unknown) == k - marked:
            flags.update((n, cell) for n in unknown if n not in flags)
    return [(DaggersAction("probe", c), clue) for c, clue in probes.items()] + [
        (DaggersAction("flag", c), clue) for c, clue in flags.items() if c not in probes
    ]
