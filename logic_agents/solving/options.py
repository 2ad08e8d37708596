"""The SAT agents' declared solver option, with PySAT's incremental solvers as its choices.

Concepts: INCREMENTAL_SOLVERS (PySAT's solvers less Kissat, which ignores assumptions);
solver_option(default), the `--solver NAME` Option every SAT agent declares.
"""

from __future__ import annotations

from logic_agents.logic.names import SOLVERS
from logic_agents.world.declared import Option

INCREMENTAL_SOLVERS = tuple(s for s in SOLVERS if not s.startswith("kissat"))


def solver_option(default: str | None = None) -> Option:
    return Option("solver", str, default, "PySAT solver of the agent's incremental oracle",
                  choices=INCREMENTAL_SOLVERS, metavar="NAME")
