"""What changed on the grid, and what one clue proves on its own.

Concepts:
- GridChanges: the one tracker of what changed since an agent's last look: one diff per
  observation (rows compared whole first), kept as an append-only log of (cell, shown) that
  each reader (OpenClues, DaggersEncoder) follows with its own cursor. A game starts from an
  all-covered grid, so the first look logs every cell that is not covered.
- OpenClues: the clue cells that still have a covered neighbour, kept from the changes.
- single_point_moves / single_point_proofs: the single-point strategy's sound deductions, one
  clue at a time (each with the clue that proves it).
- The compiled bookkeeping (_clues.c, `KERNEL`): OpenClues and a fresh single-point pass in
  C, used when the package was built with it; OpenClues's Python below is the fallback, and
  both give the same clues, entries and moves (tests/games/daggers/test_clues_kernel.py).
  LOGIC_AGENTS_PURE_PYTHON=1 turns it off, as it does prob's kernels.
"""

from __future__ import annotations

import os
from functools import lru_cache
from types import ModuleType
from typing import Any

from logic_agents.games.daggers.board import GOLD, neighbours
from logic_agents.games.daggers.components import PURE_PYTHON_VARIABLE
from logic_agents.games.daggers.world import (
    CLUE_OF,
    COVERED,
    FLAGGED,
    HIT,
    DaggersAction,
    DaggersObservation,
    clue_neighbourhoods,
    clue_value,
)
from logic_agents.world.view import Cell

_MARKS = frozenset((FLAGGED, HIT))  # the tokens a clue counts as found daggers

COMPILED: ModuleType | None  # the compiled bookkeeping as built (None: no C compiler)
try:
    from logic_agents.games.daggers import _clues as COMPILED
except ImportError:  # not built: OpenClues's Python
    COMPILED = None
# the bookkeeping asked: the compiled one unless turned off (tests compare both)
KERNEL = None if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0") else COMPILED
Entry = tuple[Cell, int, list[Cell], int]  # (clue cell, clue, covered neighbours, marked)


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
    instead of the whole grid at every step.

    Inside, a cell is its index in reading order (row * width + column): the sets and dicts
    here are touched for every cell an opening shows, and a tuple's hash is computed anew
    at every touch, an int's is itself."""

    def __init__(self, changes: GridChanges | None = None) -> None:
        self.changes = changes if changes is not None else GridChanges()
        self.cursor = 0
        self._shape: tuple[int, int, str] | None = None  # the board the indices are of
        self._open: set[int] = set()
        self._seen: DaggersObservation | None = None  # the observation last read
        # per open clue: (cell, clue, covered neighbours, marked), until a neighbour changes
        self._entries: dict[int, tuple[Cell, int, list[Cell], int]] = {}
        self._fresh: set[int] = set()  # clues (re)read since the last `fresh` call
        self._sorted: list[tuple[Cell, int, list[Cell], int]] | None = None
        # the compiled state of the board read last (KERNEL), and the count of its reads
        # that changed something when `_sorted` was made; `_compiled` turns False for good
        # (the Python below takes over) if a grid holds a token the kernel cannot read
        self._compiled = KERNEL is not None
        self._state: object | None = None
        self._state_shape: tuple[int, int, str] | None = None
        self._state_version = -1

    @property
    def open(self) -> set[Cell]:
        """The clue cells with a covered neighbour (as of the last observation read)."""
        if self._compiled and self._seen is not None:
            return {entry[0] for entry in self.neighbourhoods(self._seen)}
        cells = _indexed(*self._shape)[0] if self._shape else []
        return {cells[i] for i in self._open}

    def __getstate__(self) -> dict[str, object]:
        """What pickles: the compiled state (a capsule) is left out, and the clues still
        fresh in it are carried, so that it is remade from the last grid read."""
        state = self.__dict__.copy()
        if self._state is not None and COMPILED is not None:
            state["_fresh_cells"] = COMPILED.fresh(self._state)
            state["_state"], state["_state_shape"], state["_sorted"] = None, None, None
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        fresh = state.pop("_fresh_cells", None)
        self.__dict__.update(state)
        if fresh is None or self._seen is None:
            return
        seen = self._seen
        if self._kernel_state(seen) is None or COMPILED is None:
            # unpickled where the kernel is not: Python reads the grid anew (all clues fresh)
            self._fall_back()
            return
        COMPILED.read(self._state, seen.grid)
        COMPILED.fresh(self._state, fresh)

    def _kernel_state(self, obs: DaggersObservation) -> object | None:
        """The compiled state of obs's board (made for a new board); None when the Python
        path answers (no kernel when this OpenClues was made, or a token it could not read:
        then never again). Calls go to the module that made the state, whatever KERNEL
        says now."""
        if not self._compiled or COMPILED is None:
            return None
        grid = obs.grid
        shape = (len(grid), len(grid[0]), obs.topology)
        if shape != self._state_shape:  # another board: a state of its own
            cells, around_of, _ = _indexed(*shape)
            try:
                self._state = COMPILED.new(shape[0], shape[1], around_of, cells, COVERED,
                                         FLAGGED, HIT, GOLD)
            except (ValueError, TypeError):
                self._fall_back()
                return None
            self._state_shape, self._sorted = shape, None
        self._seen = obs
        return self._state

    def _fall_back(self) -> None:
        """A grid of tokens the kernel cannot read: the Python path, from the first change."""
        self._compiled, self._state, self._state_shape = False, None, None
        self._seen, self._sorted = None, None

    def _ask_kernel(self, obs: DaggersObservation, ask: str, *args: object) -> Any:
        """COMPILED.<ask>(state, obs.grid, *args) on obs's board's state, or None when the
        Python path answers (then for good, if the kernel could not read the grid)."""
        state = self._kernel_state(obs)
        if state is None or COMPILED is None:
            return None
        try:
            return getattr(COMPILED, ask)(state, obs.grid, *args)
        except (ValueError, TypeError):
            self._fall_back()
            return None

    def _read(self, obs: DaggersObservation) -> None:
        """Bring the entries up to `obs`: re-read the clues around every changed cell."""
        if obs is self._seen:
            return
        self._seen = obs
        news, self.cursor = self.changes.since(obs, self.cursor)
        if not news:
            return
        grid = obs.grid
        shape = (len(grid), len(grid[0]), obs.topology)
        if shape != self._shape:  # another board: nothing read before is of it
            self._shape = shape
            self._open.clear()
            self._entries.clear()
            self._fresh.clear()
        cells, around_of, table = _indexed(*shape)
        width = shape[1]
        entries, open_ = self._entries, self._open
        clue_of, covered, marks = CLUE_OF, COVERED, _MARKS  # locals: read per neighbour
        stale: set[int] = set()
        for (r, c), now in news:
            i = r * width + c
            stale.update(around_of[i])  # the clues around a changed cell see it change
            stale.add(i)
            if clue_of.get(now, -1) is not None:  # a clue (or a token clue_value would read)
                open_.add(i)
            elif now == covered:  # unflagged: its clues have a covered cell again
                open_.update(j for j in around_of[i]
                             if clue_value(grid[j // width][j % width]) is not None)
        fresh = self._fresh
        stale &= open_  # only clues have entries (and only open ones)
        for i in stale:
            entries.pop(i, None)
            cell = cells[i]
            shown = grid[cell[0]][cell[1]]
            k = clue_of.get(shown, -1)
            if k == -1:
                k = clue_value(shown)
            # world.neighbourhood, inline: this loop reads most of an agent's clues
            unknown = []
            marked = 0
            for n in table[i]:
                around = grid[n[0]][n[1]]
                if around == covered:
                    unknown.append(n)
                elif around in marks:
                    marked += 1
            if not unknown or k is None:
                open_.discard(i)
                continue
            entries[i] = (cell, k, unknown, marked)
            fresh.add(i)
        self._sorted = None

    def neighbourhoods(self, obs: DaggersObservation
                       ) -> list[tuple[Cell, int, list[Cell], int]]:
        """As world.clue_neighbourhoods(obs), for the clues with a covered neighbour, in
        reading order (the same list again until the grid changes: do not change it)."""
        version: int | None = self._ask_kernel(obs, "read")
        if version is not None:
            if self._sorted is not None and version == self._state_version:
                return self._sorted
            compiled: list[Entry] | None = self._ask_kernel(obs, "entries", False)
            if compiled is not None:
                self._sorted, self._state_version = compiled, version
                return compiled
        self._read(obs)
        if self._sorted is None:
            entries = self._entries
            self._sorted = [entries[i] for i in sorted(self._open)]
        return self._sorted

    def fresh(self, obs: DaggersObservation) -> list[tuple[Cell, int, list[Cell], int]]:
        """neighbourhoods(obs), but only the clues whose neighbourhood changed since the last
        call (or that are new): a clue read before and unchanged since proves nothing new."""
        compiled: list[Entry] | None = self._ask_kernel(obs, "entries", True)
        if compiled is not None:
            return compiled
        self._read(obs)
        entries, open_ = self._entries, self._open
        out = [entries[i] for i in sorted(self._fresh) if i in open_]
        self._fresh.clear()
        return out


@lru_cache(maxsize=16)
def _indexed(height: int, width: int, topology: str
             ) -> tuple[list[Cell], list[tuple[int, ...]], list[tuple[Cell, ...]]]:
    """A board's cells by index (reading order), and per index its neighbours as indices
    and as cells (world.neighbours' order)."""
    table = neighbours(height, width, topology)
    cells = [(r, c) for r in range(height) for c in range(width)]
    return (cells, [tuple(r * width + c for r, c in table[cell]) for cell in cells],
            [table[cell] for cell in cells])


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
    if clues is not None and fresh:
        # the same pass in C: (probes, flags), each a list of (cell, clue)
        found: tuple[list[tuple[Cell, Cell]], list[tuple[Cell, Cell]]] | None = \
            clues._ask_kernel(obs, "proofs")
        if found is not None:
            probed, flagged = found
            return [(DaggersAction("probe", c), clue) for c, clue in probed] + [
                (DaggersAction("flag", c), clue) for c, clue in flagged]
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
