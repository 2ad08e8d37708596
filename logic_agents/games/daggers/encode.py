"""What a Daggers agent knows, as a knowledge base.

Concepts:
- dagger(cell): the symbol D_r<row>c<col> (0-based, as every coordinate a person reads), "the cell
  holds a dagger".
- clue_formula: clue k at a cell -> Exactly(k, D of every neighbour) (never "exactly one").
- reduced_clue_formula: the same clue over the still-unknown neighbours only, with the known
  daggers subtracted: the form the 2018 report wrote, used by the naive sympy route.
- global_count_formula: Exactly(total daggers, D of every cell).
- frontier: covered, unflagged cells next to a shown clue.
- encode_naive: the 2018 report's route, rebuilt from scratch through sympy.to_cnf.
- DaggersEncoder: tells a KnowledgeBase only what each new observation adds (read from the
  agent's one GridChanges tracker), so one solver serves a whole episode. Flags are told as
  daggers: use it with agents that flag soundly.
  It tells int-level items (IdClause, IdCardinality), so satx never loads sympy; the KB
  prints them as the same formulas (~D_r0c0, Exactly(2, ...)) when asked.

The sympy forms (dagger, clue_formula, ...) are for the naive route, tests and teaching;
sympy is imported only when they are called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from logic_agents.errors import EncodingError
from logic_agents.games.daggers.board import GOLD
from logic_agents.games.daggers.clues import GridChanges
from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT, DaggersObservation
from logic_agents.logic.ids import IdCardinality, IdClause, Key
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.world.view import Cell

if TYPE_CHECKING:  # sympy loads only when a formula is written
    from logic_agents.logic.ids import Formula


def dagger_key(cell: Cell) -> Key:
    return ("D", f"r{cell[0]}c{cell[1]}")


def dagger(cell: Cell) -> Formula:
    """The sympy symbol D_r<row>c<col>."""
    from logic_agents.logic.formula import sym

    return sym(dagger_key(cell))


def shown_clue(obs: DaggersObservation, cell: Cell) -> int:
    """The clue `cell` shows; EncodingError when it shows none (covered, flagged, hit)."""
    k = obs.clue(cell)
    if k is None:
        raise EncodingError(f"{cell} shows no clue")
    return k


def clue_formula(obs: DaggersObservation, cell: Cell) -> Any:
    """Exactly(k, D of every neighbour) for the clue k shown at `cell`."""
    from logic_agents.logic.formula import Exactly

    k = shown_clue(obs, cell)
    nbrs = obs.neighbours[cell]
    return Exactly(k, *[dagger(n) for n in nbrs])


def reduced_clue_formula(obs: DaggersObservation, cell: Cell) -> Any:
    """The clue over unknown neighbours only, known daggers (hit or flagged) subtracted."""
    from logic_agents.logic.formula import Exactly

    k = shown_clue(obs, cell)
    unknown = []
    for n in obs.neighbours[cell]:
        shown = obs.at(n)
        if shown in (HIT, FLAGGED):
            k -= 1
        elif shown == COVERED:
            unknown.append(dagger(n))
    return Exactly(k, *unknown)


def global_count_formula(obs: DaggersObservation) -> Formula:
    from logic_agents.logic.formula import Exactly

    return Exactly(obs.total_daggers, *[dagger(cell) for cell in obs.cells()])


@dataclass(frozen=True)
class CountWindow:
    """The total number of daggers, projected onto the frontier.

    Interior cells touch no shown clue, so only the total mentions them and they are
    interchangeable. Projecting them out turns Exactly(total, every cell) into a window on
    the frontier alone: remaining - |interior| <= daggers(frontier) <= remaining. It is
    exact, and it stays small where the full count over H*W cells is not. The formulas are on
    int literals (IdCardinality), because the window is stated afresh at every test."""

    front: tuple[int, ...]  # the frontier's variable ids
    interior: tuple[Cell, ...]
    remaining: int  # daggers not yet flagged or hit

    def words(self, total: int) -> str:
        return f"{total} daggers in all"

    def formulas(self) -> tuple[IdCardinality, IdCardinality]:
        return (IdCardinality("AtLeast", self.remaining - len(self.interior), self.front),
                IdCardinality("AtMost", self.remaining, self.front))

    def some_interior_dagger(self) -> IdCardinality:
        """Satisfiable (inside the window) iff some interior cell can hold a dagger."""
        return IdCardinality("AtMost", self.remaining - 1, self.front)

    def some_interior_safe(self) -> IdCardinality:
        """Satisfiable (inside the window) iff some interior cell can be safe."""
        return IdCardinality("AtLeast", self.remaining - len(self.interior) + 1, self.front)


def count_window(kb: KnowledgeBase, obs: DaggersObservation,
                 candidates: list[Cell]) -> CountWindow:
    """The global count of `obs` as a window on `candidates` (its frontier), in `kb`'s ids."""
    edge = set(candidates)
    interior = tuple(c for c in obs.unknown_cells() if c not in edge)
    remaining = obs.total_daggers - obs.marked
    return CountWindow(tuple(kb.var(dagger_key(c)) for c in candidates), interior, remaining)


def frontier(obs: DaggersObservation) -> list[Cell]:
    """Covered, unflagged cells with at least one neighbour that shows a clue."""
    table = obs.neighbours
    shown = {(r, c) for r, row in enumerate(obs.grid) for c, v in enumerate(row)
             if v.isdigit() or v == GOLD}
    return [cell for cell in obs.unknown_cells() if any(n in shown for n in table[cell])]


class DaggersEncoder:
    """Grows one KnowledgeBase with what each observation adds; nothing is told twice."""

    def __init__(self, kb: KnowledgeBase, *, global_count: bool = False,
                 changes: GridChanges | None = None):
        self.kb = kb
        self.global_count = global_count
        self.changes = changes if changes is not None else GridChanges()
        self.cursor = 0
        self._told: dict[Cell, str] = {}
        self._counted = False
        self.about: dict[Any, str] = {}  # told formula -> what it says, in words
        self.cell_of: dict[Any, Cell] = {}  # told formula -> the cell it is about

    def update(self, obs: DaggersObservation) -> int:
        """Tell the KB the facts `obs` adds; returns how many formulas were told."""
        kb = self.kb
        formulas: list[Any] = []
        news, self.cursor = self.changes.since(obs, self.cursor)
        latest = dict(news)  # each changed cell as it is shown now
        for cell in sorted(latest):  # in reading order, as a person reads the KB
            shown = latest[cell]
            if shown == COVERED or self._told.get(cell) == shown:
                continue
            self._told[cell] = shown
            v = kb.var(dagger_key(cell))
            if shown in (HIT, FLAGGED):
                formulas.append(IdClause([v]))
                self.about[formulas[-1]] = (f"dagger at {cell}" if shown == HIT
                                            else f"flag at {cell}")
            else:
                formulas.append(IdClause([-v]))
                self.about[formulas[-1]] = f"{cell} is open"
                # over the neighbours still covered: the others are told facts already
                # (open, flagged or hit), and leaving them out keeps the clause count down
                # (C(8, k+1) clauses over all eight; the SAT test's main cost on expert)
                around = [(n, obs.at(n)) for n in obs.neighbours[cell]]
                covered = [kb.var(dagger_key(n)) for n, shown_n in around
                           if shown_n == COVERED]
                if not covered:  # every neighbour is known: the clue says nothing new
                    continue
                marked = sum(shown_n in (HIT, FLAGGED) for _, shown_n in around)
                formulas.append(IdCardinality("Exactly", shown_clue(obs, cell) - marked, covered))
                self.about[formulas[-1]] = f"clue {obs.clue(cell)} at {cell}"
            self.cell_of[formulas[-1]] = cell
        if self.global_count and not self._counted:
            # told after the clues so that a DIMACS reader meets the clue clauses first
            formulas.append(IdCardinality("Exactly", obs.total_daggers,
                                          [kb.var(dagger_key(c)) for c in obs.cells()]))
            self.about[formulas[-1]] = f"{obs.total_daggers} daggers in all"
            self._counted = True
        kb.tell(*formulas)
        return len(formulas)


def encode(obs: DaggersObservation, *, global_count: bool = False,
           method: str = "tseitin") -> KnowledgeBase:
    """A fresh KnowledgeBase for one observation (for `cnf`, tests and teaching)."""
    if method == "sympy":
        return encode_naive(obs)[0]
    kb = KnowledgeBase(method=method)
    DaggersEncoder(kb, global_count=global_count).update(obs)
    return kb


def encode_naive(obs: DaggersObservation) -> tuple[KnowledgeBase, int]:
    """The 2018 report's KB: reduced clues through sympy.to_cnf, built from scratch.

    A clue whose DNF would distribute past the compiler's size guard is left out (a weaker KB
    is still sound); the second value counts those clues."""
    kb = KnowledgeBase(method="sympy")
    skipped = 0
    for cell in _clue_cells_next_to_unknown(obs):
        try:
            kb.tell(reduced_clue_formula(obs, cell))
        except EncodingError:
            skipped += 1
    return kb, skipped


def _clue_cells_next_to_unknown(obs: DaggersObservation) -> list[Cell]:
    table = obs.neighbours
    return [
        cell
        for cell in obs.cells()
        if obs.clue(cell) is not None and any(obs.at(n) == COVERED for n in table[cell])
    ]
