"""SatOracle: one incremental PySAT solver that answers questions about a KnowledgeBase.

Concepts:
- Verdict: TRUE (entailed), FALSE (its negation is entailed), UNKNOWN (neither, or time-out;
  `last_reason` says which). Three values, never a truthy dict.
- entails(lit): KB |= lit  <=>  solve(assumptions=[-lit]) is UNSAT. Questions go through
  assumptions, so the solver and its learnt clauses live for the whole episode.
- sync(): pull the clauses the KB gained since the last question; nothing is rebuilt.
- backbone(keys): verdicts for many variables, skipping every query a known model refutes.
- models(limit): enumeration under a selector literal that is retired afterwards, so the live
  solver keeps no blocking clause.
- scoped(*formulas): a `with` block in which extra formulas hold (selector-guarded, retired
  on exit): questions about a hypothetical on the same incremental solver.
- time_budget: solve_limited plus interrupt (solvers that support it); a time-out is UNKNOWN.
- shuffle: the same formula under a random renumbering (logic.solvers.open_solver): a
  solver's time on a hard instance is partly luck, and this draws it again.
- explain(lit): a minimal set of the told formulas that entails lit (an Explanation). Every
  told formula is guarded by a selector on a second incremental solver; the unsat core under
  ~lit is a sufficient set, shrunk deletion by deletion (each call under a conflict budget)
  until dropping any formula breaks the entailment, or reported as not minimised.
The solver is opened by logic.solvers (Kissat refused: it ignores assumptions).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Hashable, Iterable, Iterator
from enum import Enum
from typing import Any

from pysat.solvers import Solver

from logic_agents.errors import SolverError, UncertifiedClaim
from logic_agents.logic.certify import Tally
from logic_agents.logic.ids import Formula, Lit
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.names import DEFAULT_SOLVER
from logic_agents.logic.solvers import NOT_INTERRUPTIBLE, check_solver_name, open_solver
from logic_agents.logic.why import Explanation

EXPLAIN_CONFLICTS = 20_000  # per deletion test; past it the set is reported not minimised


class Verdict(Enum):
    """What the KB says of a literal: TRUE, FALSE (its negation entailed) or UNKNOWN."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    def __bool__(self) -> bool:
        """Refused: a verdict is not a truth value; ask `is Verdict.TRUE`."""
        raise TypeError("use `verdict is Verdict.TRUE`, not truthiness")


class SatOracle:
    """`with SatOracle(kb) as oracle: oracle.verdict(("D", 3, 4))`."""

    def __init__(
        self,
        kb: KnowledgeBase | None = None,
        solver: str | None = DEFAULT_SOLVER,
        *,
        time_budget: float | None = None,
        shuffle: int | str | None = None,
        certify: Tally | None = None,
    ):
        """An oracle over `kb` (a new, empty one by default) on a PySAT solver.

        Args:
            kb: the knowledge base it asks; what it is told later is synced before each call.
            solver: a PySAT solver's name (None: the default); Kissat is refused.
            time_budget: seconds per call, past which a call answers None (interruptible
                solvers only).
            shuffle: a seed under which the solver sees the formula renumbered (luck).
            certify: a logic.certify.Tally (a proof checker and its counts): every UNSAT
                answer, and so every verdict it rests on, is certified as it is given.

        Raises:
            SolverError: a time budget on a solver that cannot be interrupted.
        """
        # None is the default solver: what an agent's `--solver` option holds when not given
        solver = DEFAULT_SOLVER if solver is None else solver
        self.solver_name = check_solver_name(solver)
        if time_budget is not None and solver.startswith(NOT_INTERRUPTIBLE):
            raise SolverError(
                f"{solver} cannot be interrupted, so it cannot honour a time budget; "
                "use glucose4 or minisat22"
            )
        self.kb = kb if kb is not None else KnowledgeBase()
        self.time_budget = time_budget
        self.last_reason: str | None = None
        self.calls = 0
        self._synced = 0
        self._scoped: list[int] = []  # selectors of the open scopes, assumed in every solve
        self._solver, self._shuffle = open_solver(self.solver_name, shuffle=shuffle,
                                                  certify=certify)
        self._explainer: Any = None  # made on the first explain
        self.sync()

    # -- lifetime ------------------------------------------------------------------------
    def __enter__(self) -> SatOracle:
        """The oracle itself; it is closed when the block ends."""
        return self

    def __exit__(self, *exc: Any) -> None:
        """Close it."""
        self.close()

    def close(self) -> None:
        """Free the solvers (the KB stays)."""
        if self._solver is not None:
            self._solver.delete()
            self._solver = None
        if self._explainer is not None:
            self._explainer.delete()
            self._explainer = None

    # -- clauses ---------------------------------------------------------------------------
    def sync(self) -> int:
        """Add the KB's clauses not yet in the solver; returns how many were added."""
        new = self.kb.clauses[self._synced :]
        if self._shuffle is not None:  # the order the solver meets them in, drawn again
            new = new[:]
            self._shuffle.shuffle(new)
        for clause in new:  # one by one: a renumbering wrapper maps add_clause alone
            self._solver.add_clause(clause)
        self._synced = len(self.kb.clauses)
        return len(new)

    def add(self, clauses: Iterable[list[int]]) -> None:
        """Tell the KB raw clauses and pass them to the solver."""
        self.kb.tell_clauses(clauses)
        self.sync()

    @contextlib.contextmanager
    def scoped(self, *formulas: Formula) -> Iterator[int]:
        """Formulas that hold only inside the `with` block, on the same solver.

        They are compiled once, guarded by a fresh selector SEL_n that every solve assumes
        while the block is open, and retired on exit by the unit clause ~SEL_n, so the solver
        and its learnt clauses stay valid. The KB records them as SEL_n >> formula.
        """
        selector = self.kb.var(("SEL", self.kb.pool.top + 1))
        self.kb.tell_guarded(selector, *formulas)
        self.sync()
        self._scoped.append(selector)
        try:
            yield selector
        finally:
            self._scoped.remove(selector)
            self.kb.tell([-selector])
            self.sync()

    @property
    def assumed(self) -> list[int]:
        """The selectors of the open scopes: what every question currently assumes."""
        return list(self._scoped)

    # -- questions -------------------------------------------------------------------------
    def _lit(self, lit: Lit) -> int:
        return self.kb.literal(lit)

    def _lits(self, lits: Iterable[Lit]) -> list[int]:
        """Int literals; ints pass straight through (the hot path of puzzle solvers)."""
        return [x if type(x) is int else self.kb.literal(x) for x in lits]

    def solve(self, assumptions: Iterable[Lit] = (), *, conflicts: int | None = None
              ) -> bool | None:
        """SAT (True), UNSAT (False) or None on time-out, under assumptions.

        `conflicts` bounds this call's search: None then means the budget ran out first. A
        bound under 1 searches nothing and answers None (pysat's solvers read a budget of 0
        as no budget at all, which once made `core_after = 0` search without end).
        """
        self.sync()
        lits = self._scoped + self._lits(assumptions)
        self.calls += 1
        if conflicts is not None and conflicts < 1:
            return None
        if conflicts is not None and self.time_budget is None:
            self._solver.conf_budget(conflicts)
            limited: bool | None = self._solver.solve_limited(assumptions=lits)
            return limited
        if self.time_budget is None:
            answer: bool = self._solver.solve(assumptions=lits)
            return answer
        timer = threading.Timer(self.time_budget, self._solver.interrupt)
        timer.start()
        try:
            result: bool | None = self._solver.solve_limited(assumptions=lits,
                                                             expect_interrupt=True)
        finally:
            timer.cancel()
            self._solver.clear_interrupt()
        return result

    def entails(self, lit: Lit) -> bool:
        """KB |= lit. False also when the budget ran out (then `last_reason` says so)."""
        try:
            result = self.solve([-self._lit(lit)])
        except UncertifiedClaim as e:  # said with what it was to prove
            raise UncertifiedClaim(f"{self._words(lit)}: {e}") from None
        if result is None:
            self.last_reason = f"time-out after {self.time_budget}s"
            return False
        self.last_reason = None
        return result is False

    def verdict(self, key: Lit) -> Verdict:
        """TRUE if the KB entails key, FALSE if it entails its negation, else UNKNOWN."""
        var = self._lit(key)
        if self.entails(var):
            return Verdict.TRUE
        reason = self.last_reason
        if self.entails(-var):
            return Verdict.FALSE
        self.last_reason = reason or self.last_reason or "both values are consistent"
        return Verdict.UNKNOWN

    def _words(self, lit: Lit) -> str:
        """`lit` as the claim that it holds (`D_3_4 holds`, `~D_3_4 holds`)."""
        value = self._lit(lit)
        return f"{'~' if value < 0 else ''}{self.kb.name(abs(value))} holds"

    def satisfiable(self) -> bool:
        """Whether the KB has a model (a time-out says no)."""
        return self.solve() is True

    def model(self, assumptions: Iterable[Lit] = ()) -> dict[str, bool] | None:
        """A model by variable name (named variables only), or None if UNSAT / timed out."""
        if self.solve(assumptions) is not True:
            return None
        return self._named(self._solver.get_model())

    # -- explanations ------------------------------------------------------------------------
    def _sync_explainer(self) -> None:
        """Sync the explainer: the KB's clauses on a second solver.

        Each told formula's clauses are guarded by a selector of its own (raw clauses stay
        unguarded background).
        """
        if self._explainer is None:
            self._explainer = Solver(name=self.solver_name)
            self._why_clauses = 0
            self._why_spans = 0
            self._why_selectors: list[int] = []
        clauses, told = self.kb.clauses, self.kb.told
        guard: dict[int, int] = {}
        for i in range(self._why_spans, len(told)):
            selector = self.kb.pool.id(("_aux", "why", i))  # an auxiliary id, never named
            self._why_selectors.append(selector)
            _, start, end = told[i]
            for c in range(start, end):  # a span's clauses were appended with it
                guard[c] = selector
        for c in range(self._why_clauses, len(clauses)):
            if c in guard:
                self._explainer.add_clause(clauses[c] + [-guard[c]])
            else:
                self._explainer.add_clause(clauses[c])
        self._why_clauses, self._why_spans = len(clauses), len(told)

    def explain(self, lit: Lit, given: Iterable[Lit] = (), *,
                conflicts: int = EXPLAIN_CONFLICTS) -> Explanation | None:
        """A minimal set of the told formulas and `given` facts that entails `lit`.

        Args:
            lit: the literal to explain.
            given: literals asked as assumptions (such as a puzzle's clues), kept in the
                explanation when it needs them.
            conflicts: the budget of each deletion test.

        Returns:
            The explanation under the open scopes, or None when they do not entail `lit`.
        """
        target = self._lit(lit)
        facts = [self._lit(g) for g in given]
        self.sync()
        self._sync_explainer()
        solver = self._explainer
        selectors = list(self._why_selectors)
        index = {s: i for i, s in enumerate(selectors)}
        items = set(index) | set(facts)
        base = self._scoped + [-target]
        if solver.solve(assumptions=base + selectors + facts) is not False:
            return None
        core = [s for s in (solver.get_core() or []) if s in items]
        minimal = True
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            solver.conf_budget(conflicts)
            result = solver.solve_limited(assumptions=base + trial)
            if result is False:  # still entailed without it: keep the (smaller) new core
                kept = set(solver.get_core() or trial)
                core = [s for s in trial if s in kept]
            else:
                minimal = minimal and result is not None
                k += 1
        told = self.kb.told
        order = sorted(index[s] for s in core if s in index)
        return Explanation(target, tuple(told[i][0] for i in order), minimal,
                           tuple((told[i][1], told[i][2]) for i in order),
                           tuple(s for s in core if s not in index))

    def raw_model(self) -> list[int]:
        """The last SAT answer's model as int literals (after `solve` returned True)."""
        model: list[int] | None = self._solver.get_model()
        if model is None:
            raise SolverError("no model: the last solve did not return SAT")
        return model

    def propagate(self, assumptions: Iterable[Lit] = ()) -> tuple[bool, list[int]]:
        """Unit propagation alone under assumptions: (no conflict, the literals it implies)."""
        self.sync()
        ok, implied = self._solver.propagate(assumptions=self._scoped + self._lits(assumptions))
        return bool(ok), list(implied)

    def add_guarded(self, selector: int, clause: Iterable[int]) -> None:
        """Add a clause that holds only while `selector` is assumed (recorded in the KB).

        The literals are the caller's own ids, so they are not checked again (a hot path of model
        enumeration).
        """
        self.kb.clauses.append([-selector, *clause])
        self.sync()

    def _named(self, model: list[int]) -> dict[str, bool]:
        names = self.kb.names()
        return {names[abs(v)]: v > 0 for v in model if abs(v) in names}

    def backbone(self, keys: Iterable[Hashable],
                 assumptions: Iterable[Lit] = ()) -> dict[Hashable, Verdict]:
        """Verdicts for many keys (under assumptions).

        A model that sets x=v shows ~v is consistent, so only the value the models agree on is ever
        asked; each refuting model prunes further queries.
        """
        keys = list(keys)
        ids = {k: self._lit(k) for k in keys}
        extra = [self._lit(a) for a in assumptions]
        if self.solve(extra) is not True:
            if self.last_reason is None and self.time_budget is None:
                raise SolverError("the knowledge base is unsatisfiable")
            return dict.fromkeys(keys, Verdict.UNKNOWN)
        model = set(self._solver.get_model())
        seen_true = {k for k in keys if ids[k] in model}
        seen_false = {k for k in keys if -ids[k] in model}
        out: dict[Hashable, Verdict] = {}
        for k in keys:
            if k in seen_true and k in seen_false:
                out[k] = Verdict.UNKNOWN
                continue
            value = ids[k] if k in seen_true else -ids[k]
            try:
                result = self.solve([*extra, -value])
            except UncertifiedClaim as e:  # said with what it was to prove
                raise UncertifiedClaim(f"{self._words(value)}: {e}") from None
            if result is False:
                out[k] = Verdict.TRUE if value > 0 else Verdict.FALSE
            elif result is None:
                out[k] = Verdict.UNKNOWN
            else:
                out[k] = Verdict.UNKNOWN
                other = set(self._solver.get_model())
                for j in keys:
                    if ids[j] in other:
                        seen_true.add(j)
                    else:
                        seen_false.add(j)
        return out

    def models(self, limit: int = 2, over: Iterable[Hashable] | None = None,
               assumptions: Iterable[Lit] = ()) -> list[dict[str, bool]]:
        """Up to `limit` models differing on `over` (default: every named variable).

        Blocking clauses carry a fresh selector literal that is assumed during enumeration and
        falsified afterwards, so the oracle stays reusable.
        """
        return [self._named(m) for m in self.raw_models(limit, over, assumptions)]

    def raw_models(self, limit: int = 2, over: Iterable[Hashable] | None = None,
                   assumptions: Iterable[Lit] = (), true_only: bool = False) -> list[list[int]]:
        """As `models`, but each model as the solver's list of int literals (fast path).

        `true_only` blocks a model by its true literals on `over` alone: a shorter clause that
        is enough when those determine the rest, as in one-hot (exactly-one) encodings.
        """
        ids = self._lits(over) if over is not None else sorted(self.kb.names())
        extra = self._lits(assumptions)
        selector = self.kb.pool.id(("_aux", self.kb.pool.top + 1))
        found: list[list[int]] = []
        # the first model is asked without the selector: no blocking clause exists yet, and
        # an assumption the solver must branch on first can send it down a much longer search
        # (a 20x20 Undead board: over 100 s with it, 2.5 s without, glucose4)
        while len(found) < limit and self.solve([selector, *extra] if found else extra) is True:
            model = self._solver.get_model()
            found.append(model)
            if true_only:
                block = [-i for i in ids if model[i - 1] > 0]
            else:
                values = {abs(v): v for v in model}
                block = [-values.get(i, i) for i in ids]
            self._solver.add_clause([-selector] + block)
        self._solver.add_clause([-selector])  # retire the blocking clauses
        self.kb.clauses.append([-selector])
        self._synced = len(self.kb.clauses)
        return found

