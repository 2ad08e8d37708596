"""DaggersWorld: the only code that knows where the daggers are.

Concepts:
- DaggersObservation: the grid as the agent knows it (COVERED, FLAGGED, a clue digit, GOLD, or
  HIT for a dagger it stepped on), lives, the total number of daggers, the step count.
- DaggersAction: probe / flag / unflag a cell; `probe(r, c)` and `flag(r, c)` build them.
- DaggersWorld: reset opens the start cell; step applies one action (RULES.md section 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from logic_agents.errors import IllegalAction
from logic_agents.games.daggers.board import DAGGER, GOLD, DaggersMap, neighbours
from logic_agents.ground.shapes import Record
from logic_agents.world.base import CellAction, GridShape, WorldBase
from logic_agents.world.core import Outcome
from logic_agents.world.view import Cell

COVERED = "?"
FLAGGED = "F"
HIT = "X"
# what clue() reads from a shown token: a digit's count, gold as 0 (any other token: None)
_CLUES: dict[str, int] = {**{str(n): n for n in range(10)}, GOLD: 0}
ActionKind = Literal["probe", "flag", "unflag"]
ACTION_KINDS = ("probe", "flag", "unflag")


@dataclass(frozen=True)
class DaggersObservation(GridShape):
    """What the agent sees. Cells: COVERED, FLAGGED, "0"-"8", GOLD ("g", reads as 0) or HIT."""

    GRID = "grid"

    grid: tuple[tuple[str, ...], ...]
    lives: int
    total_daggers: int
    step: int
    topology: str = "square"

    @cached_property  # read on every step by every agent: looked up once per observation
    def neighbours(self) -> dict[Cell, tuple[Cell, ...]]:
        """The grid's neighbour table (public knowledge, like the board's size)."""
        return neighbours(self.height, self.width, self.topology)

    def at(self, cell: Cell) -> str:
        return self.grid[cell[0]][cell[1]]

    def unknown_cells(self) -> list[Cell]:
        """Covered and not flagged: the cells a probe may choose (reading order)."""
        return list(self._unknown)

    @cached_property  # asked several times per observation by every agent
    def _unknown(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r, row in enumerate(self.grid) if COVERED in row
                     for c, v in enumerate(row) if v == COVERED)

    @cached_property
    def marked(self) -> int:
        """How many cells show a dagger: flagged or hit."""
        return sum(row.count(FLAGGED) + row.count(HIT) for row in self.grid)

    def clue(self, cell: Cell) -> int | None:
        """The dagger count a cell shows (gold reads as 0), or None if it shows none."""
        return _CLUES.get(self.grid[cell[0]][cell[1]])  # every agent's most asked question

    def to_json(self) -> Record:
        return {
            "grid": ["".join(row) for row in self.grid],
            "lives": self.lives,
            "total_daggers": self.total_daggers,
            "step": self.step,
            "topology": self.topology,
        }


def observation_from(record: Record) -> DaggersObservation:
    """The observation `to_json` wrote (what crosses to a player process)."""
    return DaggersObservation(tuple(tuple(row) for row in record["grid"]), int(record["lives"]),
                              int(record["total_daggers"]), int(record["step"]),
                              str(record.get("topology", "square")))


def neighbourhood(obs: DaggersObservation, cell: Cell) -> tuple[list[Cell], int]:
    """A cell's covered neighbours, and how many of its neighbours are marked (flagged or
    hit), reading the grid directly (a hot path of the single-point and probability agents)."""
    grid = obs.grid
    unknown = []
    marked = 0
    for n in obs.neighbours[cell]:
        around = grid[n[0]][n[1]]
        if around == COVERED:
            unknown.append(n)
        elif around in (FLAGGED, HIT):
            marked += 1
    return unknown, marked


# the tokens a grid shows, read at a dict's cost (clue_value is on every agent's hot path;
# a hot loop may read CLUE_OF.get(token, -1) itself and call clue_value only on -1)
CLUE_OF: dict[str, int | None] = {**{str(k): k for k in range(10)}, GOLD: 0,
                                  COVERED: None, FLAGGED: None, HIT: None}


def clue_value(shown: str) -> int | None:
    """The dagger count a shown token reads as (gold reads as 0), or None."""
    value = CLUE_OF.get(shown, -1)
    if value != -1:
        return value
    return int(shown) if shown.isdigit() else None


def clue_neighbourhoods(obs: DaggersObservation
                        ) -> Iterator[tuple[Cell, int, list[Cell], int]]:
    """For every cell showing a clue: (cell, clue, its covered neighbours, how many of its
    neighbours are marked)."""
    for r, row in enumerate(obs.grid):
        for c, shown in enumerate(row):
            k = clue_value(shown)
            if k is not None:
                unknown, marked = neighbourhood(obs, (r, c))
                yield (r, c), k, unknown, marked


@dataclass(frozen=True)
class DaggersAction(CellAction):
    """probe / flag / unflag a cell, written "probe R C" (world.base.CellAction)."""

    kind: ActionKind
    VERBS = ACTION_KINDS
    GAME = "daggers"


def probe(r: int, c: int) -> DaggersAction:
    return DaggersAction("probe", (r, c))


def flag(r: int, c: int) -> DaggersAction:
    return DaggersAction("flag", (r, c))


class DaggersWorld(WorldBase[DaggersObservation, DaggersAction]):
    """Daggers and Gold, a Minesweeper variant (2018 university AI course).

    ## Description
    An H x W grid hides daggers and gold. Clues count the daggers among a cell's neighbours
    (8 on the square grid, 6 on the hex grid of Tornado Sweeper). The world probes the start
    hints on reset, as the rules require. Nettle, Tornado and classic Minesweeper are maps of
    this world with other headers: no gold, hex topology, several hints.

    ## Actions
    `probe (r, c)` uncovers a covered, unflagged cell; `flag (r, c)` marks a covered cell;
    `unflag (r, c)` removes a mark. Anything else raises IllegalAction. A probed 0 or gold
    uncovers its neighbours, cascading; every gold that is uncovered, by a probe or by a
    cascade, gives +1 life.

    ## Observation
    DaggersObservation: the known grid, lives, total daggers, step count. Never the map.

    ## Rewards
    -1 for each dagger hit, +1 on winning, 0 otherwise.

    ## Episode end
    Terminated when every covered cell is a dagger (won) or lives reach 0 (lost). Truncated
    after `max_steps` actions (default 4 per cell).
    """

    game = "a daggers"
    action_type = DaggersAction

    def __init__(self, instance: DaggersMap, *, lives: int | None = None,
                 max_steps: int | None = None):
        if lives is not None and lives < 1:
            raise IllegalAction(f"lives must be at least 1, got {lives}")
        super().__init__()
        self.instance = instance
        self.start_lives = lives if lives is not None else instance.lives
        self.max_steps = max_steps or 4 * instance.height * instance.width
        self._neighbours = instance.neighbours
        self._shape = (instance.height, instance.width)  # read at every step
        self._safe_total = instance.height * instance.width - instance.total_daggers

    def hidden_state(self) -> DaggersMap:
        return self.instance

    def contradicts(self, action: DaggersAction) -> str | None:
        """What the hidden board says against `action` claimed proved, or None.

        A probe claims its cell safe, a flag claims a dagger there (the referee asks after
        a move whose why says `proved`: world.runner).
        """
        r, c = action.cell
        dagger = self.instance.token((r, c)) == DAGGER
        if action.kind == "probe" and dagger:
            return f"({r}, {c}) was probed as proved safe, but it holds a dagger"
        if action.kind == "flag" and not dagger:
            return f"({r}, {c}) was flagged as a proved dagger, but it holds none"
        return None

    # -- the rules, in WorldBase's two hooks ---------------------------------------------------
    def start(self) -> Record:
        h, w = self.instance.height, self.instance.width
        self._grid = [[COVERED] * w for _ in range(h)]
        # observe() hands out the rows as tuples; only the rows changed since are rebuilt
        self._rows = [tuple(row) for row in self._grid]
        self._changed_rows: set[int] = set()
        self._lives = self.start_lives
        self._uncovered_safe = 0
        for hint in self.instance.starts:
            self._uncover(hint)
        if self._uncovered_safe == self._safe_total:
            self.end(Outcome.WON)
        return {"starts": self.instance.starts}

    def play(self, action: DaggersAction) -> tuple[float, Record]:
        r, c = action.checked(*self._shape)
        shown = self._grid[r][c]
        reward = 0.0
        if action.kind == "flag":
            if shown != COVERED:
                raise IllegalAction(f"{action}: only a covered, unflagged cell can be flagged")
            self._show(r, c, FLAGGED)
            event = "flag"
        elif action.kind == "unflag":
            if shown != FLAGGED:
                raise IllegalAction(f"{action}: the cell is not flagged")
            self._show(r, c, COVERED)
            event = "unflag"
        else:
            if shown == FLAGGED:
                raise IllegalAction(f"{action}: the cell is flagged; unflag it first")
            if shown != COVERED:
                raise IllegalAction(f"{action}: the cell is already uncovered")
            if self.instance.token((r, c)) == DAGGER:
                self._show(r, c, HIT)
                self._lives -= 1
                reward -= 1.0
                event = "dagger"
            else:
                event = "gold" if self.instance.token((r, c)) == GOLD else "clue"
                self._uncover((r, c))
        if self._uncovered_safe == self._safe_total:
            reward += 1.0
            self.end(Outcome.WON)
        elif self._lives <= 0:
            self.end(Outcome.LOST)
        return reward, {"event": event, "lives": self._lives}

    def summary(self) -> Record:
        return {"lives_left": self._lives}

    # -- rules ------------------------------------------------------------------------------
    def _show(self, r: int, c: int, token: str) -> None:
        self._grid[r][c] = token
        self._changed_rows.add(r)

    def _uncover(self, cell: Cell) -> None:
        """Uncover a safe cell; zeros and golds open their neighbours, cascading."""
        # _show inline, and the board's tokens read directly: an opening shows dozens of cells
        grid, tokens, changed, table = self._grid, self.instance.tokens, self._changed_rows, \
            self._neighbours
        stack = [cell]
        while stack:
            r, c = stack.pop()
            row = grid[r]
            if row[c] != COVERED and row[c] != FLAGGED:
                continue
            token = tokens[r][c]
            if token == DAGGER:  # a cascade never reaches a dagger; kept as a guard
                continue
            row[c] = token
            changed.add(r)
            self._uncovered_safe += 1
            if token == GOLD:
                self._lives += 1
                stack.extend(table[r, c])
            elif token == "0":
                stack.extend(table[r, c])

    def _grid_now(self) -> tuple[tuple[str, ...], ...]:
        for r in self._changed_rows:
            self._rows[r] = tuple(self._grid[r])
        self._changed_rows.clear()
        return tuple(self._rows)

    def observe(self) -> DaggersObservation:
        return DaggersObservation(
            grid=self._grid_now(),
            lives=self._lives,
            total_daggers=self.instance.total_daggers,
            step=self.steps,
            topology=self.instance.topology,
        )
