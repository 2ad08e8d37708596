"""One question an agent put to its SAT oracle, as `logic-agents cnf --query K` writes it.

Concepts: Query is what an agent that reasons with SAT hands to its `on_query` hook at each
satisfiability test: its number (from 1), the step it was asked at, the clauses and the
assumptions of that moment, the variable names, comment lines that explain them, and the
literals it proved (proved(): `cnf --proof` writes their DRAT proof). Every
game's query has this one shape, so `cnf` writes any of them the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from logic_agents.logic.dimacs import format_dimacs


class Query(ABC):
    """One satisfiability test an agent made, as data a person can inspect.

    Subclasses set index, step, num_vars, num_clauses, assumptions, and give clauses() and
    names().
    """

    index: int
    step: int
    num_vars: int
    num_clauses: int
    assumptions: list[int]

    @abstractmethod
    def clauses(self) -> list[list[int]]:
        """The clauses of the question (without its assumptions)."""

    @abstractmethod
    def names(self) -> dict[int, str]:
        """{id: name} of the named variables."""

    def legend(self) -> list[str]:
        """Comment lines that explain the variables and the encoding."""
        return []

    def settings(self) -> str:
        """One line on how the agent was set up (encoding, options), or ''."""
        return ""

    def formulas(self) -> list[str]:
        """The knowledge base's formulas as a person reads them (`c kb` lines)."""
        return []

    def spans(self) -> list[tuple[int, int]]:
        """The clause range (start, end) each of formulas() compiled to, in order."""
        return []

    def proved(self) -> list[int]:
        """The literals this test proved to follow (what `cnf --proof` writes a proof of)."""
        return []

    def to_dimacs(self, comments: list[str]) -> str:
        """The question as one CNF: the clauses plus the assumptions as unit clauses."""
        clauses = self.clauses() + [[a] for a in self.assumptions]
        return format_dimacs(self.num_vars, clauses, self.names(), comments)
