"""The sympy vocabulary of knowledge bases: named symbols and cardinality nodes.

Concepts:
- key: a structured variable name, a tuple such as ("D", 3, 4); its symbol prints as D_3_4.
- sym(key) / key_of(symbol): the two directions of that naming. The symbol carries its key
  (KeySymbol), so key_of gives back exactly the key (("my_flag",) stays one part) with no
  process-wide registry; two keys that print alike, such as ("D", 3, 4) and ("D", "3", 4),
  are two symbols, and a knowledge base refuses them only where it writes names (DIMACS).
  Names starting with `_aux` are kept for auxiliary variables. The same key gives the same
  symbol object (a bounded cache of objects, as sympy caches Symbol(name); the ids stay each
  knowledge base's), so a KB finds a literal it has met by identity.
- Exactly(k, *lits), AtMost(k, *lits), AtLeast(k, *lits): first-class sympy Boolean nodes;
  IdCardinality (logic.ids) is the same constraint over int literals, for hot paths.
  They print as written, fold constants like sympy's own And/Or, and `to_plain()` (alias
  `expand()`) spells them out as a plain And/Or formula for tiny cases and tests.

sympy is the language for writing and showing formulas; it never runs on a hot path. sympy
ships no types, so `Formula` (any sympy Boolean expression) is where the typing stops.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable
from typing import Any

from sympy import And, Integer, Not, Or, Symbol
from sympy.core.basic import Basic
from sympy.logic.boolalg import BooleanFunction, false, true

from logic_agents.errors import EncodingError
from logic_agents.ground.shapes import Record
from logic_agents.logic.ids import (  # noqa: F401 - the naming and int items, re-exported
    AUX_PREFIX,
    Formula,
    IdCardinality,
    IdClause,
    Key,
    check_name,
    decide,
    key_of,
    name_of,
)

MADE_AT_MOST = 1 << 14  # symbols kept for reuse: about 7 MiB at most (a 30x16 board has 480)


class KeySymbol(Symbol):  # type: ignore[misc]  # sympy is untyped: its classes are Any
    """A sympy Symbol that carries the key it was made from.

    It prints as the key's name, and it is equal only to a symbol of the same key (so
    ("D", 3, 4) and ("D", "3", 4) stay two).
    """

    key: Hashable

    def __new__(cls, key: Hashable) -> KeySymbol:
        """The symbol of a tuple key (a name is a plain Symbol: see `sym`).

        The same key gives the same object, as sympy's Symbol(name) does: its hash is then
        computed once, and a knowledge base's dict finds it by identity. A tell/ask agent
        that writes `~dagger(cell)` in its loop paid 10 us a literal for a new symbol and
        its lookup; a known one costs about 1 us.
        """
        name = check_name(name_of(key))
        if isinstance(key, str):
            raise EncodingError("a KeySymbol is made from a tuple key; a name is a plain Symbol")
        made_as = (cls, name, key)  # the name too: ("D", 1) and ("D", 1.0) are two symbols
        try:
            known = _MADE.get(made_as)
            hashable = True
        except TypeError:  # an unhashable part: nothing to find it by
            known, hashable = None, False
        if known is not None:
            return known
        symbol: KeySymbol = Symbol.__xnew__(cls, name)  # not the cached one: the key is ours
        symbol.key = key
        if hashable:
            if len(_MADE) >= MADE_AT_MOST:  # bounded: a long process of many boards
                _MADE.clear()
            _MADE[made_as] = symbol
        return symbol

    def _hashable_content(self) -> tuple[Any, ...]:
        return (*super()._hashable_content(), self.key)

    def __getnewargs_ex__(self) -> tuple[tuple[Hashable], Record]:
        """Pickled by its key."""
        return (self.key,), {}


_MADE: dict[tuple[type, str, Hashable], KeySymbol] = {}  # KeySymbol.__new__'s, by key


def sym(key: Hashable) -> Symbol:
    """The sympy symbol for a key: a KeySymbol for a tuple, a plain Symbol for a name."""
    if isinstance(key, str):
        return Symbol(check_name(key))
    if not (isinstance(key, tuple) and key):
        raise EncodingError(f"variable key must be a string or a non-empty tuple, got {key!r}")
    return KeySymbol(key)


def literal_parts(expr: Formula) -> tuple[Symbol, bool]:
    """(symbol, positive) for a literal `x` or `~x`; EncodingError for anything else."""
    if isinstance(expr, Symbol):
        return expr, True
    if isinstance(expr, Not) and isinstance(expr.args[0], Symbol):
        return expr.args[0], False
    raise EncodingError(f"not a literal: {expr}")


def _is_true(x: Formula) -> bool:
    return x is True or x == true


def _is_false(x: Formula) -> bool:
    return x is False or x == false


class _Cardinality(BooleanFunction):  # type: ignore[misc]  # (as KeySymbol)
    """Shared machinery of Exactly/AtMost/AtLeast: args are (Integer(k), *literals)."""

    @classmethod
    def _decide(cls, k: int, n: int) -> bool | None:
        return decide(cls.__name__, k, n)

    def __new__(cls, k: int, *lits: Formula, evaluate: bool = True) -> Formula:
        if len(lits) == 1 and isinstance(lits[0], (list, tuple, set, frozenset)):
            lits = tuple(lits[0])
        try:
            bound = int(k)
        except (TypeError, ValueError) as e:
            raise EncodingError(f"{cls.__name__}: bound must be an integer, got {k!r}") from e
        kept = []
        for lit in lits:
            if _is_true(lit):
                bound -= 1
            elif _is_false(lit):
                continue
            else:
                literal_parts(lit)  # validates
                kept.append(lit)
        if evaluate:
            decided = cls._decide(bound, len(kept))
            if decided is not None:
                return true if decided else false
        return Basic.__new__(cls, Integer(bound), *kept)

    @property
    def k(self) -> int:
        return int(self.args[0])

    @property
    def lits(self) -> tuple[Formula, ...]:
        return tuple(self.args[1:])

    def _sympystr(self, printer: Any) -> str:
        inner = ", ".join(printer._print(lit) for lit in self.lits)
        return f"{type(self).__name__}({self.k}, {inner})"

    def _pretty(self, printer: Any) -> Any:
        from sympy.printing.pretty.stringpict import prettyForm

        inner = ", ".join(str(printer._print(lit)) for lit in self.lits)
        return prettyForm(f"{type(self).__name__}({self.k}, {inner})")

    def _latex(self, printer: Any) -> str:
        inner = ", ".join(printer._print(lit) for lit in self.lits)
        return rf"\operatorname{{{type(self).__name__}}}_{{{self.k}}}({inner})"

    def to_plain(self) -> Formula:
        """The same constraint as a plain sympy And/Or formula (exponential: tiny cases only)."""
        raise NotImplementedError  # pragma: no cover - abstract

    expand = to_plain


def _at_most_plain(k: int, lits: tuple[Formula, ...]) -> Formula:
    return And(*[Or(*[Not(x) for x in group]) for group in itertools.combinations(lits, k + 1)])


def _at_least_plain(k: int, lits: tuple[Formula, ...]) -> Formula:
    n = len(lits)
    return And(*[Or(*group) for group in itertools.combinations(lits, n - k + 1)])


class AtMost(_Cardinality):
    """At most k of the literals are true."""

    def to_plain(self) -> Formula:
        """The constraint spelled out as a plain And/Or formula (tiny cases, tests)."""
        return _at_most_plain(self.k, self.lits)

    expand = to_plain


class AtLeast(_Cardinality):
    """At least k of the literals are true."""

    def to_plain(self) -> Formula:
        """The constraint spelled out as a plain And/Or formula (tiny cases, tests)."""
        return _at_least_plain(self.k, self.lits)

    expand = to_plain


class Exactly(_Cardinality):
    """Exactly k of the literals are true."""

    def to_plain(self) -> Formula:
        """The DNF a person would write first: one conjunction per choice of k true literals.

        This is the form whose `to_cnf` blows up; it is kept because the naive route uses it.
        """
        lits = self.lits
        terms = []
        for chosen in itertools.combinations(range(len(lits)), self.k):
            picked = set(chosen)
            terms.append(And(*[x if i in picked else Not(x) for i, x in enumerate(lits)]))
        return Or(*terms)

    expand = to_plain


CARDINALITY_NODES = (Exactly, AtMost, AtLeast)


def evaluate(formula: Formula, assignment: dict[Symbol, bool]) -> bool:
    """Truth value of a formula under a complete assignment of its symbols (for tests)."""
    value = formula.xreplace({s: (true if assignment[s] else false) for s in formula.free_symbols})
    if value not in (true, false):
        raise EncodingError(f"assignment leaves {value} undecided")
    return bool(value == true)


def symbols_of(formulas: Iterable[Formula]) -> set[Symbol]:
    """All symbols that occur in the formulas."""
    out: set[Symbol] = set()
    for f in formulas:
        out |= f.free_symbols
    return out
