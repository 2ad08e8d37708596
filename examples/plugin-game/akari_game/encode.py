"""Akari as a knowledge base: the rules in logic-agents' vocabulary, solved with SatOracle.

Concepts:
- L_r<row>c<col> (0-based row and column): a bulb stands on the white cell.
- One AtMost(1, ...) per segment (no bulb lights another), one AtLeast(1, ...) per white cell
  over the segments through it (every cell is lit), one Exactly(k, ...) per numbered wall.
- AkariSolver: one puzzle on one incremental oracle; solutions() enumerates up to a limit,
  which proves uniqueness with limit 2.
"""

from __future__ import annotations

from akari_game.board import AkariPuzzle, Cell
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle

DEFAULT_SOLVER = "glucose4"


def bulb(cell: Cell) -> tuple[str, str]:
    return ("L", f"r{cell[0]}c{cell[1]}")


def encode(puzzle: AkariPuzzle) -> KnowledgeBase:
    """The rules of one puzzle as a knowledge base a person can print (kb.pretty())."""
    # sympy is imported here, not at the top: every command loads every game's SPEC to find
    # the game of a map, so a module-level import would slow down every call
    import sympy

    from logic_agents.logic.formula import AtLeast, AtMost, Exactly, sym

    kb = KnowledgeBase(card_encoding="seqcounter")
    for cell in puzzle.whites():  # ids in reading order
        kb.var(bulb(cell))
    through: dict[Cell, list[Cell]] = {}
    for segment in puzzle.segments():
        if len(segment) > 1:
            kb.tell(AtMost(1, *[sym(bulb(c)) for c in segment]))
        for c in segment:
            through.setdefault(c, []).extend(segment)
    for cell in puzzle.whites():
        kb.tell(AtLeast(1, *[sym(bulb(c)) for c in dict.fromkeys(through[cell])]))
    for cell, k in puzzle.numbered():
        around = [sym(bulb(c)) for c in puzzle.neighbours(cell)]
        if around:
            kb.tell(Exactly(k, *around))
        elif k:  # a number no bulb can meet: no solution
            kb.tell(sympy.false)
    return kb


class AkariSolver:
    """One puzzle's rules on one incremental SAT oracle."""

    def __init__(self, puzzle: AkariPuzzle, solver: str | None = None):
        self.puzzle = puzzle
        self.kb = encode(puzzle)
        self.oracle = SatOracle(self.kb, solver or DEFAULT_SOLVER)
        self.ids = {cell: self.kb.var(bulb(cell)) for cell in puzzle.whites()}

    def close(self) -> None:
        self.oracle.close()

    def __enter__(self) -> AkariSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def solutions(self, limit: int = 2) -> list[frozenset[Cell]]:
        models = self.oracle.raw_models(limit, over=list(self.ids.values()))
        return [frozenset(c for c, v in self.ids.items() if m[v - 1] > 0) for m in models]
