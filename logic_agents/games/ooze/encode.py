"""The Ooze planner's CNF: routes of the ooze and placements of the visible queue.

Concepts:
- Route: the next `horizon` tiles the ooze will flow through after the pipe's open end, as
  positions 1..h. Position k is one cell (`at[k, c]`) and the ooze moves on by one direction
  (`move[k, d]`); the channel it needs at position k is {side it came in by, side it leaves by}.
  A route never reverses, never leaves the board or enters the source, and visits a cell twice
  only straight through both ways (a cross, `+`). Position encoding needs no connectivity cuts.
- Support: each route position needs a piece with that channel: a laid piece whose channel is
  still unused, a queue piece placed there, or (`future`) an empty cell left for a piece not yet
  seen, which comes only after every visible piece is placed. `covered[k]`: position k holds a
  laid or queue piece; `prefix[k]`: positions 1..k all do.
- Queue placement: each visible piece goes on its own empty cell, in queue order; pieces that
  do not fit the route must still go somewhere before an unseen one can be used.
- Deadlines (`due[k, m]`): position k must be covered by a laid piece or one of the first m.
- The route ends facing a cell off the route that stays empty (at the horizon it may also face
  a laid piece that takes the ooze).
- Board-independent: the board, the queue, the open end, the deadlines and the length asked are
  inputs given as assumptions, so one solver serves every decision of a game.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool

from logic_agents.games.ooze.rules import (
    PIECES,
    SIZE,
    SOURCE,
    Direction,
    is_board_cell,
    opposite,
    step,
)
from logic_agents.games.ooze.world import VISIBLE
from logic_agents.world.view import Cell

DIRECTIONS: tuple[Direction, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
CHANNELS: tuple[frozenset[Direction], ...] = tuple(dict.fromkeys(
    ch for chans in PIECES.values() for ch in chans))
VERTICAL = frozenset({(0, -1), (0, 1)})
HORIZONTAL = frozenset({(-1, 0), (1, 0)})
CELLS: tuple[Cell, ...] = tuple((x, y) for y in range(SIZE) for x in range(SIZE)
                                if (x, y) != SOURCE)
DEFAULT_HORIZON = 24
DEADLINE_POSITIONS = 2  # m_k = m_1 + 3(k-1) and m_1 >= 1: only positions 1, 2 can be due


class OozeEncoding:
    """The board-independent CNF of routes and placements (see the module docstring)."""

    def __init__(self, horizon: int = DEFAULT_HORIZON):
        self.horizon = horizon
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        # one method per family of constraints, in this order: the variables' ids, and so
        # the formula, are the same for the same horizon
        self._variables()
        self._route()
        self._revisits()
        self._support()
        self._placement()
        self._coverage()
        self._totals()

    def _at_most_one(self, lits: list[int]) -> None:
        self.clauses.extend(CardEnc.atmost(lits, 1, vpool=self.pool,
                                           encoding=EncType.seqcounter).clauses)

    def _variables(self) -> None:
        """The variables, named by their keys (ids in this order)."""
        K = range(1, self.horizon + 1)
        H = self.horizon
        v = self.pool.id
        self.act = {k: v(("act", k)) for k in K}
        self.move = {(k, d): v(("move", k, d)) for k in range(0, H + 1) for d in DIRECTIONS}
        self.at = {(k, c): v(("at", k, c)) for k in K for c in CELLS}
        self.free = {c: v(("free", c)) for c in CELLS}
        self.avail = {(c, t): v(("avail", c, t)) for c in CELLS for t in CHANNELS}
        self.fits = {(i, t): v(("fits", i, t)) for i in range(VISIBLE) for t in CHANNELS}
        self.place = {(i, c): v(("place", i, c)) for i in range(VISIBLE) for c in CELLS}
        self.none = {i: v(("none", i)) for i in range(VISIBLE)}
        self.future = {c: v(("future", c)) for c in CELLS}
        self.visited = {c: v(("visited", c)) for c in CELLS}
        self.stays_empty = {c: v(("stays_empty", c)) for c in CELLS}
        self.support = {(c, t): v(("support", c, t)) for c in CELLS for t in CHANNELS}
        self.covered = {k: v(("covered", k)) for k in K}
        self.prefix = {k: v(("prefix", k)) for k in K}
        self.piece0_at = {k: v(("piece0_at", k)) for k in K}
        self.piece0_on_route = v("piece0_on_route")
        self.due = {(k, m): v(("due", k, m)) for k in range(1, min(H, DEADLINE_POSITIONS) + 1)
                    for m in range(1, VISIBLE + 1)}
    def _route(self) -> None:
        """The route: positions, moves, transitions; where it ends; the channel each position uses."""
        K = range(1, self.horizon + 1)
        H = self.horizon
        add = self.clauses.append
        # the route: positions, moves, transitions
        self._at_most_one([self.move[0, d] for d in DIRECTIONS])
        for k in K:
            if k < H:
                add([-self.act[k + 1], self.act[k]])
            add([-self.act[k]] + [self.move[k, d] for d in DIRECTIONS])
            self._at_most_one([self.move[k, d] for d in DIRECTIONS])
            for d in DIRECTIONS:
                add([-self.move[k - 1, d], -self.move[k, opposite(d)]])  # never reverse
            cells_k = [self.at[k, c] for c in CELLS]
            self._at_most_one(cells_k)
            for c in CELLS:
                add([-self.at[k, c], self.act[k]])
                for d in DIRECTIONS:
                    onward = step(c, d)
                    if not is_board_cell(onward):
                        add([-self.at[k, c], -self.move[k, d]])
                        continue
                    if k < H:
                        add([-self.at[k, c], -self.move[k, d], -self.act[k + 1],
                             self.at[k + 1, onward]])
                    # the route ends facing a cell off the route that stays empty; at the
                    # horizon it may also face a laid piece that takes the ooze (before it,
                    # such a piece would have been the next position, had it led anywhere)
                    if k < H:
                        ends = [-self.at[k, c], -self.move[k, d], self.act[k + 1]]
                        add(ends + [self.stays_empty[onward]])
                    else:
                        ends = [-self.at[k, c], -self.move[k, d]]
                        add(ends + [self.stays_empty[onward]]
                            + [self.avail[onward, t] for t in CHANNELS if opposite(d) in t])
                    add(ends + [-self.visited[onward]])
                # the channel at position k must be supported by the cell
                for came in DIRECTIONS:
                    for leaves in DIRECTIONS:
                        if leaves == opposite(came):
                            continue
                        channel = frozenset({opposite(came), leaves})
                        add([-self.at[k, c], -self.move[k - 1, came], -self.move[k, leaves],
                             self.support[c, channel]])
    def _revisits(self) -> None:
        """Revisits: only a cross, passed straight through both ways."""
        K = range(1, self.horizon + 1)
        H = self.horizon
        v = self.pool.id
        add = self.clauses.append
        # revisits: only a cross, straight through both ways (positions of even distance >= 4;
        # odd distances are different colours of the grid, distance 2 would be a reversal)
        straight = {}
        for k in K:
            for axis, pair in (("v", VERTICAL), ("h", HORIZONTAL)):
                s = straight[k, axis] = v(("straight", k, axis))
                add([-s] + [self.move[k - 1, d] for d in pair])
                add([-s] + [self.move[k, d] for d in pair])
                add([s, -self.move[k - 1, sorted(pair)[0]], -self.move[k, sorted(pair)[0]]])
                add([s, -self.move[k - 1, sorted(pair)[1]], -self.move[k, sorted(pair)[1]]])
        for k in K:
            for k2 in range(k + 4, H + 1, 2):
                for c in CELLS:
                    both = [-self.at[k, c], -self.at[k2, c]]
                    add(both + [straight[k, "v"], straight[k, "h"]])
                    add(both + [straight[k2, "v"], straight[k2, "h"]])
                    add(both + [-straight[k, "v"], -straight[k2, "v"]])
                    add(both + [-straight[k, "h"], -straight[k2, "h"]])
        for k in K:
            for c in CELLS:
                add([-self.at[k, c], self.visited[c]])
        for c in CELLS:
            add([-self.stays_empty[c], self.free[c]])
            for i in range(VISIBLE):
                add([-self.stays_empty[c], -self.place[i, c]])
    def _support(self) -> None:
        """What supports a channel: a laid piece's, a queue piece placed there, or a future piece."""
        v = self.pool.id
        add = self.clauses.append
        # support: a laid piece's unused channel, a queue piece placed there, or a future piece
        for c in CELLS:
            add([-self.future[c], self.free[c]])
            # a piece not yet seen comes only after every visible piece has been placed
            add([-self.future[c], -self.none[VISIBLE - 1]])
            for i in range(VISIBLE):
                add([-self.future[c], -self.place[i, c]])
            for t in CHANNELS:
                ways = [self.avail[c, t], self.future[c]]
                for i in range(VISIBLE):
                    y = v(("queue_support", i, c, t))
                    add([-y, self.place[i, c]])
                    add([-y, self.fits[i, t]])
                    ways.append(y)
                add([-self.support[c, t]] + ways)
    def _placement(self) -> None:
        """Placement: each visible piece on one empty cell, or none."""
        add = self.clauses.append
        # placement: each visible piece on one empty cell (or none, when too few are empty)
        for i in range(VISIBLE):
            lits = [self.place[i, c] for c in CELLS] + [self.none[i]]
            add(lits)
            self._at_most_one(lits)
            if i + 1 < VISIBLE:
                add([-self.none[i], self.none[i + 1]])
            for c in CELLS:
                add([-self.place[i, c], self.free[c]])
        for c in CELLS:
            self._at_most_one([self.place[i, c] for i in range(VISIBLE)])
    def _coverage(self) -> None:
        """Coverage, the guaranteed prefix, the deadlines and the current piece on the route."""
        K = range(1, self.horizon + 1)
        add = self.clauses.append
        # coverage, the guaranteed prefix, deadlines, the current piece on the route
        for k in K:
            add([-self.covered[k], self.act[k]])
            add([-self.prefix[k], self.covered[k]])
            if k > 1:
                add([-self.prefix[k], self.prefix[k - 1]])
            add([-self.piece0_at[k], self.act[k]])
            for c in CELLS:
                add([-self.covered[k], -self.at[k, c], -self.future[c]])
                add([-self.piece0_at[k], -self.at[k, c], self.place[0, c]])
        add([-self.piece0_on_route] + [self.piece0_at[k] for k in K])
        for (k, m), due in self.due.items():
            for c in CELLS:
                add([-due, -self.at[k, c], -self.future[c]])
                for i in range(m, VISIBLE):
                    add([-due, -self.at[k, c], -self.place[i, c]])
    def _totals(self) -> None:
        """The count of uncovered positions, as a totalizer whose bound is an assumption."""
        K = range(1, self.horizon + 1)
        H = self.horizon
        uncovered = [-self.covered[k] for k in K]
        self.totalizer = ITotalizer(uncovered, ubound=H, top_id=self.pool.top)
        self.clauses.extend(self.totalizer.cnf.clauses)
        self.pool.occupy(self.pool.top + 1, self.totalizer.top_id)
        self.top = self.totalizer.top_id

    def cell0_on_route(self, model: set[int], h: int) -> Cell | None:
        """The route cell the model puts the current piece on, if any."""
        for k in range(1, h + 1):
            for c in CELLS:
                if self.at[k, c] in model and self.place[0, c] in model:
                    return c
        return None

    def at_least_covered(self, count: int) -> list[int]:
        """Assumptions for 'at least `count` positions covered'."""
        most_uncovered = self.horizon - count
        if most_uncovered >= self.horizon:
            return []
        return [-self.totalizer.rhs[most_uncovered]]


    def names(self) -> dict[int, str]:
        """DIMACS names of the model's variables, e.g. at_3_x4_y2 (position 3 is cell (4, 2));
        the cardinality encodings' auxiliary variables stay unnamed."""
        direction = {(0, -1): "up", (1, 0): "right", (0, 1): "down", (-1, 0): "left"}

        def part(x: object, kind: object) -> str:
            if kind == "move" and isinstance(x, tuple):
                return direction[x]
            if isinstance(x, tuple) and len(x) == 2:
                return f"x{x[0]}_y{x[1]}"
            if isinstance(x, frozenset):
                glyph = next(g for g, chans in PIECES.items() if len(chans) == 1 and x in chans)
                return {"|": "vertical", "-": "horizontal"}.get(glyph, glyph)
            return str(x)

        out = {}
        for var, obj in self.pool.id2obj.items():
            key = obj if isinstance(obj, tuple) else (obj,)
            out[var] = "_".join(part(x, key[0]) for x in key)
        return out

    LEGEND = (
        "Ooze planner CNF (one per game; the board is given by the unit clauses at the end)",
        "act_k: the route has k positions or more; at_k_xX_yY: position k is cell (X, Y)",
        "move_k_D: the ooze leaves position k going D (move_0: how it enters position 1)",
        "support_xX_yY_G: cell (X, Y) can carry channel G (vertical, horizontal or the elbow "
        "q, e, c, z), by a laid piece's unused channel, a "
        "visible piece placed there, or future: a piece not yet seen)",
        "at_k_c & move_(k-1)_a & move_k_b -> support_c_{channel of entry ~a and exit b}",
        "place_i_xX_yY: visible piece i (0 = current) goes on (X, Y); each on one empty cell",
        "covered_k -> position k holds a laid or visible piece; prefix_k -> covered_1..k",
        "due_k_m: position k must be covered by a laid piece or a visible piece i < m",
        "inputs (units): free_c, avail_c_G (laid channel unused), fits_i_G (piece i has G), "
        "at_1 and move_0 (the open end), due, act (the route length asked)",
    )




_ENCODINGS: dict[int, OozeEncoding] = {}


def encoding(horizon: int = DEFAULT_HORIZON) -> OozeEncoding:
    """The encoding of a horizon, built once per process (its clauses never change)."""
    if horizon not in _ENCODINGS:
        _ENCODINGS[horizon] = OozeEncoding(horizon)
    return _ENCODINGS[horizon]
