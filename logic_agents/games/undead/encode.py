"""The Undead encoding: every rule as an Exactly node a person can read; solving and counting.

Concepts:
- G_r0c0, V_r0c0, Z_r0c0 (0-based row and column): the cell holds a ghost, vampire or zombie.
- rules(puzzle): Exactly(1, G, V, Z) per monster cell; Exactly(total, ...) per monster type;
  one Exactly(clue, ...) per line of sight over its "seen" literals: ~G before a bounce (a
  vampire or zombie is seen), ~V after it (a ghost or zombie). A cell the sight passes twice
  is listed twice and counts twice. Givens are unit clauses.
- UndeadSolver: that KB on one incremental oracle; solve, count_solutions(limit), check.
- solve: the seen core (seen.py: two literals per open cell, givens substituted), which
  answers "a solution, and is there a second?" in half the time of this KB; on boards of
  RACE_CELLS and more two of its set-ups race on two cores (logic/portfolio.py),
  RACE_SETUPS, so one solver's bad luck on a renumbering is cut by the other's; below, the
  first set-up runs alone (SMALL_BOARD_SETUP up to SMALL_BOARD_CELLS).
- LayoutSolver (layout.py): one mirror layout for many puzzles, on one solver.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.seen import NATIVE, SeenCore
from logic_agents.games.undead.sight import clue_entry
from logic_agents.ground.shapes import Record
from logic_agents.logic.certify import certifying_now
from logic_agents.logic.ids import IdCardinality, IdClause, Key
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle
from logic_agents.solving.puzzle import SolveResult, raced, result_of
from logic_agents.world.core import Why

# The encoding of the three large totals, by benchmarks/bench_undead.py (docs/BENCHMARKS.md,
# build + solve + uniqueness): up to 20x20 the modulo totalizer is fastest with the best worst
# case (median 81 ms, max 216 ms on ten 20x20 boards; the sequential counter 125/356 ms); on
# 30x30 the plain totalizer is the steadiest (max 9 s, where the others reach 28-79 s).
DEFAULT_CARD_ENCODING = "kmtotalizer"
LARGE_BOARD_CELLS = 400
LARGE_BOARD_ENCODING, LARGE_BOARD_TOTALS = "totalizer", "all"


def default_encoding(puzzle: UndeadPuzzle) -> tuple[str, str]:
    """(cardinality encoding, totals stated) for a board, as measured."""
    if puzzle.width * puzzle.height > LARGE_BOARD_CELLS:
        return LARGE_BOARD_ENCODING, LARGE_BOARD_TOTALS
    return DEFAULT_CARD_ENCODING, "all"
DEFAULT_SOLVER = "glucose4"
# Boards of 300 cells and more: CaDiCaL 1.9.5. On the four sgt-style 20x20 boards with givens
# (../shared/data/undead/20x20givens-public.tsv, benchmarks/bench_undead_givens.py), after the
# warm start, glucose4 needs up to 2.1 s to prove one unique, CaDiCaL 1.9.5 at most 1.1 s; on
# this project's own 20x20 boards the two are alike (median 0.07 s); below 300 cells nothing
# separates them.
LARGE_BOARD_SOLVER, LARGE_SOLVER_CELLS = "cadical195", 300


def default_solver(puzzle: UndeadPuzzle) -> str:
    return (LARGE_BOARD_SOLVER if puzzle.width * puzzle.height >= LARGE_SOLVER_CELLS
            else DEFAULT_SOLVER)
# encodings that count (pairwise, ladder and bitwise only say "at most one")
COUNTING_ENCODINGS = ("seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer",
                      "kmtotalizer")


def var_key(monster: str, r: int, c: int) -> Key:
    """The key of "cell (r, c) holds `monster`" (0-based r, c); its name is G_r0c0 for (0, 0)."""
    return (monster, f"r{r}c{c}")


def rules(puzzle: UndeadPuzzle, kb: KnowledgeBase | None = None, *,
          totals: str = "all") -> KnowledgeBase:
    """Tell a KB the puzzle as Exactly nodes (and its givens as units).

    The nodes are stated over int literals (IdCardinality): building a 20x20 puzzle takes
    milliseconds instead of the tenth of a second sympy objects cost, and the KB still prints
    every node as the sympy Exactly(...) a person reads (kb.pretty(), `cnf`).
    `totals="two"` states only the ghost and vampire totals: the zombies' then follows from
    one monster per cell (a measured option; see benchmarks/bench_undead.py); `totals="none"`
    leaves them out (a relaxation, for measuring what the totals cost)."""
    kb = kb if kb is not None else KnowledgeBase(card_encoding=DEFAULT_CARD_ENCODING)
    cells = puzzle.monster_cells
    x = {(i, m): kb.var(var_key(m, *puzzle.cell(i)))  # ids cell-major, then G V Z
         for i in cells for m in MONSTERS}
    items: list[IdClause | IdCardinality | list[int]] = [
        IdCardinality("Exactly", 1, tuple(x[i, m] for m in MONSTERS)) for i in cells]
    for sight in puzzle.sights:
        clue = puzzle.clues[sight.clue]
        if clue is None or (clue == 0 and not sight.visits):
            continue  # no clue, or a sight that sees no cell and says nothing
        # seen: not a ghost before a bounce (V or Z), not a vampire after one (G or Z)
        seen = tuple(-x[cell, "V" if bounced else "G"] for cell, bounced in sight.visits)
        items.append(IdCardinality("Exactly", clue, seen))
    items += [[x[i, m]] for i, m in puzzle.givens.items()]
    kb.tell(*items)
    tell_totals(puzzle, kb, totals)
    return kb


def tell_totals(puzzle: UndeadPuzzle, kb: KnowledgeBase, totals: str = "all") -> None:
    """The monster totals, told last: a solver that has first solved the rest (quick: the
    clues alone leave many solutions) keeps what it learned, and the totals then cost a
    fraction of what they cost asked cold (UndeadSolver)."""
    cells = puzzle.monster_cells
    for m, total in zip(MONSTERS, puzzle.counts):
        if totals == "none" or (totals == "two" and m == "Z"):
            continue
        kb.tell(IdCardinality("Exactly", total,
                              tuple(kb.var(var_key(m, *puzzle.cell(i))) for i in cells)))


def rule_parts(puzzle: UndeadPuzzle, totals: str = "all"
               ) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """(words, cells) of each formula `rules` tells, in order: a cell's own rule names the
    cell, a clue's names the clue's place on the frame (row or column -1 or past the edge)."""
    names = {"G": "ghosts", "V": "vampires", "Z": "zombies"}
    out: list[tuple[str, tuple[tuple[int, int], ...]]] = []
    for i in puzzle.monster_cells:
        r, c = puzzle.cell(i)
        out.append((f"r{r}c{c} holds one monster", ((r, c),)))
    for sight in puzzle.sights:
        clue = puzzle.clues[sight.clue]
        if clue is None or (clue == 0 and not sight.visits):
            continue
        r, c, (dr, dc) = clue_entry(sight.clue, puzzle.width, puzzle.height)
        edge = ("the top of column" if dr == 1 else "the bottom of column" if dr == -1
                else "the left of row" if dc == 1 else "the right of row")
        out.append((f"clue {clue} at {edge} {c if dr else r}", ((r - dr, c - dc),)))
    for m, total in zip(MONSTERS, puzzle.counts):
        if not (totals == "none" or (totals == "two" and m == "Z")):
            out.append((f"{total} {names[m]} in all", ()))
    return out


def encode(puzzle: UndeadPuzzle, card_encoding: str | None = None) -> KnowledgeBase:
    """A fresh KB holding the whole puzzle (for `cnf`), with all three totals."""
    return rules(puzzle, KnowledgeBase(card_encoding=card_encoding
                                       or default_encoding(puzzle)[0]))


def fill_monsters(grid: str, ids: dict[int, list[int]], model: Iterable[int]) -> str:
    """The grid with each cell's monster from a model (ids: cell -> [G, V, Z] variables)."""
    true = {lit for lit in model if lit > 0}
    out = list(grid)
    for i, vs in ids.items():
        for m, v in zip(MONSTERS, vs):
            if v in true:
                out[i] = m
    return "".join(out)


class UndeadSolver:
    """One puzzle's encoding on one incremental SAT oracle."""

    def __init__(self, puzzle: UndeadPuzzle, solver: str | None = None, *,
                 card_encoding: str | None = None, totals: str | None = None,
                 shuffle: int | None = None):
        self.puzzle = puzzle
        default_card, default_totals = default_encoding(puzzle)
        card_encoding, totals = card_encoding or default_card, totals or default_totals
        self.totals = totals
        self._parts: list[tuple[str, tuple[tuple[int, int], ...]]] | None = None
        self.kb = rules(puzzle, KnowledgeBase(card_encoding=card_encoding), totals="none")
        self.oracle = SatOracle(self.kb, solver or default_solver(puzzle), shuffle=shuffle)
        if totals != "none":
            # warm start: solve without the totals first (milliseconds), then tell them. On
            # the sgt-style 20x20 boards this takes the worst glucose4 solve from 6.5 s to 1 s
            # (benchmarks/bench_undead_givens.py); what is learned without them still holds
            self.oracle.solve()
            tell_totals(puzzle, self.kb, totals)
        self.ids = {i: [self.kb.var(var_key(m, *puzzle.cell(i))) for m in MONSTERS]
                    for i in puzzle.monster_cells}
        self.monster_vars = [v for vs in self.ids.values() for v in vs]

    def literal(self, cell: int, monster: str) -> int:
        return self.ids[cell][MONSTERS.index(monster)]

    def why(self, cell: int, monster: str, placed: dict[int, str]) -> Why:
        """A minimal set of the clues, totals, givens and placed monsters that forces the
        monster into the cell, in words."""
        found = self.oracle.explain(self.literal(cell, monster), self.assumptions(placed))
        r, c = self.puzzle.cell(cell)
        if found is None:
            return Why(f"r{r}c{c}={monster}: entailed")
        if self._parts is None:  # the words of the rules, once per solver
            self._parts = rule_parts(self.puzzle, self.totals)
        parts = self._parts
        position = {id(f): k for k, (f, _, _) in enumerate(self.kb.told)}
        facts, cells = [], []
        for lit in found.given:
            for i, vs in self.ids.items():
                if lit in vs:
                    rr, cc = self.puzzle.cell(i)
                    facts.append(f"r{rr}c{cc}={MONSTERS[vs.index(lit)]}")
                    cells.append((rr, cc))
        rules_used = []
        for f in found.formulas:
            k = position.get(id(f), -1)
            words, where = parts[k] if 0 <= k < len(parts) else (str(f), ())
            rules_used.append(words)
            cells.extend(where)
        return Why(f"r{r}c{c}={monster}: " + ", ".join(facts + rules_used)
                   + ("" if found.minimal else " (not minimised)"), cells)

    def assumptions(self, placed: dict[int, str]) -> list[int]:
        return [self.literal(i, m) for i, m in placed.items()]

    def decode(self, model: Iterable[int]) -> str:
        return fill_monsters(self.puzzle.grid, self.ids, model)

    def solve(self, placed: dict[int, str] | None = None) -> str | None:
        """A solution (that keeps `placed` monsters), or None if there is none."""
        if self.oracle.solve(self.assumptions(placed or {})) is not True:
            return None
        return self.decode(self.oracle.raw_model())

    def solutions(self, limit: int = 2, placed: dict[int, str] | None = None) -> list[str]:
        """Up to `limit` different solutions; a solution is blocked by its true monster
        literals alone, which one-hot cells make enough."""
        models = self.oracle.raw_models(limit, over=self.monster_vars,
                                        assumptions=self.assumptions(placed or {}),
                                        true_only=True)
        return [self.decode(m) for m in models]

    def count_solutions(self, limit: int = 2) -> int:
        return len(self.solutions(limit))

    def check(self, unique: bool = True) -> SolveResult[str]:
        if not unique:
            found = self.solve()
            return result_of([found] if found else [], unique=False)
        return result_of(self.solutions(2), unique=True)

    def close(self) -> None:
        self.oracle.close()


def count_solutions(puzzle: UndeadPuzzle, limit: int = 2) -> int:
    """How many solutions, counting up to `limit` (limit=2 proves uniqueness)."""
    solver = UndeadSolver(puzzle)
    try:
        return solver.count_solutions(limit)
    finally:
        solver.close()


# The set-ups that race on large boards (SeenCore keywords). First: CaDiCaL 1.9.5 in its
# focused mode (stabilize=0) with the totals by the modulo totalizer (mtotalizer), measured
# in-process on sgt board 1 (the hardest), 6-12 renumberings, when the totals' leaves were
# row-major: median 0.88 s, where its default mode took 1.41 s and the k-modulo totalizer
# 1.15 s. Second: CaDiCaL 1.5.3 as it comes, its totals' leaves met from the opposite
# corner: the leaf order is worth more than the solver's luck (on the four sgt boards turned
# every way, 3 renumberings each, the slowest board's median alone was 0.74 s in either
# order, and 0.38 s for the race of the two orders; the same order twice: 0.71 s). The first
# is the default set-up alone, and the only one whose second solution is taken, so an
# answer with two solutions never depends on which finished first.
RACE_SETUPS: tuple[Record, ...] = (
    {"solver": "cadical195", "options": {"stabilize": 0}, "total_encoding": "mtotalizer"},
    {"solver": "cadical153", "leaves": "opposite"})
# The set-up on boards of up to SMALL_BOARD_CELLS (the real game's go to 54): Minicard's
# native cardinality (seen.NATIVE). On the game's 60 shipped 7x7 puzzles: median 0.13 ms
# in-process against 1.9 ms for RACE_SETUPS[0], whose time was adding its counters' clauses
# (docs/BENCHMARKS.md, "Undead beside the real game"). Not above: without learned counts
# Minicard met a 20x20 board with givens it took 144 s to prove (CaDiCaL: 0.4 s).
SMALL_BOARD_SETUP: Record = {"solver": "minicard", "clue_encoding": NATIVE,
                             "total_encoding": NATIVE}
SMALL_BOARD_CELLS = 100
# Above SMALL_BOARD_CELLS, Minicard goes first under this many conflicts in all (its first
# solution and the proof there is no other together), and the set-ups below only when it
# runs out. What a board past it wastes is the budget (about 0.1 s), so it should be about
# what CaDiCaL takes on such boards: 5,000 made one 17x17 board cost 2.3x Minicard alone
# (issue 55; docs/BENCHMARKS.md, "Undead without the cliff")
MINICARD_CONFLICTS = 20000
# Boards of this many cells and more race RACE_SETUPS on two cores. Not 20x20 (issue 42,
# docs/BENCHMARKS.md "Undead beside the real game"): on 60 boards it had not been tuned on,
# 5 renumberings each, whole processes, the first set-up alone took at most 0.61 s of CPU
# (median 0.26 s), the race up to 0.94 s (median 0.37 s) for no shorter wall time (max
# 0.58 against 0.61 s); with both cores busy the race ran up to 1.35 s wall and 1.08 s of
# CPU on the public boards, the set-up alone 0.89 s and 0.59 s. On 30x30 the race still
# cuts the tail (max 0.89 s against 1.31 s for either set-up alone, "SAT tails: undead30").
RACE_CELLS = 500


def check_with(puzzle: UndeadPuzzle, setup: Record, solver: str | None = None,
               shuffle: int | None = None, unique: bool = True) -> SolveResult[str]:
    """The check under one set-up (SeenCore keywords; `solver` overrides the set-up's) on a
    solver of its own: a solution, and with `unique` a second one or the proof there is none."""
    setup = dict(setup)
    if solver is not None:
        setup["solver"] = solver
    if not str(setup.get("solver", "")).startswith("cadical"):
        setup.pop("options", None)  # CaDiCaL's own options
    with SeenCore(puzzle, shuffle=shuffle, **setup) as core:
        return result_of(core.solutions(2 if unique else 1) or [], unique)


def within_budget(puzzle: UndeadPuzzle, conflicts: int, shuffle: int | None = None,
                  unique: bool = True) -> SolveResult[str] | None:
    """The check under SMALL_BOARD_SETUP (Minicard's native cardinalities), its calls under
    `conflicts` in all; None when they ran out of them."""
    with SeenCore(puzzle, shuffle=shuffle, **SMALL_BOARD_SETUP) as core:
        found = core.solutions(2 if unique else 1, conflicts)
    return None if found is None else result_of(found, unique)


def solve(puzzle: UndeadPuzzle, unique: bool = True, solver: str | None = None, *,
          race: bool | None = None, shuffle: int | None = None) -> SolveResult[str]:
    """A solution (and with `unique`, a second one or the proof there is none), from the
    seen core (seen.py). With no solver named and no `race` asked, a board over
    SMALL_BOARD_CELLS tries SMALL_BOARD_SETUP under MINICARD_CONFLICTS first. Then `race`:
    the RACE_SETUPS on two cores, the first answer wins (default: when no solver is named
    and the board has RACE_CELLS or more); else the first set-up alone (SMALL_BOARD_SETUP
    up to SMALL_BOARD_CELLS), or the named solver. `shuffle` renumbers the variables (to
    measure luck, benchmarks/bench_tails.py)."""
    cells = puzzle.width * puzzle.height
    if certifying_now() is not None:  # clauses only, on a solver whose own proof checks
        return check_with(puzzle, RACE_SETUPS[0], solver, shuffle, unique)
    if solver is None and race is None and cells > SMALL_BOARD_CELLS:
        # Minicard first, under a budget: on typical boards it answers many times quicker
        # than the set-ups below; a board it cannot settle within the budget goes on to them
        quick = within_budget(puzzle, MINICARD_CONFLICTS, shuffle, unique)
        if quick is not None:
            return quick
    if race is None:
        race = solver is None and cells >= RACE_CELLS
    if race:
        return raced([partial(check_with, puzzle, setup, solver, shuffle)
                      for setup in RACE_SETUPS], unique)
    if solver is None and puzzle.width * puzzle.height <= SMALL_BOARD_CELLS:
        return check_with(puzzle, SMALL_BOARD_SETUP, None, shuffle, unique)
    return check_with(puzzle, RACE_SETUPS[0], solver, shuffle, unique)


def decode(puzzle: UndeadPuzzle, model: dict[str, bool]) -> str:
    """A solution from a model given by variable name (as SatOracle.model returns it)."""
    out = list(puzzle.grid)
    for i in puzzle.monster_cells:
        r, c = puzzle.cell(i)
        for m in MONSTERS:
            if model.get(f"{m}_r{r}c{c}"):
                out[i] = m
    return "".join(out)
