"""The seen core: Undead as what the lines of sight see, the fast check behind `solve`.

Concepts:
- Two literals per open cell (a cell with no given monster): D_c, "seen directly" (not a
  ghost), and M_c, "seen in a mirror" (not a vampire). A ghost is ~D, a vampire ~M, a zombie
  D and M; one monster per cell is the one clause (D_c | M_c). A clue is Exactly(k) over its
  cells' D (before a bounce) or M (after one): no Z variable and no three-way choice.
- Givens substituted: a clue counts the given cells it sees and asks its open cells for the
  rest; the ghost and vampire totals (sum of ~D, of ~M) are over the open cells alone; the
  zombie total follows when the three totals add up to the cells.
- Encodings, as measured on the sgt-style 20x20 boards with givens (docs/BENCHMARKS.md,
  "SAT tails: undead"): a clue by the sequential counter, a total by the k-modulo
  totalizer (encode.RACE_SETUPS picks the modulo one for its first set-up), its leaves in
  sight_order. Against the readable KB (encode.py: three variables per cell, givens as
  units, totals over every cell) this about halves the solving time on every one of those
  boards, and sight_order (against the cells' row-major order) cuts it again, to a quarter
  on the hardest.
- Native counting (NATIVE, on the boards the real game makes): Minicard keeps each
  Exactly(k) as two native at-most constraints and needs no auxiliary variable or clause;
  on the game's 7x7 puzzles that is a tenth of the time of the counters (the cost there is
  adding the counters' clauses, not solving), but on the hard 20x20 boards with givens it
  lacks CDCL's learned counts (one board: 144 s against 0.4 s). encode.solve picks it up to
  SMALL_BOARD_CELLS.
- Leaf order: the totals' cells in the order the lines of sight meet them (sight_order),
  from the top-left corner or, for a second racer, from the opposite one (LEAF_ORDERS).
- Slack, projected out (`project`): a D no clue reads (every sight meets the cell after a
  bounce) is in the clause (D_c | M_c) and the ghost total alone. Given M_c, such a cell
  may hold a ghost or a zombie as the total needs, and any of them may: the solver used to
  choose which, and to prove a board unique it had to rule out every such choice. Projected,
  the ghost total is two bounds: the other cells hold at most the ghosts, and they and the
  slack cells whose M holds at least. A model then stands for C(room, ghosts left)
  solutions, which `decode` lists. The same for an M no clue reads and the vampires. On
  the 20x20 boards with givens of issue 69 a third to a half of the open cells are slack;
  over 1,200 of them, 3 orderings each, it took the solving in all down 5-7% and its p95
  by 1-7%, but not the slowest boards of the files it was not found on (docs/BENCHMARKS.md,
  "Undead 20x20 with givens").
- SeenCore(puzzle, solver, shuffle, options, leaves, project): the rules, a warm start
  without the totals (what is learned still holds), then the totals; solutions(limit) blocks
  each model by the literals it keeps. `shuffle` renumbers (logic/renumber.py), as
  SatOracle's does; `options` are CaDiCaL's own.

encode.UndeadSolver stays the KB an agent asks and explains (named variables, `cnf`);
this core answers one question fast: a solution, and whether there is a second.
"""

from __future__ import annotations

import itertools
from typing import Any

from logic_agents.errors import UnknownName
from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.sight import Sight
from logic_agents.logic.card import encoded_cardinality
from logic_agents.logic.renumber import Renumbered
from logic_agents.logic.solvers import open_solver

CLUE_ENCODING, TOTAL_ENCODING = "seqcounter", "kmtotalizer"
NATIVE = "native"  # an encoding name: the solver's own at-most constraints (Minicard)
LEAF_ORDERS = ("sight", "opposite", "cells")


def sight_order(puzzle: UndeadPuzzle, start: int = 0) -> list[int]:
    """The open cells in the order the lines of sight meet them, clue by clue from clue
    `start` round the board, then any cell no sight meets (inside a closed loop of mirrors).

    A totalizer adds its leaves in pairs, then pairs of pairs: listed in this order, its
    partial sums count stretches of lines of sight, the stretches the clues count too, and
    the solver can weigh a total against the clues. In row-major order (the cells' own
    order) the same core took up to 4 times as long on the sgt-style boards with givens
    (board 1: 1.3 against 0.3 s in-process, docs/BENCHMARKS.md); on this project's own
    20x20 and 30x30 boards the two orders measure alike."""
    givens = puzzle.givens
    sights = puzzle.sights[start:] + puzzle.sights[:start]
    met = [cell for sight in sights for cell, _ in sight.visits if cell not in givens]
    return list(dict.fromkeys(met + [c for c in puzzle.monster_cells if c not in givens]))


def leaf_order(puzzle: UndeadPuzzle, order: str) -> list[int]:
    """The open cells in one of LEAF_ORDERS: `sight` (sight_order from the top-left corner),
    `opposite` (from the bottom-right corner, halfway round) or `cells` (row-major)."""
    if order == "cells":
        return [c for c in puzzle.monster_cells if c not in puzzle.givens]
    if order not in LEAF_ORDERS:
        raise UnknownName(f"unknown leaf order {order!r}; choose one of "
                          f"{', '.join(LEAF_ORDERS)}")
    return sight_order(puzzle, puzzle.width + puzzle.height if order == "opposite" else 0)


class SeenCore:
    """One puzzle's seen core on one pysat solver (see the module docstring)."""

    def __init__(self, puzzle: UndeadPuzzle, solver: str = "cadical195", *,
                 shuffle: int | str | None = None, clue_encoding: str = CLUE_ENCODING,
                 total_encoding: str = TOTAL_ENCODING, options: dict[str, int] | None = None,
                 leaves: str = "sight", project: bool = True):
        from pysat.formula import IDPool

        self.puzzle = puzzle
        givens = puzzle.givens
        self.open = [i for i in puzzle.monster_cells if i not in givens]
        # ids: D and M of the k-th open cell are 2k+1 and 2k+2
        self.direct = {c: 2 * k + 1 for k, c in enumerate(self.open)}
        self.mirror = {c: 2 * k + 2 for k, c in enumerate(self.open)}
        pool = IDPool(start_from=2 * len(self.open) + 1)
        self._bounds: list[tuple[list[int], int]] = []  # native at-most constraints
        clued = [self._clue_literals(sight) for sight in puzzle.sights
                 if puzzle.clues[sight.clue] is not None]
        read = {lit for _, lits in clued for lit in lits}
        # the slack (module docstring): a D no clue reads, of a cell whose M one does; and back
        self.slack_direct = [c for c in self.open if project and self.direct[c] not in read
                             and self.mirror[c] in read]
        self.slack_mirror = [c for c in self.open if project and self.mirror[c] not in read
                             and self.direct[c] in read]
        slack = set(self.slack_direct) | set(self.slack_mirror)
        self.kept = [v for c in self.open for v in (self.direct[c], self.mirror[c]) if v in read
                     or c not in slack]  # the literals left in the formula
        rules = [[self.direct[c], self.mirror[c]] for c in self.open if c not in slack]
        for clue, lits in clued:
            # the counter even on short lines: binomial clauses there measured slower
            rules += self._bound("Exactly", clue, lits, pool, clue_encoding)
        totals: list[list[int]] = []
        self.ghosts, self.vampires, _ = [
            total - sum(1 for m in givens.values() if m == monster)
            for monster, total in zip(MONSTERS, puzzle.counts)]
        if sum(puzzle.counts) != len(puzzle.monster_cells):
            totals.append([])  # the three totals cannot all hold
        cells = self.open if total_encoding == NATIVE else leaf_order(puzzle, leaves)
        totals += self._total(self.ghosts, cells, self.direct, self.mirror,
                              set(self.slack_direct), pool, total_encoding)
        totals += self._total(self.vampires, cells, self.mirror, self.direct,
                              set(self.slack_mirror), pool, total_encoding)
        self._solver: Any
        self._solver, rng = open_solver(solver, shuffle=shuffle, options=options)
        if rng is not None:  # the clauses' order drawn again too, as SatOracle.sync does
            rng.shuffle(rules)
            rng.shuffle(totals)
        self._top = pool.top
        if self._bounds:
            if rng is not None:
                rng.shuffle(self._bounds)
            # past pysat's generic wrapper when nothing renumbers: a call a bound saved
            add_atmost = (self._solver.add_atmost if rng is not None
                          else self._solver.solver.add_atmost)
            for lits, most in self._bounds:
                add_atmost(lits, most)
            self._add(rules + totals)  # no counter to warm up: no warm start
            return
        self._add(rules)
        # warm start: the clues alone take milliseconds, and what they teach the solver holds
        self._solver.solve()
        self._add(totals)

    def _clue_literals(self, sight: Sight) -> tuple[int, list[int]]:
        """(what the clue asks of its open cells, their seen literals): a given monster the
        sight sees is counted off the clue."""
        clue = self.puzzle.clues[sight.clue]
        assert clue is not None
        givens = self.puzzle.givens
        if not givens:  # M is D + 1: one comprehension, no lookup of the given
            return clue, [self.direct[cell] + bounced for cell, bounced in sight.visits]
        lits = []
        for cell, bounced in sight.visits:
            given = givens.get(cell)
            if given is None:
                lits.append(self.mirror[cell] if bounced else self.direct[cell])
            elif given != ("V" if bounced else "G"):
                clue -= 1  # a given monster this sight sees
        return clue, lits

    def _total(self, monsters: int, cells: list[int], unseen: dict[int, int],
               other: dict[int, int], slack: set[int], pool: Any, encoding: str
               ) -> list[list[int]]:
        """`monsters` ghosts (unseen: D, other: M) or vampires (unseen: M, other: D) among the
        open cells: Exactly(len(cells) - monsters) of their `unseen` literals. With slack
        cells, what is left once their `unseen` literals are projected out: the other cells
        hold at most `monsters` (so at least len(rest) - monsters `unseen` literals hold),
        and they and the slack cells whose `other` literal holds at least `monsters`."""
        if not slack:
            return self._bound("Exactly", len(cells) - monsters, [unseen[c] for c in cells],
                               pool, encoding)
        rest = [unseen[c] for c in cells if c not in slack]
        room = [-other[c] for c in cells if c in slack]
        return (self._bound("AtLeast", len(rest) - monsters, rest, pool, encoding)
                + self._bound("AtMost", len(rest) - monsters + len(room), rest + room, pool,
                              encoding))

    def _bound(self, kind: str, k: int, lits: list[int], pool: Any, encoding: str
               ) -> list[list[int]]:
        """Exactly, AtLeast or AtMost(k) over `lits`: clauses, or with NATIVE native at-most
        bounds kept for the solver (and no clause, or the empty one when k is out of reach)."""
        if encoding != NATIVE:
            return encoded_cardinality(kind, k, lits, pool, encoding)
        most, least = kind != "AtLeast", kind != "AtMost"
        if most and k < 0 or least and k > len(lits):
            return [[]]
        if most and k < len(lits):  # at most len(lits) holds anyway
            self._bounds.append((lits, k))
        if least and k > 0:
            self._bounds.append(([-lit for lit in lits], len(lits) - k))
        return []

    def _add(self, clauses: list[list[int]]) -> None:
        if isinstance(self._solver, Renumbered):
            self._solver.add_clauses(clauses, self._top)
        else:
            self._solver.append_formula(clauses)

    def decode(self, model: list[int], limit: int = 1) -> list[str]:
        """Up to `limit` solutions a model stands for: one, or with slack cells one for each
        choice of the slack cells that hold the ghosts (vampires) the others leave."""
        true = {lit for lit in model if lit > 0}
        # a cell's (seen directly, seen in a mirror); None: the slack's, still to choose
        seen: dict[int, tuple[bool | None, bool | None]] = {
            c: (self.direct[c] in true, self.mirror[c] in true) for c in self.open}
        for c in self.slack_direct:  # M false: a vampire, so D; else a ghost or a zombie
            seen[c] = (None if seen[c][1] else True, seen[c][1])
        for c in self.slack_mirror:
            seen[c] = (seen[c][0], None if seen[c][0] else True)
        ghost_room = [c for c in self.slack_direct if seen[c][0] is None]
        vampire_room = [c for c in self.slack_mirror if seen[c][1] is None]
        ghosts = self.ghosts - sum(1 for c in self.open if seen[c][0] is False)
        vampires = self.vampires - sum(1 for c in self.open if seen[c][1] is False)
        # one choice after another, never all at once: a non-unique board may have 10^17
        choices = ((as_ghosts, as_vampires)
                   for as_ghosts in itertools.combinations(ghost_room, ghosts)
                   for as_vampires in itertools.combinations(vampire_room, vampires))
        out: list[str] = []
        for as_ghosts, as_vampires in itertools.islice(choices, limit):
            grid = list(self.puzzle.grid)
            for c in self.open:
                directly, in_mirror = seen[c]
                directly = c not in as_ghosts if directly is None else directly
                in_mirror = c not in as_vampires if in_mirror is None else in_mirror
                grid[c] = "Z" if directly and in_mirror else "V" if directly else "G"
            out.append("".join(grid))
        return out

    def solutions(self, limit: int = 2, conflicts: int | None = None) -> list[str] | None:
        """Up to `limit` different solutions; each model is blocked by the literals the
        formula keeps (so the slack's choices are never found twice).

        `conflicts` bounds the search of all the calls together; None comes back when they
        ran out of them (only then: without a bound the answer is always a list). A bound
        under 1 runs nothing (pysat's solvers read a budget of 0 as none at all).
        """
        found: list[str] = []
        spent = 0
        while len(found) < limit:
            if conflicts is None:
                answer = self._solver.solve()
            else:
                if conflicts - spent < 1:
                    return None
                self._solver.conf_budget(conflicts - spent)
                answer = self._solver.solve_limited()
                spent = int(self._solver.accum_stats().get("conflicts", conflicts))
                if answer is None:
                    return None
            if not answer:
                break
            model = self._solver.get_model()
            found += self.decode(model, limit - len(found))
            true = {lit for lit in model if lit > 0}
            self._solver.add_clause([-v if v in true else v for v in self.kept])
        return found

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def __enter__(self) -> SeenCore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
