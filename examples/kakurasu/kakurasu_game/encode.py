"""Kakurasu as a knowledge base, in logic-agents' vocabulary.

Concepts:
- B_r<row>c<col> (0-based, the shared convention, so `inspect --solve` marks the cells): the
  cell is shaded.
- A weight as units: a cell of weight w in its row stands for w units
  U_r<row>c<col>_k<k> (k = 1..w), each Equivalent to the cell. "The row's weights sum to its
  clue" is then Exactly(clue, its units): a cardinality, which the framework compiles to
  clauses without blow-up. Columns have their own units (V_...).
- KakurasuSolver: one puzzle on one incremental oracle; solutions() enumerates up to a
  limit, which proves uniqueness with limit 2.
"""

from __future__ import annotations

from kakurasu_game.board import Cell, KakurasuPuzzle
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle

DEFAULT_SOLVER = "glucose4"


def shaded(cell: Cell) -> tuple[str, str]:
    return ("B", f"r{cell[0]}c{cell[1]}")


def encode(puzzle: KakurasuPuzzle) -> KnowledgeBase:
    """The rules of one puzzle as a knowledge base a person can print (kb.pretty())."""
    from sympy import Equivalent  # here, not at import: listing the games loads every SPEC

    from logic_agents.logic.formula import Exactly, sym

    kb = KnowledgeBase(card_encoding="seqcounter")
    for cell in puzzle.cells():  # the cells' ids first, in reading order
        kb.var(shaded(cell))
    for axis, unit, clues in (("row", "U", puzzle.row_clues), ("col", "V", puzzle.col_clues)):
        for line, clue in enumerate(clues):
            units = []
            cells = ([(line, c) for c in range(puzzle.width)] if axis == "row"
                     else [(r, line) for r in range(puzzle.height)])
            for weight, cell in enumerate(cells, start=1):
                for k in range(1, weight + 1):
                    u = sym((unit, f"r{cell[0]}c{cell[1]}_k{k}"))
                    kb.tell(Equivalent(u, sym(shaded(cell))))
                    units.append(u)
            kb.tell(Exactly(clue, *units))
    return kb


class KakurasuSolver:
    """One puzzle's rules on one incremental SAT oracle."""

    def __init__(self, puzzle: KakurasuPuzzle, solver: str | None = None):
        self.kb = encode(puzzle)
        self.oracle = SatOracle(self.kb, solver or DEFAULT_SOLVER)
        self.ids = {cell: self.kb.var(shaded(cell)) for cell in puzzle.cells()}

    def close(self) -> None:
        self.oracle.close()

    def __enter__(self) -> KakurasuSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def solutions(self, limit: int = 2) -> list[frozenset[Cell]]:
        models = self.oracle.raw_models(limit, over=list(self.ids.values()))
        return [frozenset(c for c, v in self.ids.items() if m[v - 1] > 0) for m in models]
