"""Formulas to integer clauses, without blow-up.

Concepts:
- a clause (a literal or an Or of literals) passes through unchanged;
- a top-level And is compiled conjunct by conjunct;
- cardinality nodes (Exactly/AtMost/AtLeast) become direct binomial clauses over at most
  DIRECT_LIMIT literals and a `pysat.card` encoding above that, always on the caller's IDPool
  (logic.card, which the KB also uses for the int-level items, without sympy);
- any other formula goes through Tseitin: one auxiliary variable per internal node;
- method="sympy" is the naive route, `sympy.to_cnf` of the plain formula, kept for teaching and
  comparison; a size guard refuses before distribution can hang.
"""

from __future__ import annotations

from collections.abc import Callable

from pysat.formula import IDPool
from sympy import And, Equivalent, Implies, Not, Or, Symbol, Xor
from sympy.logic.boolalg import ITE, BooleanFalse, BooleanTrue, to_cnf, to_nnf

from logic_agents.errors import EncodingError, UnknownName
from logic_agents.logic.card import DIRECT_LIMIT, cardinality_clauses
from logic_agents.logic.formula import _Cardinality
from logic_agents.logic.ids import AUX_PREFIX, Formula

Clause = list[int]
LiteralIds = Callable[[Formula], int]

SYMPY_CLAUSE_LIMIT = 5000
METHODS = ("tseitin", "sympy")


def _clause_literals(formula: Formula) -> list[Formula] | None:
    """The literals of a formula that already is a clause, else None."""
    if isinstance(formula, Symbol) or (isinstance(formula, Not) and isinstance(formula.args[0], Symbol)):
        return [formula]
    if isinstance(formula, Or) and all(
        isinstance(a, Symbol) or (isinstance(a, Not) and isinstance(a.args[0], Symbol))
        for a in formula.args
    ):
        return list(formula.args)
    return None


class Compiler:
    """Compiles sympy formulas into clauses on one IDPool; `lit_id` maps a literal to an int."""

    def __init__(self, pool: IDPool, lit_id: LiteralIds, *,
                 card_encoding: str = "seqcounter"):
        """A compiler that allocates its auxiliary ids in `pool`; `lit_id` names a literal."""
        self.pool = pool
        self.lit_id = lit_id
        self.card_encoding = card_encoding

    def fresh(self) -> int:
        """A new auxiliary variable, named _aux_<id> in the DIMACS comments."""
        fresh: int = self.pool.id((AUX_PREFIX, self.pool.top + 1))
        return fresh

    def compile(self, formula: Formula, method: str = "tseitin") -> list[Clause]:
        """The clauses of a formula: Tseitin's (linear), or sympy's to_cnf for tiny ones."""
        if method == "sympy":
            return self.compile_sympy(formula)
        if method != "tseitin":
            raise UnknownName(f"unknown compile method {method!r}; choose one of {', '.join(METHODS)}")
        return self._top(formula)

    def _top(self, formula: Formula) -> list[Clause]:
        if isinstance(formula, (bool, BooleanTrue, BooleanFalse)):
            return [] if bool(formula) else [[]]
        lits = _clause_literals(formula)
        if lits is not None:
            return [[self.lit_id(x) for x in lits]]
        if isinstance(formula, And):
            return [c for arg in formula.args for c in self._top(arg)]
        if isinstance(formula, _Cardinality):
            ids = [self.lit_id(x) for x in formula.lits]
            return cardinality_clauses(type(formula), formula.k, ids, self.pool, self.card_encoding)
        clauses: list[Clause] = []
        root = self._gate(formula, clauses)
        clauses.append([root])
        return clauses

    def _gate(self, f: Formula, out: list[Clause]) -> int:
        """Tseitin: return a literal equivalent to f, appending its defining clauses to out."""
        if isinstance(f, Symbol):
            return self.lit_id(f)
        if isinstance(f, Not):
            return -self._gate(f.args[0], out)
        if isinstance(f, (bool, BooleanTrue, BooleanFalse)):
            v = self.fresh()
            out.append([v] if bool(f) else [-v])
            return v
        if isinstance(f, And):
            subs = [self._gate(a, out) for a in f.args]
            v = self.fresh()
            out.extend([-v, s] for s in subs)
            out.append([v] + [-s for s in subs])
            return v
        if isinstance(f, Or):
            subs = [self._gate(a, out) for a in f.args]
            v = self.fresh()
            out.extend([v, -s] for s in subs)
            out.append([-v] + subs)
            return v
        if isinstance(f, Implies):
            return self._gate(Or(Not(f.args[0]), f.args[1]), out)
        if isinstance(f, ITE):
            c, a, b = f.args
            return self._gate(Or(And(c, a), And(Not(c), b)), out)
        if isinstance(f, Xor):
            acc = self._gate(f.args[0], out)
            for arg in f.args[1:]:
                b = self._gate(arg, out)
                v = self.fresh()
                out += [[-v, acc, b], [-v, -acc, -b], [v, -acc, b], [v, acc, -b]]
                acc = v
            return acc
        if isinstance(f, Equivalent):
            subs = [self._gate(a, out) for a in f.args]
            pairs = []
            for a, b in zip(subs, subs[1:]):
                v = self.fresh()
                out += [[-v, -a, b], [-v, a, -b], [v, a, b], [v, -a, -b]]
                pairs.append(v)
            if len(pairs) == 1:
                return pairs[0]
            v = self.fresh()
            out.extend([-v, s] for s in pairs)
            out.append([v] + [-s for s in pairs])
            return v
        if isinstance(f, _Cardinality):
            if len(f.lits) > DIRECT_LIMIT:
                raise EncodingError(
                    f"{type(f).__name__} over {len(f.lits)} literals nested inside another "
                    f"connective; state it at the top level of tell() instead"
                )
            return self._gate(f.to_plain(), out)
        raise EncodingError(f"cannot compile {type(f).__name__}: {f}")

    def compile_sympy(self, formula: Formula, limit: int = SYMPY_CLAUSE_LIMIT) -> list[Clause]:
        """The naive route: spell out cardinality, then sympy.to_cnf, guarded against blow-up."""
        plain = to_nnf(expand_cardinality(formula), simplify=False)
        estimate = distributed_size(plain)
        if estimate > limit:
            raise EncodingError(
                f"sympy.to_cnf would distribute about {estimate} clauses (limit {limit}); "
                f"refusing before it hangs. Use the tseitin route."
            )
        cnf = to_cnf(plain, simplify=False)
        if isinstance(cnf, (BooleanTrue, BooleanFalse)):
            return [] if bool(cnf) else [[]]
        conjuncts = cnf.args if isinstance(cnf, And) else (cnf,)
        clauses = []
        for conj in conjuncts:
            lits = _clause_literals(conj)
            if lits is None:  # pragma: no cover - to_cnf guarantees clauses
                raise EncodingError(f"to_cnf returned a non-clause: {conj}")
            clauses.append([self.lit_id(x) for x in lits])
        return clauses


def expand_cardinality(formula: Formula) -> Formula:
    """Replace every cardinality node by its plain And/Or spelling."""
    if isinstance(formula, _Cardinality):
        return expand_cardinality(formula.to_plain())
    if not getattr(formula, "args", None) or isinstance(formula, Symbol):
        return formula
    if isinstance(formula, (And, Or, Not, Implies, Equivalent, Xor, ITE)):
        return formula.func(*[expand_cardinality(a) for a in formula.args])
    return formula


def distributed_size(nnf: Formula) -> int:
    """How many clauses distributing And over Or produces for an NNF formula (before pruning)."""
    if isinstance(nnf, And):
        return sum(distributed_size(a) for a in nnf.args)
    if isinstance(nnf, Or):
        size = 1
        for a in nnf.args:
            size *= distributed_size(a)
            if size > 10**12:
                return size
        return size
    return 1
