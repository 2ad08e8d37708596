"""The Exactly One Mazes encoding: steps as edges, degrees, one cell per shape, lazy cycle cuts.

Concepts:
- P_r0c0 (0-based row and column): the cell is on the path. E_r0c0_r0c1: the path steps
  between the two neighbouring cells (an undirected edge).
- rules(board): start and finish are on the path with Exactly(1, their edges); every other
  cell has at most 2 edges, none when off the path (E -> P), and at least 2 when on it
  (P -> AtLeast(2, edges), a guarded node); Exactly(1, P of the cells of shape k) per shape.
  The path may touch itself: nothing forbids neighbouring path cells that are not steps.
  The rings around every 2x2, 2x3 and 3x2 block are forbidden up front (small_rings).
- Connectivity, lazily: degrees alone allow a start-finish path plus detached cycles. A cycle
  through free cells only does no harm (the path alone is then a solution, and it is what is
  read off). For each cycle that holds a shape cell, a cut is added on the same incremental
  oracle. Its region R is the whole connected set of off-path cells around the cycle (the
  largest region the model leaves untouched), and every v in R gives P_v -> (some step leaves
  R). The real path starts outside R, so if it visits R it must cross R's boundary: the cut is
  valid for every solution, kills this model and every other model that keeps the path out of
  R (all the cycles one could draw inside R at once). That is what makes uniqueness proofs
  fast: on generated boards with wide free areas, cutting only the cycle and what it encloses
  needed ~700 rounds on a 20x20, the whole region ~40. Lazy beats an eager encoding here: an
  ordering or shape-count labelling costs ~100k clauses on a 20x20 and was slower on every
  board we tried (one took over 200 s against 2 s); benchmarks/bench_mazes.py reports the cuts.
- MazeSolver: solve(prefix) (a solution extending a walked prefix: the keyboard hint),
  solutions(limit) and count_solutions(limit) with blocking clauses under a retired selector;
  other(): one SAT call, its detached cycles cut but not solved again (an Other: the cells of
  the model's path and cycles, exact when it had no cycle; the generator's repair round);
  add_cut(region) tells a cut found on another board of the size (a cut names no shape, so it
  holds on all of them: the generator's second opinion starts with its family's cuts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import itemgetter

from logic_agents.games.mazes.board import MazeBoard
from logic_agents.logic.ids import IdCardinality, IdClause, Key
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle
from logic_agents.solving.puzzle import SolveResult, raced, result_of
from logic_agents.world.view import Cell

DEFAULT_SOLVER = "glucose4"


class OutOfBudget(Exception):
    """A SAT call ran out of its conflict budget."""


@dataclass(frozen=True)
class Other:
    """A model other than the excluded paths: the cells of its start-finish path and of its
    detached cycles; `exact` when it had no cycle holding a shape cell (a second solution)."""

    cells: frozenset[Cell]
    exact: bool


def cell_key(cell: Cell) -> Key:
    return ("P", f"r{cell[0]}c{cell[1]}")


def edge_key(a: Cell, b: Cell) -> Key:
    a, b = min(a, b), max(a, b)
    return ("E", f"r{a[0]}c{a[1]}", f"r{b[0]}c{b[1]}")


def edges_of(board: MazeBoard) -> list[tuple[Cell, Cell]]:
    out = []
    for r in range(board.height):
        for c in range(board.width):
            if c + 1 < board.width:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < board.height:
                out.append(((r, c), (r + 1, c)))
    return out


def rules(board: MazeBoard, kb: KnowledgeBase | None = None) -> KnowledgeBase:
    """Tell a KB the maze's degree and shape rules (connectivity comes as lazy cuts)."""
    kb = kb if kb is not None else KnowledgeBase()
    cells = [(r, c) for r in range(board.height) for c in range(board.width)]
    p = {cell: kb.var(cell_key(cell)) for cell in cells}
    e = {frozenset(pair): kb.var(edge_key(*pair)) for pair in edges_of(board)}
    items: list[IdClause | IdCardinality | list[int]] = []
    for cell in cells:
        incident = tuple(e[frozenset((cell, n))] for n in board.neighbours(cell))
        if cell in (board.start, board.finish):
            items.append([p[cell]])
            # an end has one step, unless start and finish are one cell (a 1x1 maze): none
            ends = 1 if board.start != board.finish else 0
            items.append(IdCardinality("Exactly", ends, incident))
            continue
        items += [[-edge, p[cell]] for edge in incident]  # a step uses both of its cells
        if len(incident) > 2:  # a corner has only two steps anyway
            items.append(IdCardinality("AtMost", 2, incident))
    for members in board.shapes.values():
        items.append(IdCardinality("Exactly", 1, tuple(p[cell] for cell in members)))
    items += [[-e[frozenset(pair)] for pair in ring] for ring in small_rings(board)]
    kb.tell(*items)
    for cell in cells:  # on the path and not an end: two steps
        if cell not in (board.start, board.finish):
            incident = tuple(e[frozenset((cell, n))] for n in board.neighbours(cell))
            kb.tell_guarded(p[cell], IdCardinality("AtLeast", 2, incident))
    return kb


def small_rings(board: MazeBoard) -> list[list[tuple[Cell, Cell]]]:
    """The steps around every 2x2, 2x3 and 3x2 block: a simple path never holds all of one
    ring, so "not all of them" is a valid clause, told up front. Small cycles are the ones a
    solver builds most often; cutting them eagerly saves most of the lazy rounds."""
    rings = []
    for height, width in ((2, 2), (2, 3), (3, 2)):
        for r in range(board.height - height + 1):
            for c in range(board.width - width + 1):
                border = ([(r, c + k) for k in range(width)]
                          + [(r + k, c + width - 1) for k in range(1, height)]
                          + [(r + height - 1, c + k) for k in range(width - 2, -1, -1)]
                          + [(r + k, c) for k in range(height - 2, 0, -1)])
                rings.append([(a, b) for a, b in zip(border, border[1:] + border[:1])])
    return rings


def encode(board: MazeBoard) -> KnowledgeBase:
    """A fresh KB with the rules (for `cnf`); cycle cuts are added only while solving."""
    return rules(board)


def _picker(indices: list[int]) -> Callable[[list[int]], Sequence[int]]:
    """A model's values at these indices, in order (itemgetter, which needs two or more)."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    return lambda model: [model[i] for i in indices]


class MazeSolver:
    """One board's rules on one incremental oracle, with cycle cuts added as they are found."""

    def __init__(self, board: MazeBoard, solver: str | None = None):
        self.board = board
        self.kb = rules(board)
        self.oracle = SatOracle(self.kb, solver or DEFAULT_SOLVER)
        self.cell_var = {(r, c): self.kb.var(cell_key((r, c)))
                         for r in range(board.height) for c in range(board.width)}
        self.edges = [(a, b, self.kb.var(edge_key(a, b))) for a, b in edges_of(board)]
        # each step's place in `edges`, under both orders of its cells; and the one table the
        # cycle cuts read many thousand times a generated board: each cell's steps, as
        # (place in `edges`, the neighbour it leads to)
        self._step = {pair: i for i, (a, b, _) in enumerate(self.edges)
                      for pair in ((a, b), (b, a))}
        self._incident = {cell: tuple((self._step[cell, n], n) for n in board.neighbours(cell))
                          for cell in self.cell_var}
        self._edge_values = _picker([v - 1 for _, _, v in self.edges])  # a model's, in order
        self.shape_cells: frozenset[Cell] = frozenset()
        self._shape_order: list[Cell] = []  # the shape cells in reading order
        self._shapes_are(board.shapes.values())
        self.cuts = 0
        self.cut_regions: list[frozenset[Cell]] = []  # for inspection and the tests
        self.calls = 0

    def _shapes_are(self, shapes: Iterable[Sequence[Cell]]) -> None:
        self.shape_cells = frozenset(cell for cells in shapes for cell in cells)
        self._shape_order = sorted(self.shape_cells)

    def _edge_assumptions(self, prefix: list[Cell]) -> list[int]:
        return [self.edges[self._step[a, b]][2] for a, b in zip(prefix, prefix[1:])]

    def _model(self, assumptions: list[int], conflicts: int | None = None
               ) -> list[Cell] | None:
        """A solution path under assumptions, cutting detached cycles until there are none.
        With a `conflicts` budget per SAT call, OutOfBudget when one runs out."""
        while True:
            found = self._one_model(assumptions, conflicts)
            if found is None:
                return None
            path, cycles = found
            if not cycles:
                return path

    def _one_model(self, assumptions: list[int], conflicts: int | None = None
                   ) -> tuple[list[Cell], list[set[Cell]]] | None:
        """One SAT call: its start-finish path and the detached cycles that hold a shape cell,
        each of them cut (so no later call meets it again); None when there is no model."""
        self.calls += 1
        answer = self.oracle.solve(assumptions, conflicts=conflicts)
        if answer is None:
            raise OutOfBudget
        if answer is not True:
            return None
        path, cycles = self._split([value > 0 for value in
                                    self._edge_values(self.oracle.raw_model())])
        cut: set[Cell] = set()
        on_path = set(path)
        for cycle in cycles:
            if not cycle & cut:
                cut |= self._cut(cycle, on_path)
        return path, cycles

    def _split(self, used: list[bool]) -> tuple[list[Cell], list[set[Cell]]]:
        """The start-finish path of a model's steps (`used`, in the order of `edges`) and its
        detached cycles that hold a shape cell. A cycle through free cells only is harmless:
        the start-finish path alone already crosses every shape once, so it is a solution;
        only a cycle that takes a shape's one cell from the path needs cutting."""
        incident = self._incident
        finish = self.board.finish
        here, previous = self.board.start, self.board.start
        path = [here]
        while here != finish:  # every cell of the path but its ends has two steps
            for i, n in incident[here]:
                if used[i] and n != previous:
                    break
            previous, here = here, n
            path.append(here)
        seen = set(path)
        cycles = []
        for cell in self._shape_order:
            if cell in seen:
                continue
            if not any(used[i] for i, _ in incident[cell]):
                continue
            component, todo = {cell}, [cell]
            while todo:
                for i, n in incident[todo.pop()]:
                    if used[i] and n not in component:
                        component.add(n)
                        todo.append(n)
            seen |= component
            cycles.append(component)
        return path, cycles

    def _cut(self, cycle: set[Cell], path: set[Cell]) -> set[Cell]:
        """Cut the connected set of off-path cells around a cycle: the real path starts outside
        it, so if it visits any cell of the region it must leave the region by some step."""
        incident = self._incident
        region, todo = set(cycle), list(cycle)
        while todo:
            for _, n in incident[todo.pop()]:
                if n not in path and n not in region:
                    region.add(n)
                    todo.append(n)
        self.add_cut(region)
        return region

    def add_cut(self, region: set[Cell] | frozenset[Cell]) -> None:
        """Tell "a path that visits R leaves R by some step", for a region R of cells that
        holds neither end: valid on every board of this size, whatever its shapes."""
        edges, incident = self.edges, self._incident
        leaving = [edges[i][2] for i in sorted(i for a in region for i, b in incident[a]
                                               if b not in region)]  # in the order of `edges`
        # one literal "some step leaves R" that every cell of R implies: |R| binary clauses and
        # one long one, instead of |R| long ones (a generator keeps thousands of cuts)
        exits = self.kb.pool.id(("_aux", self.kb.pool.top + 1))
        cell_var = self.cell_var
        self.oracle.add([[-exits, *leaving]] + [[-cell_var[cell], exits]
                                                 for cell in sorted(region)])
        self.cuts += 1
        self.cut_regions.append(frozenset(region))

    def solve(self, prefix: list[Cell] | None = None) -> list[Cell] | None:
        """A solution path; with a prefix (a walk from the start), one that begins with it."""
        return self._model(self._edge_assumptions(list(prefix or [])))

    def _excluding(self, excluded: Sequence[list[Cell]]) -> tuple[int, Callable[[list[Cell]], None]]:
        """A fresh selector under which the `excluded` paths are blocked (each by its steps),
        and the function that blocks one more; the caller retires the selector afterwards,
        so the oracle stays reusable."""
        selector = self.kb.pool.id(("_aux", self.kb.pool.top + 1))

        def block(path: list[Cell]) -> None:
            steps = self._edge_assumptions(path)
            self.oracle.add_guarded(selector, [-v for v in steps])

        for path in excluded:
            block(path)
        return selector, block

    def solutions(self, limit: int = 2, prefix: list[Cell] | None = None,
                  extra: list[int] | tuple[int, ...] = (),
                  excluded: Sequence[list[Cell]] = (), conflicts: int | None = None
                  ) -> list[list[Cell]] | None:
        """Up to `limit` different solution paths other than the `excluded` ones (each blocked
        by its steps, under a selector that is retired afterwards, so the oracle stays
        reusable); `extra` assumptions too. With a `conflicts` budget per SAT call, None when
        it ran out before the answer was known."""
        base = self._edge_assumptions(list(prefix or [])) + list(extra)
        selector, block = self._excluding(excluded)
        found: list[list[Cell]] = []
        try:
            while len(found) < limit:
                model_path = self._model([selector, *base], conflicts)
                if model_path is None:
                    break
                found.append(model_path)
                block(model_path)
        except OutOfBudget:
            return None
        finally:
            self.oracle.add([[-selector]])
        return found

    def other(self, extra: list[int] | tuple[int, ...] = (),
              excluded: Sequence[list[Cell]] = (), conflicts: int | None = None
              ) -> Other | None:
        """One SAT call for a model other than the `excluded` paths, its detached cycles cut
        but not solved again: an Other (exact when it had none: a second solution), None
        when there is no model at all (the excluded paths are then the only solutions: the
        cuts are valid on every board); OutOfBudget is raised when `conflicts` ran out.

        What the generator asks each repair round. Solving again until no detached cycle
        is left took 14 SAT calls a round on a 20x20 (5,566 calls for 402 rounds, 12 of
        18 s), while a rough model guides a repair as well as a path does: an L it crosses
        never or twice rules it out too, and the planted path keeps crossing every L once."""
        selector, _ = self._excluding(excluded)
        try:
            found = self._one_model([selector, *extra], conflicts)
        finally:
            self.oracle.add([[-selector]])
        if found is None:
            return None
        path, cycles = found
        return Other(frozenset(set(path).union(*cycles)), not cycles)

    def count_solutions(self, limit: int = 2) -> int:
        return len(self.solutions(limit) or [])

    def next_step(self, prefix: list[Cell]) -> Cell | None:
        """The next cell of a solution that goes on from `prefix`, if one exists."""
        path = self.solve(prefix)
        if path is None or len(path) <= len(prefix):
            return None
        return path[len(prefix)]

    def close(self) -> None:
        self.oracle.close()


class ShapeFamilySolver(MazeSolver):
    """Every board of one size on one incremental solver: shapes are told under selectors and
    switched on by assumptions, so a generator that adds and moves shapes re-encodes nothing,
    and the cycle cuts found for one board keep serving the next."""

    def __init__(self, height: int, width: int, solver: str | None = None):
        super().__init__(MazeBoard(height, width, (0,) * (height * width), "family"), solver)
        self._selectors: dict[frozenset[Cell], int] = {}

    def selector(self, cells: tuple[Cell, ...] | frozenset[Cell]) -> int:
        key = frozenset(cells)
        if key not in self._selectors:
            sel = self.kb.pool.id(("_aux", self.kb.pool.top + 1))
            self.kb.tell_guarded(sel, IdCardinality("Exactly", 1, tuple(
                self.cell_var[c] for c in sorted(key))))
            self._selectors[key] = sel
        return self._selectors[key]

    def shape_solutions(self, shapes: list[tuple[Cell, ...]], limit: int = 2,
                        excluded: Sequence[list[Cell]] = (), conflicts: int | None = None
                        ) -> list[list[Cell]] | None:
        """Solutions of the board with these shapes, other than the `excluded` paths (None:
        the `conflicts` budget ran out)."""
        self._shapes_are(shapes)
        return self.solutions(limit, extra=[self.selector(cells) for cells in shapes],
                              excluded=excluded, conflicts=conflicts)

    def shape_other(self, shapes: list[tuple[Cell, ...]], excluded: Sequence[list[Cell]] = (),
                    conflicts: int | None = None) -> Other | None:
        """`other` on the board with these shapes (OutOfBudget past `conflicts`)."""
        self._shapes_are(shapes)
        return self.other([self.selector(cells) for cells in shapes], excluded, conflicts)


def count_solutions(board: MazeBoard, limit: int = 2) -> int:
    solver = MazeSolver(board)
    try:
        return solver.count_solutions(limit)
    finally:
        solver.close()


# Boards of RACE_CELLS and more: the default solver races CaDiCaL 1.9.5 on two cores
# (logic/portfolio.py). Under 10 renumberings of each of ten generated 20x20 boards, glucose4
# alone ran past 60 s once and took 29.6 s once (median 0.27 s); under the renumbering that
# stalled it, CaDiCaL, CaDiCaL 1.5.3 and MiniSat took 0.3-0.4 s (benchmarks/bench_tails.py
# --family mazes20, docs/BENCHMARKS.md "SAT tails").
RACE_CELLS = 400
RACE_SOLVERS = (DEFAULT_SOLVER, "cadical195")


def _check(board: MazeBoard, unique: bool, solver: str | None) -> SolveResult[list[Cell]]:
    s = MazeSolver(board, solver)
    try:
        return result_of(s.solutions(2 if unique else 1) or [], unique)
    finally:
        s.close()


def solve(board: MazeBoard, unique: bool = True, solver: str | None = None, *,
          race: bool | None = None) -> SolveResult[list[Cell]]:
    """A solution path (and with `unique`, a second one or the proof there is none). `race`:
    RACE_SOLVERS on two cores, the first answer wins (default: when no solver is named and
    the board has RACE_CELLS or more); a board with two solutions always shows the first
    solver's two, so answers never depend on which finished first."""
    if race is None:
        race = solver is None and board.height * board.width >= RACE_CELLS
    if not race:
        return _check(board, unique, solver)


    return raced([partial(_check, board, True, name) for name in RACE_SOLVERS], unique)
