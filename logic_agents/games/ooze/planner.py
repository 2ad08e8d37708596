"""sat: the Ooze planner. Every placement comes from queries to one incremental SAT oracle.

Concepts:
- Route: the next `horizon` tiles the ooze will flow through after the pipe's open end, as
  positions 1..h. Position k is one cell (`at[k][c]`) and the ooze moves on by one direction
  (`move[k][d]`); the channel it needs at position k is {side it came in by, side it leaves by}.
  A route never reverses, never leaves the board or enters the source, and visits a cell twice
  only straight through both ways (a cross, `+`). Position encoding needs no connectivity cuts.
- Support: each route position needs a piece with that channel: a laid piece whose channel is
  still unused, a queue piece placed there, or (`future`) an empty cell left for a piece not yet
  seen. `covered[k]`: position k holds a laid or queue piece.
- Queue placement: each of the 5 visible pieces goes on its own empty cell, in queue order, one
  per tick; pieces that do not fit the route must still go somewhere (parking), so the plan
  keeps room to park them.
- Deadlines: the ooze reaches position k at flow_time(tiles + laid route + k); a piece placed
  i ticks from now is in time only if clock + i < that tick. Positions due within the visible
  queue must be covered by a piece early enough.
- Board-independent CNF: the board, the queue, the open end and the deadlines are assumptions,
  so one solver serves every decision of every game, and no clause is ever rebuilt.
- Decision, lexicographic, each maximum found by increasing SAT queries on the oracle:
  1. the longest route h (up to the horizon) that still fits;
  2. the guaranteed extension G: positions 1..G all covered (prefix literals);
  3. the covered positions C anywhere on the route (a totalizer over the uncovered ones);
  4. the current piece on the route if some optimum allows it; else parking: the empty cells
     are tried cheapest first (fewest empty neighbours, farthest from the open end) and the
     first one the oracle accepts at (h, G, C) is used; `parking_options` counts them all.
- Destroy (-3): when the open end holds an unflowed piece that does not fit, or when the
  laid pipe runs into a wall and ends with an unflowed piece.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool
from pysat.solvers import Solver

from logic_agents.games.ooze.rules import (
    PIECES,
    SIZE,
    SOURCE,
    Cell,
    Direction,
    empty_cells,
    flow_time,
    inside,
    open_end,
    opposite,
    step,
)
from logic_agents.games.ooze.world import VISIBLE, OozeAction, OozeObservation
from logic_agents.logic.dimacs import format_dimacs

DIRECTIONS: tuple[Direction, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
CHANNELS: tuple[frozenset[Direction], ...] = tuple(dict.fromkeys(
    ch for chans in PIECES.values() for ch in chans))
VERTICAL = frozenset({(0, -1), (0, 1)})
HORIZONTAL = frozenset({(-1, 0), (1, 0)})
CELLS: tuple[Cell, ...] = tuple((x, y) for y in range(SIZE) for x in range(SIZE)
                                if (x, y) != SOURCE)
DEFAULT_HORIZON = 24
DEADLINE_POSITIONS = 2  # m_k = m_1 + 3(k-1) and m_1 >= 1: only positions 1, 2 can be due


def _valid(cell: Cell) -> bool:
    return inside(cell) and cell != SOURCE


@dataclass(frozen=True)
class Plan:
    """What the oracle chose: the route cells (positions 1..h), G, C, and the cell of the
    current piece (None: no empty cell)."""

    route: tuple[Cell, ...]
    guaranteed: int
    covered: int
    cell: Cell | None
    on_route: bool
    placements: tuple[Cell | None, ...] = ()  # the model's cell for each visible piece
    parking_options: int | None = None


class OozeEncoding:
    """The board-independent CNF of routes and placements (see the module docstring)."""

    def __init__(self, horizon: int = DEFAULT_HORIZON):
        self.horizon = H = horizon
        pool = self.pool = IDPool()
        v = pool.id
        self.clauses: list[list[int]] = []
        add = self.clauses.append
        K = range(1, H + 1)
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
        cardinality = EncType.seqcounter

        def at_most_one(lits: list[int]) -> None:
            self.clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=cardinality).clauses)

        # the route: positions, moves, transitions
        at_most_one([self.move[0, d] for d in DIRECTIONS])
        for k in K:
            if k < H:
                add([-self.act[k + 1], self.act[k]])
            add([-self.act[k]] + [self.move[k, d] for d in DIRECTIONS])
            at_most_one([self.move[k, d] for d in DIRECTIONS])
            for d in DIRECTIONS:
                add([-self.move[k - 1, d], -self.move[k, opposite(d)]])  # never reverse
            cells_k = [self.at[k, c] for c in CELLS]
            at_most_one(cells_k)
            for c in CELLS:
                add([-self.at[k, c], self.act[k]])
                for d in DIRECTIONS:
                    onward = step(c, d)
                    if not _valid(onward):
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
        # placement: each visible piece on one empty cell (or none, when too few are empty)
        for i in range(VISIBLE):
            lits = [self.place[i, c] for c in CELLS] + [self.none[i]]
            add(lits)
            at_most_one(lits)
            if i + 1 < VISIBLE:
                add([-self.none[i], self.none[i + 1]])
            for c in CELLS:
                add([-self.place[i, c], self.free[c]])
        for c in CELLS:
            at_most_one([self.place[i, c] for i in range(VISIBLE)])
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
        uncovered = [-self.covered[k] for k in K]
        self.totalizer = ITotalizer(uncovered, ubound=H, top_id=pool.top)
        self.clauses.extend(self.totalizer.cnf.clauses)
        pool.occupy(pool.top + 1, self.totalizer.top_id)
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


def encoding(horizon: int) -> OozeEncoding:
    if horizon not in _ENCODINGS:
        _ENCODINGS[horizon] = OozeEncoding(horizon)
    return _ENCODINGS[horizon]


def _channel_index(t: frozenset[Direction]) -> int:
    return CHANNELS.index(t)


@dataclass
class OozeQuery:
    """One oracle query of the planner: its number (1-based), the observation it was made
    on, and the assumptions it asked under."""

    index: int
    observation: OozeObservation | None
    encoding: OozeEncoding
    assumptions: list[int]

    @property
    def step(self) -> int:
        return self.observation.clock if self.observation is not None else 0

    @property
    def num_vars(self) -> int:
        return self.encoding.top

    @property
    def num_clauses(self) -> int:
        return len(self.encoding.clauses)

    def legend(self) -> list[str]:
        return list(self.encoding.LEGEND)

    def names(self) -> dict[int, str]:
        return self.encoding.names()

    def to_dimacs(self, comments: list[str]) -> str:
        """The query as one CNF: the planner's clauses plus its assumptions as unit clauses."""
        clauses = self.encoding.clauses + [[a] for a in self.assumptions]
        return format_dimacs(self.num_vars, clauses, self.names(), comments)


class SatOozeAgent:
    """The planner (see the module docstring)."""

    name = "sat"

    def __init__(self, horizon: int = DEFAULT_HORIZON, solver: str = "glucose4",
                 count_parking: bool = False, conflict_budget: int | None = 1000,
                 on_query: Callable[[OozeQuery], None] | None = None) -> None:
        self.conflict_budget = conflict_budget
        self.on_query = on_query
        self._observation: OozeObservation | None = None
        self.enc = encoding(horizon)
        self.solver_name = solver
        self.count_parking = count_parking
        self.oracle: Solver | None = None
        self.last_plan: Plan | None = None
        self.queries = 0

    def reset(self, seed: int | None = None) -> None:
        # a fresh oracle per game (8 ms): learnt clauses and budgets from earlier games would
        # otherwise make a seed's trajectory depend on what the agent played before
        self.close()
        self.oracle = Solver(name=self.solver_name, bootstrap_with=self.enc.clauses)

    def close(self) -> None:
        if self.oracle is not None:
            self.oracle.delete()
            self.oracle = None

    # -- the decision ------------------------------------------------------------------
    def act(self, obs: OozeObservation) -> OozeAction:
        if self.oracle is None:
            self.reset()
        self._observation = obs
        board = obs.pieces
        filled = {c: set(ch) for c, ch in obs.filled}
        end = open_end(board, filled, obs.head, obs.heading)
        if end.blocked:
            blocker = self._blocker(end, board, filled)
            if blocker is not None and self._reopens(obs, blocker):
                return OozeAction("destroy", blocker)
            return OozeAction("wait")  # the pipe ends here whatever is placed
        if not empty_cells(board):
            return OozeAction("wait")
        plan = self.plan(obs)
        self.last_plan = plan
        if not plan.route and end.route:
            # no route keeps the open end in time: re-open the pipe one laid piece earlier
            blocker = self._blocker(end, board, filled)
            if blocker is not None and self._reopens(obs, blocker):
                return OozeAction("destroy", blocker)
        if plan.cell is None:
            return OozeAction("wait")
        return OozeAction("place", plan.cell)

    @staticmethod
    def _blocker(end, board, filled) -> Cell | None:
        """An unflowed piece whose removal reopens the pipe: the one at the blocked opening,
        else the last laid piece before a wall or the source."""
        if end.cell in board and end.cell not in filled:
            return end.cell
        for cell, _ in reversed(end.route):
            if cell not in filled:
                return cell
        return None

    def _reopens(self, obs: OozeObservation, cell: Cell) -> bool:
        """Would destroying `cell` leave a route of length 2 or more the queue can keep in
        time (the oracle decides, on the board after the destroy)?"""
        after = replace(obs, board=tuple((c, g) for c, g in obs.board if c != cell),
                        clock=obs.clock + 1)
        base, _ = self.assumptions(after)
        return self._solve(base + self._length(min(2, self.enc.horizon)))

    def assumptions(self, obs: OozeObservation) -> tuple[list[int], int]:
        """The board, queue, open end and deadlines as assumption literals; and the number of
        positions of laid pipe between the ooze and the open end."""
        enc = self.enc
        board = obs.pieces
        filled = {c: set(ch) for c, ch in obs.filled}
        end = open_end(board, filled, obs.head, obs.heading)
        used = {(c, PIECES[board[c]][ch]) for c, chans in filled.items() for ch in chans}
        used |= {(c, PIECES[board[c]][ch]) for c, ch in end.route}
        lits = []
        for c in CELLS:
            glyph = board.get(c)
            lits.append(enc.free[c] if glyph is None else -enc.free[c])
            for t in CHANNELS:
                ok = glyph is not None and t in PIECES[glyph] and (c, t) not in used
                lits.append(enc.avail[c, t] if ok else -enc.avail[c, t])
        for i in range(VISIBLE):
            glyph = obs.queue[i] if i < len(obs.queue) else None
            for t in CHANNELS:
                ok = glyph is not None and t in PIECES[glyph]
                lits.append(enc.fits[i, t] if ok else -enc.fits[i, t])
        for i in range(len(obs.queue), VISIBLE):
            lits.append(enc.none[i])
        lits.append(enc.at[1, end.cell])
        lits.append(enc.move[0, opposite(end.entry)])
        laid = len(end.route)
        for k in range(1, min(enc.horizon, DEADLINE_POSITIONS) + 1):
            m = flow_time(obs.tiles + laid + k) - obs.clock
            if m <= VISIBLE:
                lits.append(enc.due[k, max(m, 1)])
        return lits, laid

    def _solve(self, assumptions: list[int]) -> bool:
        """One query; a query that exhausts the conflict budget counts as 'no' (the plan is
        then the best one proved so far, never an unproved one)."""
        self.queries += 1
        if self.on_query is not None:
            self.on_query(OozeQuery(self.queries, self._observation, self.enc, list(assumptions)))
        if self.conflict_budget is None:
            return self.oracle.solve(assumptions=assumptions)
        self.oracle.conf_budget(self.conflict_budget)
        return self.oracle.solve_limited(assumptions=assumptions) is True

    def _length(self, h: int) -> list[int]:
        enc = self.enc
        return [enc.act[h]] + ([-enc.act[h + 1]] if h < enc.horizon else [])

    def _ask(self, assumptions: list[int]) -> set[int] | None:
        """The true literals of a model, or None (unsatisfiable or out of budget)."""
        if not self._solve(assumptions):
            return None
        return {lit for lit in self.oracle.get_model() if lit > 0}

    def _prefix(self, model: set[int], h: int) -> int:
        covered = self.enc.covered
        g = 0
        while g < h and covered[g + 1] in model:
            g += 1
        return g

    def _count_covered(self, model: set[int], h: int) -> int:
        return sum(1 for k in range(1, h + 1) if self.enc.covered[k] in model)

    def plan(self, obs: OozeObservation) -> Plan:
        enc = self.enc
        base, _ = self.assumptions(obs)
        # 1. the longest route that fits; downwards, because a shorter route can fail where a
        #    longer one fits (its end may face a cell that a visible piece must take)
        h, model = enc.horizon, None
        while h and model is None:
            model = self._ask(base + self._length(h))
            h -= model is None
        if model is None:
            return self._park_anywhere(obs)
        fixed = base + self._length(h)
        # 2. the guaranteed extension: positions 1..g all covered
        g = self._prefix(model, h)
        while g < h:
            found = self._ask(fixed + [enc.prefix[g + 1]])
            if found is None:
                break
            model, g = found, self._prefix(found, h)
        if g:
            fixed = fixed + [enc.prefix[g]]
        # 3. covered positions anywhere on the route
        covered = self._count_covered(model, h)
        while covered < h:
            found = self._ask(fixed + enc.at_least_covered(covered + 1))
            if found is None:
                break
            model, covered = found, self._count_covered(found, h)
        fixed = fixed + enc.at_least_covered(covered)
        # 4. the current piece: on the route if an optimum allows it, else the cheapest parking
        if enc.cell0_on_route(model, h) is None:
            found = self._ask(fixed + [enc.piece0_on_route])
            model = found if found is not None else model
        if enc.cell0_on_route(model, h) is not None:
            return Plan(self._route(model, h), g, covered, self._cell0(model), True,
                        self._placements(model))
        route = self._route(model, h)
        chosen, count = None, 0
        for c in sorted(empty_cells(obs.pieces),
                        key=lambda c: self._parking_cost(c, obs, route[0])):
            found = self._ask(fixed + [enc.place[0, c]])
            if found is not None:
                count += 1
                if chosen is None:
                    chosen, model = c, found
                    if not self.count_parking:
                        break
        if chosen is None:
            chosen = self._cell0(model)
        return Plan(self._route(model, h), g, covered, chosen, False, self._placements(model),
                    count if self.count_parking else None)

    def _park_anywhere(self, obs: OozeObservation) -> Plan:
        free = empty_cells(obs.pieces)
        end = open_end(obs.pieces, {c: set(ch) for c, ch in obs.filled}, obs.head,
                       obs.heading).cell
        cell = min(free, key=lambda c: self._parking_cost(c, obs, end)) if free else None
        return Plan((), 0, 0, cell, False)

    @staticmethod
    def _parking_cost(cell: Cell, obs: OozeObservation, end: Cell) -> tuple[int, int]:
        board = obs.pieces
        open_neighbours = sum(1 for d in DIRECTIONS
                              if _valid(step(cell, d)) and step(cell, d) not in board)
        distance = abs(cell[0] - end[0]) + abs(cell[1] - end[1])
        return (open_neighbours, -distance, cell[1], cell[0])

    def _route(self, model: set[int], h: int) -> tuple[Cell, ...]:
        enc = self.enc
        return tuple(next(c for c in CELLS if enc.at[k, c] in model) for k in range(1, h + 1))

    def _cell0(self, model: set[int]) -> Cell | None:
        return self._placements(model)[0]

    def _placements(self, model: set[int]) -> tuple[Cell | None, ...]:
        enc = self.enc
        return tuple(next((c for c in CELLS if enc.place[i, c] in model), None)
                     for i in range(VISIBLE))
