"""sat: the Ooze planner. Every placement comes from queries to one incremental SAT oracle.

Concepts:
- The CNF (encode.py): routes of the next `horizon` tiles after the pipe's open end and the
  placements of the 5 visible pieces; board, queue, open end and deadlines are assumptions, so
  one oracle per game serves every decision and no clause is ever rebuilt.
- Decision, lexicographic, each maximum found by increasing SAT queries on the oracle:
  1. the longest route h (up to the horizon) that still fits;
  2. the guaranteed extension G: positions 1..G all covered (prefix literals);
  3. the covered positions C anywhere on the route (a totalizer over the uncovered ones);
  4. the current piece on the route if some optimum allows it; else parking: the empty cells
     are tried cheapest first (fewest empty neighbours, farthest from the open end) and the
     first one the oracle accepts at (h, G, C) is used; with `count_parking`, every cell is
     asked and `Plan.parking_options` says how many keep the optimum.
- Budget: a query that runs out of its conflict budget counts as "no", so a plan is the best
  one proved, never one assumed.
- Destroy (-3): when the pipe's open end is blocked by an unflowed piece (at the opening, or
  the last laid piece before a wall) and the oracle finds a route once it is gone.
- OozeQuery: what `on_query` receives at each query (`logic-agents cnf ooze` writes it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from logic_agents.games.ooze.encode import (
    CELLS,
    CHANNELS,
    DEADLINE_POSITIONS,
    DEFAULT_HORIZON,
    DIRECTIONS,
    OozeEncoding,
    encoding,
)
from logic_agents.games.ooze.rules import (
    PIECES,
    OpenEnd,
    empty_cells,
    flow_time,
    is_board_cell,
    open_end,
    opposite,
    step,
)
from logic_agents.games.ooze.world import VISIBLE, OozeAction, OozeObservation
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle
from logic_agents.logic.query import Query
from logic_agents.solving.options import solver_option
from logic_agents.world.core import Why
from logic_agents.world.declared import Option
from logic_agents.world.options import positive_int
from logic_agents.world.view import Cell


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


@dataclass
class OozeQuery(Query):
    """One oracle query of the planner: its number (1-based), the observation it was made
    on, and the assumptions it asked under."""

    index: int
    observation: OozeObservation | None
    encoding: OozeEncoding
    assumptions: list[int]

    def __post_init__(self) -> None:
        self.step = self.observation.clock if self.observation is not None else 0
        self.num_vars = self.encoding.top
        self.num_clauses = len(self.encoding.clauses)

    def clauses(self) -> list[list[int]]:
        return self.encoding.clauses

    def legend(self) -> list[str]:
        return list(self.encoding.LEGEND)

    def names(self) -> dict[int, str]:
        return self.encoding.names()


class SatOozeAgent:
    """The planner (see the module docstring)."""

    name = "sat"
    options = (
        Option("horizon", int, DEFAULT_HORIZON, "how many tiles ahead of the open end each "
               "plan routes", metavar="N", parse=positive_int),
        solver_option("glucose4"),
    )

    def __init__(self, horizon: int = DEFAULT_HORIZON, solver: str = "glucose4",
                 count_parking: bool = False, conflict_budget: int | None = 1000,
                 on_query: Callable[[OozeQuery], None] | None = None) -> None:
        self.conflict_budget = conflict_budget
        self.on_query = on_query
        self._observation: OozeObservation | None = None
        self.enc = encoding(horizon)
        self.solver_name = solver
        self.count_parking = count_parking
        self.oracle: SatOracle | None = None
        self.last_plan: Plan | None = None
        self.queries = 0

    def reset(self, seed: int | None = None) -> None:
        # a fresh oracle per game (8 ms): learnt clauses and budgets from earlier games would
        # otherwise make a seed's trajectory depend on what the agent played before
        self.close()
        kb = KnowledgeBase.from_clauses(self.enc.top, self.enc.clauses, self.enc.names())
        self.oracle = SatOracle(kb, self.solver_name)

    def close(self) -> None:
        if self.oracle is not None:
            self.oracle.close()
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
        self.why = self._words(plan)
        if not plan.route and end.route:
            # no route keeps the open end in time: re-open the pipe one laid piece earlier
            blocker = self._blocker(end, board, filled)
            if blocker is not None and self._reopens(obs, blocker):
                return OozeAction("destroy", blocker)
        if plan.cell is None:
            return OozeAction("wait")
        return OozeAction("place", plan.cell)

    @staticmethod
    def _words(plan: Plan) -> Why:
        """The plan in words: how long the route the oracle chose is and where the piece goes
        on it; the route's cells (row first, in order) go with the words as a path, which a
        viewer draws as a line over the board rather than as a list of coordinates."""
        where = ("on the route" if plan.on_route else "parked off the route"
                 if plan.cell is not None else "nowhere")
        if not plan.route:
            return Why(f"no route ({plan.guaranteed} guaranteed in time); this piece {where}")
        (x0, y0), (x1, y1) = plan.route[0], plan.route[-1]
        return Why(f"a route of {len(plan.route)} tiles from ({y0}, {x0}) to ({y1}, {x1}), "
                   f"{plan.guaranteed} guaranteed in time; this piece {where}",
                   [(y, x) for x, y in plan.route], path=True)

    @staticmethod
    def _blocker(end: OpenEnd, board: dict[Cell, str], filled: dict[Cell, set[int]]) -> Cell | None:
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
        base = self.assumptions(after)
        return self._solve(base + self._length(min(2, self.enc.horizon)))

    def assumptions(self, obs: OozeObservation) -> list[int]:
        """The board, queue, open end and deadlines as assumption literals."""
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
        return lits

    def _solve(self, assumptions: list[int]) -> bool:
        """One query; a query that exhausts the conflict budget counts as 'no' (the plan is
        then the best one proved so far, never an unproved one)."""
        self.queries += 1
        if self.on_query is not None:
            self.on_query(OozeQuery(self.queries, self._observation, self.enc, list(assumptions)))
        assert self.oracle is not None, "reset() makes the oracle"
        return self.oracle.solve(assumptions, conflicts=self.conflict_budget) is True

    def _length(self, h: int) -> list[int]:
        enc = self.enc
        return [enc.act[h]] + ([-enc.act[h + 1]] if h < enc.horizon else [])

    def _ask(self, assumptions: list[int]) -> set[int] | None:
        """The true literals of a model, or None (unsatisfiable or out of budget)."""
        if not self._solve(assumptions) or self.oracle is None:
            return None
        return {lit for lit in self.oracle.raw_model() if lit > 0}

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
        base = self.assumptions(obs)
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
    def _parking_cost(cell: Cell, obs: OozeObservation, end: Cell) -> tuple[int, int, int, int]:
        board = obs.pieces
        open_neighbours = sum(1 for d in DIRECTIONS
                              if is_board_cell(step(cell, d)) and step(cell, d) not in board)
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
