"""The reasoning core. It knows no game: formulas, compilation to CNF, DIMACS and the oracle.

The names below are imported on first use (PEP 562), so that importing one light module of
the package (names, dimacs) does not import sympy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from logic_agents.ground.lazy import LazyNames

_HOMES = {
    "AtLeast": "formula", "AtMost": "formula", "Exactly": "formula", "key_of": "ids",
    "IdCardinality": "ids", "IdClause": "ids",
    "sym": "formula", "KeySymbol": "formula", "KnowledgeBase": "kb", "SatOracle": "oracle",
    "Verdict": "oracle", "Query": "query",
}

__all__ = [
    "AtLeast",
    "AtMost",
    "Exactly",
    "IdCardinality",
    "IdClause",
    "KeySymbol",
    "KnowledgeBase",
    "Query",
    "SatOracle",
    "Verdict",
    "key_of",
    "sym",
]

if TYPE_CHECKING:  # what a type checker and an editor see; at run time __getattr__ imports
    from logic_agents.logic.formula import AtLeast, AtMost, Exactly, KeySymbol, sym
    from logic_agents.logic.ids import IdCardinality, IdClause, key_of
    from logic_agents.logic.kb import KnowledgeBase
    from logic_agents.logic.oracle import SatOracle, Verdict
    from logic_agents.logic.query import Query


_LAZY = LazyNames(__name__, {name: f"logic_agents.logic.{home}" for name, home in _HOMES.items()})
__getattr__ = _LAZY.attribute


def __dir__() -> list[str]:  # tab completion lists the lazy names too
    return _LAZY.listed(globals())
