"""The reasoning core. It knows no game: formulas, compilation to CNF, DIMACS and the oracle."""

from logic_agents.logic.formula import AtLeast, AtMost, Exactly, key_of, sym
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle, Verdict

__all__ = [
    "AtLeast",
    "AtMost",
    "Exactly",
    "KnowledgeBase",
    "SatOracle",
    "Verdict",
    "key_of",
    "sym",
]
