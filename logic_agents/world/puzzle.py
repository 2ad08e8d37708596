"""What every static puzzle's solver answers: the status, a solution, and a second one.

Concepts: Status (unique / multiple / solved / unsat); SolveResult, where `second` is a
different solution, the evidence that a puzzle is not unique.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["unique", "multiple", "solved", "unsat"]


@dataclass
class SolveResult:
    status: Status
    solution: Any = None
    second: Any = None


def result_of(found: list[Any], unique: bool) -> SolveResult:
    """The result from up to two solutions found (`unique=False`: one was asked for)."""
    if not found:
        return SolveResult("unsat")
    if not unique:
        return SolveResult("solved", found[0])
    if len(found) == 1:
        return SolveResult("unique", found[0])
    return SolveResult("multiple", found[0], found[1])
