"""Opening a PySAT solver the way every part of logic-agents does.

Concepts:
- check_solver_name(name): a PySAT solver's name, checked; Kissat refused for incremental
  use, since it ignores assumptions and cannot answer incremental questions.
- open_solver(name, shuffle=..., options=...): the solver, its own options set before any
  clause, and renumbered (logic.renumber.Renumbered) under `shuffle` or
  LOGIC_AGENTS_SHUFFLE=N in the environment (every oracle the process makes, the k-th with
  seed "N:k"), so any command or benchmark can be run again with other luck.
- NOT_INTERRUPTIBLE: the solvers a time budget cannot interrupt.
- open_solver(..., certify=TALLY): every UNSAT answer certified (logic.certify), counted in
  the Tally, whose checker checks it.
"""

from __future__ import annotations

import random
from typing import Any

from pysat.solvers import Solver

from logic_agents.errors import SolverError, UnknownName
from logic_agents.logic.certify import Certified, Tally, certifying_now
from logic_agents.logic.names import SOLVERS
from logic_agents.logic.renumber import Renumbered, environment_shuffle

# Chosen by benchmarks/bench_daggers.py (oracle section): see docs/BENCHMARKS.md.
NOT_INTERRUPTIBLE = ("cadical", "kissat")


def check_solver_name(name: str, *, incremental: bool = True) -> str:
    """Validate a solver name; refuse Kissat for incremental use."""
    if name not in SOLVERS:
        raise UnknownName(f"unknown solver {name!r}; choose one of {', '.join(SOLVERS)}")
    if incremental and name.startswith("kissat"):
        raise SolverError(
            f"{name} ignores assumptions, so it cannot be used incrementally; "
            "choose cadical195 or glucose4"
        )
    return name


def open_solver(name: str, *, shuffle: int | str | None = None,
                options: dict[str, int] | None = None,
                certify: Tally | None = None) -> tuple[Any, random.Random | None]:
    """A PySAT solver, and its renumbering's random source or None.

    The name is checked (Kissat refused), the solver's own options are set before any
    clause (CaDiCaL's `configure`), and it is renumbered (Renumbered) under `shuffle` or
    LOGIC_AGENTS_SHUFFLE. With `certify` (a logic.certify.Tally: a checker and its counts),
    or inside a `certifying` block, every UNSAT answer is certified as it is given
    (logic.certify.Certified, under the renumbering). SatOracle
    opens its solver here; a game that hands a solver raw clauses (the Undead seen core) does
    too.
    """
    solver: Any  # pysat is untyped
    tally = certify or certifying_now()  # a `certifying` block certifies every solver in it
    if tally is not None:
        solver = Certified(check_solver_name(name), tally=tally)
    else:
        solver = Solver(name=check_solver_name(name))
    if options:
        solver.configure(options)
    shuffle = shuffle if shuffle is not None else environment_shuffle()
    rng = None if shuffle is None else random.Random(shuffle)
    return (solver if rng is None else Renumbered(solver, rng)), rng
