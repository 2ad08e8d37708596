"""Trimming: the few clauses and lemmas a claim rests on, for the proof checker to see.

A verified checker is slow where a solver is fast: `drup` checks each lemma against every
clause it holds, so a claim checked against a game's whole formula and a solver's whole
proof costs what the formula and the proof weigh, not what the claim does. Giving the
checker a subset is sound whatever the subset: if the checker derives the claim from some
of the clauses, the clauses imply it. This module picks the subset; it is trusted for
nothing (a wrong pick is a rejection, and the caller falls back on the whole).

Concepts:
- Trimmer: a formula kept clause by clause (an occurrence list per literal), as a solver is
  given it, so a claim costs the propagation it needs, not a rebuild.
- unit propagation from the claim's assumptions (and the formula's unit clauses), each
  implied literal with the clause it came from (its reason);
- core(assumptions, lemmas): where propagation reaches a conflict, the formula clauses and
  lemmas that conflict rests on, followed back reason by reason; each lemma it needs is in
  turn followed back from its own negation (reverse unit propagation, as DRAT's checkers
  check it, drat-trim's backward mode in small). None where propagation alone does not
  refute, or a lemma it needs is not RUP: the caller then gives the checker everything.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

Core = tuple[list[int], list[int]]  # (the formula's clause indices, the lemmas' indices)


class Trimmer:
    """A formula, kept clause by clause, that finds the part of it a claim rests on."""

    def __init__(self) -> None:
        """An empty formula."""
        self.clauses: list[tuple[int, ...]] = []
        self.occurs: dict[int, list[int]] = {}  # literal -> the clauses it occurs in
        self.units: list[int] = []  # the unit (and empty) clauses' indices

    def add(self, clause: Iterable[int]) -> None:
        """One more clause of the formula."""
        lits = tuple(dict.fromkeys(clause))
        index = len(self.clauses)
        self.clauses.append(lits)
        if len(lits) <= 1:
            self.units.append(index)
        occurs = self.occurs
        for lit in lits:
            occurs.setdefault(lit, []).append(index)

    def core(self, assumptions: Sequence[int], lemmas: Sequence[Sequence[int]] = ()) -> Core | None:
        """What refutes the formula under `assumptions`, by propagation and `lemmas`.

        The formula's clause indices and the lemmas' indices (both sorted) that a checker
        given the formula's chosen clauses, the assumptions as units and the chosen lemmas
        in order derives the empty clause from; None where propagation finds no conflict
        or a lemma it leans on is not reverse-unit-propagation derivable.
        """
        first = len(self.clauses)  # lemma j is clause first + j
        # an empty lemma (another claim's end: a conflict under its own assumptions) has no
        # literal to occur or propagate, so it is never leant on
        lemma_clauses = [tuple(dict.fromkeys(lemma)) for lemma in lemmas]
        lemma_occurs: dict[int, list[int]] = {}
        for j, lemma in enumerate(lemma_clauses):
            for lit in lemma:
                lemma_occurs.setdefault(lit, []).append(first + j)
        found = _Propagation(self, lemma_clauses, lemma_occurs, first + len(lemma_clauses))
        conflict = found.refute(assumptions)
        if conflict is None:
            return None
        used = found.reasons_of(conflict)
        waiting = [-i for i in used if i >= first]  # the lemmas leant on, latest first
        heapq.heapify(waiting)
        while waiting:
            # each lemma leant on must follow from what comes before it
            index = -heapq.heappop(waiting)
            again = _Propagation(self, lemma_clauses, lemma_occurs, index)
            conflict = again.refute([*assumptions, *(-lit for lit in lemma_clauses[index - first])])
            if conflict is None:
                return None
            for reason in again.reasons_of(conflict) - used:
                used.add(reason)
                if reason >= first:
                    heapq.heappush(waiting, -reason)
        return (sorted(i for i in used if i < first), sorted(i - first for i in used if i >= first))


class _Propagation:
    """Unit propagation over a formula and the lemmas before `limit`, with reasons."""

    def __init__(self, formula: Trimmer, lemmas: list[tuple[int, ...]],
                 lemma_occurs: dict[int, list[int]], limit: int):
        self.formula = formula
        self.lemmas = lemmas
        self.lemma_occurs = lemma_occurs
        self.first = len(formula.clauses)
        self.limit = limit  # clauses from here on are not yet derived
        self.value: dict[int, int | None] = {}  # a true literal -> its reason (None: assumed)
        self.clauses = [*formula.clauses, *lemmas[:limit - self.first]]  # by index

    def refute(self, assumed: Iterable[int]) -> int | None:
        """The clause propagation falsifies (a conflict), from `assumed` and the units."""
        value = self.value
        queue: list[int] = []
        for lit in assumed:
            if -lit in value:
                return None  # assumptions that clash need no clause: the whole check says so
            if lit not in value:
                value[lit] = None
                queue.append(lit)
        units = [*self.formula.units,
                 *(self.first + j for j, lemma in enumerate(self.lemmas)
                   if len(lemma) == 1 and self.first + j < self.limit)]
        clauses = self.clauses
        for index in units:
            lits = clauses[index]
            if not lits or -lits[0] in value:
                return index
            if lits[0] not in value:
                value[lits[0]] = index
                queue.append(lits[0])
        occurs, lemma_occurs, limit = self.formula.occurs, self.lemma_occurs, self.limit
        none: list[int] = []
        head = 0
        while head < len(queue):
            false = -queue[head]
            head += 1
            for index in (*occurs.get(false, none), *lemma_occurs.get(false, none)):
                if index >= limit:
                    continue
                open_lit = 0
                for lit in clauses[index]:
                    if lit in value:
                        break  # satisfied
                    if -lit in value:
                        continue
                    if open_lit:
                        break  # two open literals: nothing to propagate
                    open_lit = lit
                else:
                    if not open_lit:
                        return index
                    value[open_lit] = index
                    queue.append(open_lit)
        return None

    def reasons_of(self, conflict: int) -> set[int]:
        """The clauses the conflict rests on: it, and each false literal's reason, back."""
        value = self.value
        used = {conflict}
        stack = [conflict]
        while stack:
            for lit in self.clauses[stack.pop()]:
                reason = value.get(-lit)
                if reason is not None and reason not in used:
                    used.add(reason)
                    stack.append(reason)
        return used
