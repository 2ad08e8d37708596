"""What games build their solving on, above both the world and the logic: a static puzzle's
answers (puzzle: SolveResult, result_of, raced, SolverCache, SolverChoice, KeepsSolver,
CappedSearchAgent) and the SAT agents' `--solver` option (options: solver_option).

The names are imported on first use (PEP 562), as in logic_agents.world.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and editors see
    from logic_agents.solving.options import INCREMENTAL_SOLVERS, solver_option  # noqa: F401
    from logic_agents.solving.puzzle import (  # noqa: F401
        CappedSearchAgent,
        KeepsSolver,
        SolverCache,
        SolverChoice,
        SolveResult,
        Status,
        raced,
        result_of,
    )

_HOMES = {
    **dict.fromkeys(("SolveResult", "Status", "result_of", "raced", "SolverCache",
                     "SolverChoice", "KeepsSolver", "CappedSearchAgent"), "puzzle"),
    **dict.fromkeys(("solver_option", "INCREMENTAL_SOLVERS"), "options"),
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"logic_agents.solving.{_HOMES[name]}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
