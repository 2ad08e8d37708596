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

from logic_agents.games.daggers.world import (
    COVERED,
    FLAGGED,
    HIT,
    DaggersAction,
    DaggersObservation,
    clue_neighbourhoods,
    clue_value,
)
from logic_agents.world.view import Cell


class GridChanges:
    """The cells whose shown token changed, in the order the observations showed them."""

    def __init__(self) -> None:
        self.grid: tuple[tuple[str, ...], ...] | None = None
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
        self._seen: DaggersObservation | None = None  # the observation last read
        # per open clue: (cell, clue, covered neighbours, marked), until a neighbour changes
        self._entries: dict[Cell, tuple[Cell, int, list[Cell], int]] = {}
        self._fresh: set[Cell] = set()  # clues (re)read since the last `fresh` call
        self._sorted: list[tuple[Cell, int, list[Cell], int]] | None = None

    def _read(self, obs: DaggersObservation) -> None:
        """Bring the entries up to `obs`: re-read the clues around every changed cell."""
        if obs is self._seen:
            return
        self._seen = obs
        news, self.cursor = self.changes.since(obs, self.cursor)
        if not news:
            return
        grid, table, entries, open_ = obs.grid, obs.neighbours, self._entries, self.open
        stale: set[Cell] = set()
        for (r, c), now in news:
            stale.update(table[r, c])  # the clues around a changed cell see it change
            stale.add((r, c))
            if clue_value(now) is not None:
                open_.add((r, c))
            elif now == COVERED:  # unflagged: its clues have a covered cell again
                open_.update(n for n in table[r, c]
                             if clue_value(grid[n[0]][n[1]]) is not None)
        fresh = self._fresh
        for cell in stale:
            entries.pop(cell, None)
            if cell not in open_:
                continue
            k = clue_value(grid[cell[0]][cell[1]])
            # world.neighbourhood, inline: this loop reads most of an agent's clues
            unknown = []
            marked = 0
            for n in table[cell]:
                around = grid[n[0]][n[1]]
                if around == COVERED:
                    unknown.append(n)
                elif around in (FLAGGED, HIT):
                    marked += 1
            if not unknown or k is None:
                open_.discard(cell)
                continue
            entries[cell] = (cell, k, unknown, marked)
            fresh.add(cell)
        self._sorted = None

    def neighbourhoods(self, obs: DaggersObservation
                       ) -> list[tuple[Cell, int, list[Cell], int]]:
        """As world.clue_neighbourhoods(obs), for the clues with a covered neighbour, in
        reading order (the same list again until the grid changes: do not change it)."""
        self._read(obs)
        if self._sorted is None:
            self._sorted = [self._entries[cell] for cell in sorted(self.open)]
        return self._sorted

    def fresh(self, obs: DaggersObservation) -> list[tuple[Cell, int, list[Cell], int]]:
        """neighbourhoods(obs), but only the clues whose neighbourhood changed since the last
        call (or that are new): a clue read before and unchanged since proves nothing new."""
        self._read(obs)
        out = [self._entries[cell] for cell in sorted(self._fresh) if cell in self.open]
        self._fresh.clear()
        return out


def single_point_moves(obs: DaggersObservation) -> list[DaggersAction]:
    """Every move one clue proves on its own.

    A clue whose daggers are all marked (flagged or hit) makes its other covered neighbours
    safe; a clue whose unmarked covered neighbours number exactly its missing daggers makes
    them all daggers."""
    return [move for move, _ in single_point_proofs(obs)]


def single_point_proofs(obs: DaggersObservation, clues: OpenClues | None = None, *,
                        fresh: bool = False) -> list[tuple[DaggersAction, Cell]]:
    """single_point_moves, each with the clue cell that proves it (the first one found).
    `clues` (an agent's OpenClues) reads only the clues that may still prove something; with
    `fresh`, only those changed since the last fresh pass. The agents' loop asks so: its moves
    are played before it asks again, and each move changes the clues that proved it, so an
    unchanged clue has nothing left to prove (tests/games/daggers/test_trajectories.py)."""
    probes: dict[Cell, Cell] = {}
    flags: dict[Cell, Cell] = {}
    around = (clue_neighbourhoods(obs) if clues is None
              else clues.fresh(obs) if fresh else clues.neighbourhoods(obs))
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
