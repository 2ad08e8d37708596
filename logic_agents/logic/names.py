"""Names the command line offers before any reasoning is needed.

Kept free of sympy, so that `--help` starts fast.

Concepts: SOLVERS (PySAT's solver names), DEFAULT_SOLVER, CARD_ENCODING_NAMES (the pysat.card
encodings compile.CARD_ENCODINGS maps to).
"""

from __future__ import annotations

from pysat.solvers import SolverNames

DEFAULT_SOLVER = "glucose4"
SOLVERS = tuple(sorted(k for k in vars(SolverNames) if not k.startswith("_")))
CARD_ENCODING_NAMES = ("pairwise", "ladder", "seqcounter", "totalizer", "sortnetwrk",
                       "cardnetwrk", "mtotalizer", "kmtotalizer")
