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
- core(assumptions, lemmas) -> Core: where propagation reaches a conflict, the formula
  clauses and lemmas that conflict rests on, followed back reason by reason; each lemma it
  needs is in turn followed back from its own negation (reverse unit propagation, as DRAT's
  checkers check it, drat-trim's backward mode in small). None where propagation alone does
  not refute, or a lemma it needs is not RUP: the caller then gives the checker everything.
- Step: a lemma (or the claim) with the clauses and earlier lemmas it follows from by unit
  propagation, as an LRAT proof's hints name them: a checker can check each step on its
  own few clauses (logic.certify.check_steps).
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One step of a trimmed proof: a lemma (or, last, the claim) and what it follows from.

    `lemma` is the proof's lemma index (None: the claim itself, the conflict under the
    assumptions); it follows by unit propagation from the assumptions, the formula's
    clauses `clauses` and the earlier lemmas `lemmas` (indices into each).
    """

    lemma: int | None
    clauses: list[int]
    lemmas: list[int]


@dataclass(frozen=True)
class Core:
    """The part of a formula and a proof a claim rests on, and each step of it."""

    clauses: list[int]  # the formula's clauses (indices), sorted
    lemmas: list[int]  # the proof's lemmas (indices), in proof order
    steps: list[Step]  # each lemma in proof order, then the claim


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
        search = _Search(self, lemmas)
        first = search.first
        found = search.base(assumptions)
        if found is None:
            found = search.refute((), len(search.clauses))
        if found is None:
            return None
        claim = search.reasons_of(*found)
        premises: dict[int | None, set[int]] = {None: claim}
        used = set(claim)
        waiting = [-i for i in used if i >= first]  # the lemmas leant on, latest first
        heapq.heapify(waiting)
        while waiting:
            # each lemma leant on must follow from what comes before it
            index = -heapq.heappop(waiting)
            found = search.refute([-lit for lit in search.clauses[index]], index)
            if found is None:
                return None
            premises[index - first] = reasons = search.reasons_of(*found)
            for reason in reasons - used:
                used.add(reason)
                if reason >= first:
                    heapq.heappush(waiting, -reason)

        def step(lemma: int | None) -> Step:
            leant = premises[lemma]
            return Step(lemma, sorted(i for i in leant if i < first),
                        sorted(i - first for i in leant if i >= first))

        order = sorted(j for j in premises if j is not None)
        return Core(sorted(i for i in used if i < first), order, [*map(step, order), step(None)])


Values = dict[int, "int | None"]  # a true literal -> its reason (None: assumed)


class _Search:
    """Unit propagation over a formula and a proof's lemmas, with reasons.

    What the formula's units and the assumptions propagate (the base) is found once; each
    question starts from a copy of it, adds the lemmas before its limit (clause indices
    from the formula's end on) and its own literals.
    """

    def __init__(self, formula: Trimmer, lemmas: Sequence[Sequence[int]]):
        self.formula = formula
        self.first = len(formula.clauses)  # lemma j is clause first + j
        # an empty lemma (another claim's end: a conflict under its own assumptions) has no
        # literal to occur or propagate, so it is never leant on
        lemma_clauses = [tuple(dict.fromkeys(lemma)) for lemma in lemmas]
        self.clauses = [*formula.clauses, *lemma_clauses]
        self.lemma_occurs: dict[int, list[int]] = {}
        for j, lemma in enumerate(lemma_clauses, start=self.first):
            for lit in lemma:
                self.lemma_occurs.setdefault(lit, []).append(j)
        self.lemma_units = [j for j, lemma in enumerate(lemma_clauses, start=self.first)
                            if len(lemma) == 1]
        self.base_value: Values = {}
        self.base_queue: list[int] = []
        self.touched: list[int] = []  # lemmas (clause indices) the base falsifies a literal of

    def base(self, assumptions: Sequence[int]) -> tuple[int | None, Values] | None:
        """Propagate the assumptions and the formula's units (no lemma): a conflict, or None.

        A clash among the assumptions themselves is no conflict of any clause: it is left
        to the whole check (an empty base, so every later question finds nothing new).
        """
        value: Values = {}
        queue: list[int] = []
        for lit in assumptions:
            if -lit in value:
                return None
            if lit not in value:
                value[lit] = None
                queue.append(lit)
        conflict = self._propagate(value, queue, self.formula.units, 0, self.first)
        self.base_value, self.base_queue = value, queue
        # the lemmas the base falsifies a literal of: each question looks at them first,
        # since the base's own literals are not propagated again
        lemma_occurs = self.lemma_occurs
        self.touched = sorted({*self.lemma_units,
                               *(j for lit in queue for j in lemma_occurs.get(-lit, ()))})
        return None if conflict is None else (conflict, value)

    def refute(self, assumed: Iterable[int], limit: int) -> tuple[int | None, Values] | None:
        """A clause propagation falsifies, with the reasons it used (None: none falsified).

        Propagation starts from the base and `assumed`, over the lemmas before `limit`.

        An assumed literal already false falsifies the clause that made it so (its reason),
        or none at all where it clashes with an assumption (the checker's unit clauses).
        """
        value = dict(self.base_value)
        queue = list(self.base_queue)
        done = len(queue)  # the base's literals have met every formula clause already
        for lit in assumed:
            if -lit in value:
                return value[-lit], value
            if lit not in value:
                value[lit] = None
                queue.append(lit)
        touched = self.touched[:bisect.bisect_left(self.touched, limit)]
        conflict = self._propagate(value, queue, touched, done, limit)
        return None if conflict is None else (conflict, value)

    def _propagate(self, value: Values, queue: list[int], first_met: Sequence[int], done: int,
                   limit: int) -> int | None:
        """Unit propagation to a fixpoint over the clauses before `limit`: a falsified one.

        The clauses `first_met` are looked at first; then each literal on `queue` from
        `done` on (those before it were propagated already), in the clauses it falsifies
        a literal of.
        """
        examine = self._examine
        for index in first_met:
            if examine(index, value, queue):
                return index
        occurs, lemma_occurs = self.formula.occurs, self.lemma_occurs
        none: list[int] = []
        head = done
        while head < len(queue):
            false = -queue[head]
            head += 1
            for index in (*occurs.get(false, none), *lemma_occurs.get(false, none)):
                if index < limit and examine(index, value, queue):
                    return index
        return None

    def _examine(self, index: int, value: Values, queue: list[int]) -> bool:
        """Whether clause `index` is falsified; where one literal is left open, assert it."""
        open_lit = 0
        for lit in self.clauses[index]:
            if lit in value:
                return False  # satisfied
            if -lit in value:
                continue
            if open_lit:
                return False  # two open literals: nothing to propagate
            open_lit = lit
        if not open_lit:
            return True
        value[open_lit] = index
        queue.append(open_lit)
        return False

    def reasons_of(self, conflict: int | None, value: Values) -> set[int]:
        """The clauses the conflict rests on: it, and each false literal's reason, back."""
        if conflict is None:
            return set()
        used = {conflict}
        stack = [conflict]
        clauses = self.clauses
        while stack:
            for lit in clauses[stack.pop()]:
                reason = value.get(-lit)
                if reason is not None and reason not in used:
                    used.add(reason)
                    stack.append(reason)
        return used
