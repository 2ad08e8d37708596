"""What every static puzzle's solver answers: the status, a solution, and a second one.

Concepts: Status (unique / multiple / solved / unsat); SolveResult, where `second` is a
different solution, the evidence that a puzzle is not unique; SolverCache (one solver per
instance across an episode); SolverChoice (an agent's `--solver` option);
KeepsSolver (SolverChoice with a SolverCache); CappedSearchAgent (nodes and caps of the
baseline searches).
- solved_certified(solve, checker, name): a solve whose "unique" or "unsat" rests on
  certified UNSAT answers (`solve --certify`, la.solve(certify=...)), or UncertifiedClaim.
- raced(checks, unique): solver set-ups raced on two cores (logic/portfolio.race), each a
  check with uniqueness; a later set-up's answer is taken unless it shows two solutions
  (which two depends on the solver), so the answer never depends on which finished first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from logic_agents.errors import UncertifiedClaim
from logic_agents.ground.shapes import Record
from logic_agents.logic.certify import Tally, certifying, certifying_now
from logic_agents.logic.portfolio import race
from logic_agents.solving.options import solver_option
from logic_agents.world.budget import MIB, Budget
from logic_agents.world.declared import Option
from logic_agents.world.values import Answer

Status = Literal["unique", "multiple", "solved", "unsat"]
Sol = TypeVar("Sol")  # a puzzle's solution
Answered = TypeVar("Answered", bound="Answer[object]")  # what a game's solve answers
Inst = TypeVar("Inst")  # a puzzle's instance


class Closes(Protocol):
    """A solver an agent keeps: closed when the instance changes or the episode ends."""

    def close(self) -> None:
        """Free the solver."""


Solver = TypeVar("Solver", bound=Closes)


@dataclass
class SolveResult(Generic[Sol]):
    """How a search ended, a solution and a second one (world.values.Answer)."""

    status: Status
    solution: Sol | None = None
    second: Sol | None = None


def result_of(found: list[Sol], unique: bool) -> SolveResult[Sol]:
    """The result from up to two solutions found (`unique=False`: one was asked for)."""
    if not found:
        return SolveResult("unsat")
    if not unique:
        return SolveResult("solved", found[0])
    if len(found) == 1:
        return SolveResult("unique", found[0])
    return SolveResult("multiple", found[0], found[1])


def raced(checks: list[Callable[[], SolveResult[Sol]]], unique: bool) -> SolveResult[Sol]:
    """The first answer of `checks` (each a check with uniqueness, checks[0] the default
    set-up), raced on two cores; see the module docstring. `unique=False` keeps the solution
    alone, the one checks[0] would give first whenever it matters."""
    if certifying_now() is not None:  # certified in this process, where its tally counts
        result = checks[0]()
    else:
        _, result = race(checks, accept=lambda index, answer: answer.status != "multiple")
    if unique:
        return result
    return result_of([result.solution] if result.solution else [], unique=False)


def solved_certified(solve: Callable[[], Answered], checker: str,
                     name: str) -> tuple[Answered, Tally]:
    """`solve()` inside a `certifying` block (logic.certify): every UNSAT answer it rests on
    certified as it is given. A verdict of `unique` or `unsat` with no UNSAT answer to
    certify (a path that decided without the solver) is UncertifiedClaim: never a quiet
    pass. `name` says which puzzle, in those words."""
    with certifying(checker) as tally:
        result = solve()
    if result.status in ("unique", "unsat") and not tally.claims:
        raise UncertifiedClaim(f"{name}: the solver answered {result.status} without an "
                               "UNSAT answer to certify; the verdict stands unproved")
    return result, tally


class SolverCache(Generic[Inst, Solver]):
    """One solver per instance, kept across the steps of an episode and rebuilt (the old one
    closed) when the instance changes. `make(instance)` builds it."""

    def __init__(self, make: Callable[[Inst], Solver]):
        self.make = make
        self.instance: Inst | None = None
        self.solver: Solver | None = None

    def get(self, instance: Inst) -> Solver:
        if self.solver is None or self.instance != instance:
            if self.solver is not None:
                self.solver.close()
            self.solver = self.make(instance)
            self.instance = instance
        return self.solver

    def close(self) -> None:
        if self.solver is not None:
            self.solver.close()
        self.solver = None
        self.instance = None


class SolverChoice:
    """Mix in before a PlanningAgent: the `--solver` option (self.solver)."""

    options: tuple[Option, ...] = (solver_option(),)

    def __init__(self, *, solver: str | None = None, **rest: Any):
        self.solver = solver
        super().__init__(**rest)


class KeepsSolver(SolverChoice, Generic[Inst, Solver]):
    """SolverChoice, and a SolverCache (self.cache) of `solver_class(instance, self.solver)`:
    one solver per instance, closed at reset."""

    solver_class: Callable[[Inst, str | None], Solver]

    def __init__(self, *, solver: str | None = None, **rest: Any):
        make = self.solver_class
        self.cache: SolverCache[Inst, Solver] = SolverCache(
            lambda instance: make(instance, self.solver))
        super().__init__(solver=solver, **rest)

    def close(self) -> None:
        """Free the episode's solvers (reset calls it, so no answer depends on the last game)."""
        self.cache.close()
        super().close()  # type: ignore[misc]  # a mixin: the PlanningAgent after it closes too


class CappedSearchAgent:
    """Shared bookkeeping of the baseline agents that plan once with a capped search: its
    caps (node_cap nodes, time_cap seconds, memory_cap MiB estimated), nodes and the cap that
    stopped it."""

    node_cap: int | None
    time_cap: float | None
    memory_cap: int | None

    def _budget(self) -> Budget:
        memory = None if self.memory_cap is None else self.memory_cap * MIB
        return Budget(self.node_cap, self.time_cap, memory)

    def _reset_search(self) -> None:
        self.nodes = 0
        self.stopped: str | None = None
        self.searched = False

    def stats(self) -> Record:
        return {"guesses": 0, "nodes": self.nodes, "capped": int(self.stopped is not None)}
