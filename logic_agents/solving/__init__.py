"""What games build their solving on, above both the world and the logic: a static puzzle's
answers (puzzle: SolveResult, result_of, raced, SolverCache, SolverChoice, KeepsSolver,
CappedSearchAgent) and the SAT agents' `--solver` option (options: solver_option).

The names are imported on first use (PEP 562), as in logic_agents.world.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from logic_agents.ground.lazy import LazyNames

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


_LAZY = LazyNames(__name__, {name: f"logic_agents.solving.{home}" for name, home in _HOMES.items()})
__getattr__ = _LAZY.attribute


def __dir__() -> list[str]:
    return _LAZY.listed(globals())
