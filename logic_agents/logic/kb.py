"""KnowledgeBase: what an agent knows, as readable formulas and as integer clauses.

Concepts:
- tell(*items): sympy formulas, Exactly/AtMost/AtLeast nodes, or the int-level items of
  logic.ids (IdCardinality, IdClause: what hot paths tell, compiled without sympy and printed
  as sympy only on request), or raw int clauses; each item is compiled once (tseitin route by
  default) and its clauses appended. sympy is imported only when a sympy formula is told or a
  formula is printed;
- one IDPool per KB maps keys ("D", 3, 4) to DIMACS ids, keyed by the key object as PySAT
  keys its objects: var(key), key(id), name(id). A name (a string) finds the one key that
  prints so; two keys that print alike are two variables, refused only where names are
  written (to_dimacs, names()) or looked up. There is no process-wide state;
- clauses: the growing CNF, read by SatOracle.sync() so that nothing is rebuilt;
- pretty(): the formulas as a person would write them; to_dimacs(): the file `cnf` writes.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from pysat.formula import IDPool

from logic_agents.errors import EncodingError
from logic_agents.logic.card import cardinality_clauses
from logic_agents.logic.dimacs import format_dimacs
from logic_agents.logic.ids import (
    AUX_PREFIX,
    Formula,
    IdCardinality,
    IdClause,
    Lit,
    check_name,
    key_of,
    name_of,
)


class _Shown:
    """A told item whose sympy form is built only when a person reads it (str).

    It stands for its item: equal to it and hashed alike, so a dict keyed by told items (a game's words
    for its formulas) finds the explanation's formulas.
    """

    def __init__(self, kb: KnowledgeBase, item: Formula, selector: int | None = None):
        self.kb, self.item, self.selector = kb, item, selector

    def sympy(self) -> Formula:
        from sympy import Implies, Or, Symbol

        from logic_agents.logic import formula

        node = self.item
        if isinstance(node, IdCardinality):
            kinds = {"Exactly": formula.Exactly, "AtMost": formula.AtMost,
                     "AtLeast": formula.AtLeast}
            node = kinds[node.kind](node.k, *[self.kb.sympy_literal(x) for x in node.lits])
        elif isinstance(node, IdClause):
            node = Or(*[self.kb.sympy_literal(x) for x in node.lits])
        if self.selector is None:
            return node
        return Implies(Symbol(self.kb.name(self.selector)), node, evaluate=False)

    def __str__(self) -> str:
        return str(self.sympy())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Shown):
            return self.item == other.item and self.selector == other.selector
        return self.selector is None and self.item == other

    def __hash__(self) -> int:
        return hash(self.item) if self.selector is None else hash((self.item, self.selector))


def _is_sympy_boolean(item: Formula) -> bool:
    """A sympy Boolean (only possible once sympy is loaded, so it is not loaded to ask)."""
    if "sympy" not in sys.modules:
        return False
    from sympy.logic.boolalg import Boolean

    return isinstance(item, Boolean)


class KnowledgeBase:
    """A monotonically growing set of formulas and the clauses compiled from them."""

    def __init__(self, *, method: str = "tseitin", card_encoding: str = "seqcounter"):
        """An empty KB.

        Args:
            method: how sympy formulas compile to clauses ("tseitin", or "sympy" for tiny
                cases and tests).
            card_encoding: PySAT's encoding of a cardinality (see logic.card).
        """
        self.method = method
        self.pool = IDPool()
        self.formulas: list[Formula] = []
        self.clauses: list[list[int]] = []
        # (formula as shown, first clause, end): what each told formula compiled to
        self.told: list[tuple[Formula, int, int]] = []
        self._literal_ids: dict[Formula, int] = {}  # a symbol's id, its negation's minus it
        self._key_ids: dict[Hashable, int] = {}  # every key, and names looked up
        self._name_ids: dict[str, list[int]] = {}  # name -> the ids of the keys printing so
        self.card_encoding = card_encoding
        self._compiler_: Any = None

    @property
    def _compiler(self) -> Any:
        """The sympy formula compiler, made (and sympy imported) on first need."""
        if self._compiler_ is None:
            from logic_agents.logic.compile import Compiler

            self._compiler_ = Compiler(self.pool, self.literal, card_encoding=self.card_encoding)
        return self._compiler_

    @classmethod
    def from_clauses(cls, num_vars: int, clauses: list[list[int]],
                     keys: Mapping[int, Hashable] | None = None) -> KnowledgeBase:
        """A KB over integer clauses an encoder built itself.

        It lets such an encoder ask through SatOracle like any other, and `kb.var(key)` find
        its variables. The list is copied (its clauses are shared), so what the KB is told
        later never reaches the encoder.

        Args:
            num_vars: the ids are 1..num_vars.
            clauses: the clauses, as lists of ints.
            keys: the keys of some ids, such as ("X", 1, 2), or names.

        Returns:
            The KB.
        """
        kb = cls()
        kb.pool = IDPool(start_from=num_vars + 1)
        for vid, key in sorted((keys or {}).items()):
            if not 1 <= vid <= num_vars:
                raise EncodingError(f"variable {vid} of key {key!r} is not in 1..{num_vars}")
            kb._bind(key, vid)
        kb.clauses = list(clauses)
        return kb

    def copy(self) -> KnowledgeBase:
        """An independent KB with the same formulas, clauses and ids.

        What a solver of its own starts from, when the compiled rules are cached and shared.
        """
        twin = KnowledgeBase.__new__(KnowledgeBase)
        twin.method = self.method
        twin.pool = IDPool(start_from=self.pool.top + 1)
        twin.pool.obj2id.update(self.pool.obj2id)
        twin.pool.id2obj.update(self.pool.id2obj)
        twin.formulas = list(self.formulas)
        twin.clauses = list(self.clauses)  # clauses are never changed in place
        twin.told = list(self.told)
        twin._literal_ids = dict(self._literal_ids)
        twin._key_ids = dict(self._key_ids)
        twin._name_ids = {name: list(ids) for name, ids in self._name_ids.items()}
        twin.card_encoding = self.card_encoding
        twin._compiler_ = None
        return twin

    # -- names and ids -------------------------------------------------------------------
    def var(self, key: Hashable) -> int:
        """The DIMACS id of a key, allocated on first use.

        Keyed by the key itself, as PySAT's IDPool keys its objects. A string is a name:
        "D_3_4" is the variable whose key prints so (a new variable of that name if there is
        none; an error if two keys print so).
        """
        vid = self._key_ids.get(key)
        if vid is None:
            vid = self._by_name(key) if isinstance(key, str) else self._allocate(key)
        return vid

    def _allocate(self, key: Hashable) -> int:
        name = check_name(name_of(key))
        held = self._name_ids.get(name, [])
        if len(held) == 1 and isinstance(self.pool.obj(held[0]), str):
            # the variable was first named by its string: the key takes it over
            vid = held[0]
            del self.pool.obj2id[self.pool.obj(vid)]
            self.pool.obj2id[key] = vid
            self.pool.id2obj[vid] = key
            self._key_ids[key] = vid
            return vid
        vid = int(self.pool.id(key))
        self._bind(key, vid)
        return vid

    def _bind(self, key: Hashable, vid: int) -> None:
        name = check_name(name_of(key))
        self.pool.obj2id[key] = vid
        self.pool.id2obj[vid] = key
        self._key_ids[key] = vid
        ids = self._name_ids.setdefault(name, [])
        ids.append(vid)
        if len(ids) > 1:  # the name no longer finds one variable
            self._key_ids.pop(name, None)

    def _by_name(self, name: str) -> int:
        ids = self._name_ids.get(check_name(name), [])
        if len(ids) > 1:
            raise EncodingError(f"the name {name} is printed by {len(ids)} keys ("
                                + ", ".join(repr(self.pool.obj(v)) for v in ids[:3])
                                + "): look the variable up by its key")
        if ids:
            vid = ids[0]
        else:
            vid = self.pool.id(name)
            self._name_ids[name] = [vid]
        self._key_ids[name] = vid
        return vid

    def _symbol_id(self, symbol: Formula) -> int:
        vid = self._literal_ids.get(symbol)
        if vid is None:
            key = key_of(symbol)
            if isinstance(key, tuple) and key and key[0] == AUX_PREFIX:
                raise EncodingError(f"variable names starting with {AUX_PREFIX!r} are kept for "
                                    f"auxiliary variables: {symbol}")
            vid = self._literal_ids[symbol] = self.var(key)
        return vid

    def literal(self, lit: Lit) -> int:
        """An int literal for a sympy literal (x or ~x), a key, or an int (passed through)."""
        if isinstance(lit, int):
            return lit
        if isinstance(lit, (tuple, str)):
            return self.var(lit)
        # a literal met before, found by identity: sym(key) gives one object a key, and
        # sympy one negation a symbol, so an agent's `~dagger(cell)` is a dict hit
        try:
            known = self._literal_ids.get(lit)
        except TypeError:  # unhashable: no literal
            known = None
        if known is not None:
            return known
        from sympy import Not, Symbol

        if isinstance(lit, Symbol):
            return self._symbol_id(lit)
        if isinstance(lit, Not) and isinstance(lit.args[0], Symbol):
            vid = self._literal_ids[lit] = -self._symbol_id(lit.args[0])
            return vid
        raise EncodingError(f"not a literal: {lit!r}")

    def key(self, var: int) -> Hashable | None:
        """The key of an id, or None for an auxiliary variable."""
        obj: Hashable | None = self.pool.obj(abs(var))
        if obj is None or (isinstance(obj, tuple) and obj and obj[0] == AUX_PREFIX):
            return None
        return obj

    def name(self, var: int) -> str:
        """The name a DIMACS file gives a variable (an auxiliary one's is `_aux_N`)."""
        key = self.key(var)
        return name_of(key) if key is not None else f"{AUX_PREFIX}_{abs(var)}"

    def names(self) -> dict[int, str]:
        """{id: name} for every named (non-auxiliary) variable: the DIMACS file's names.

        Raises:
            EncodingError: two keys print alike (a name must mean one variable).
        """
        out = {}
        for name, ids in self._name_ids.items():
            if len(ids) > 1:
                raise EncodingError(f"keys {self.pool.obj(ids[0])!r} and {self.pool.obj(ids[1])!r}"
                                    f" would both be named {name}")
            out[ids[0]] = name
        return dict(sorted(out.items()))

    @property
    def num_vars(self) -> int:
        """The highest id allocated."""
        return int(self.pool.top)

    # -- telling ---------------------------------------------------------------------------
    def tell(self, *items: Any) -> list[list[int]]:
        """Add formulas or int clauses; returns the clauses this call appended.

        Each formula is remembered with the clauses it compiled to (`told`), for explanations.
        """
        start = len(self.clauses)
        for item in items:
            self._tell_one(item)
        return self.clauses[start:]

    def tell_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add raw int clauses (background, never explained), kept as given, not copied.

        `tell` for lists of ints alone, checked as one batch without its dispatch: a maze
        generator adds about 500,000 of them.
        """
        added = [c if type(c) is list else list(c) for c in clauses]
        literals = [lit for clause in added for lit in clause]
        top = self.pool.top
        if literals and (0 in literals or max(literals) > top or -min(literals) > top):
            for clause in added:
                self._check_literals(clause)  # raises, naming the literal
        self.clauses.extend(added)

    def _tell_one(self, item: Formula) -> None:
        if isinstance(item, IdCardinality):
            self._record(_Shown(self, item), self._card_clauses(item))
        elif isinstance(item, IdClause):
            self._check_literals(item.lits)
            self._record(_Shown(self, item), [list(item.lits)])
        elif isinstance(item, (list, tuple)) and all(isinstance(x, int) for x in item):
            self.tell_clauses([list(item)])  # a raw clause: background, never explained
        elif isinstance(item, (list, tuple)):
            for part in item:
                self._tell_one(part)
        elif isinstance(item, bool) or _is_sympy_boolean(item):
            self._record(item, self._compiler.compile(item, self.method))
        else:
            raise EncodingError(f"cannot tell {type(item).__name__}: {item!r}")

    def _check_literals(self, lits: Any) -> None:
        for lit in lits:
            if lit == 0:
                raise EncodingError("0 is not a literal (DIMACS uses it as terminator)")
            if abs(lit) > self.pool.top:
                raise EncodingError(f"literal {lit} names no allocated variable")

    def _record(self, shown: Formula, clauses: list[list[int]]) -> None:
        self.formulas.append(shown)
        start = len(self.clauses)
        self.clauses.extend(clauses)
        self.told.append((shown, start, len(self.clauses)))

    def tell_guarded(self, selector: int, *formulas: Formula) -> list[list[int]]:
        """Add formulas that hold only when `selector` is true (each clause gets ~selector)."""
        start = len(self.clauses)
        for formula in formulas:
            if isinstance(formula, IdCardinality):
                clauses = self._card_clauses(formula)
            elif isinstance(formula, IdClause):
                self._check_literals(formula.lits)
                clauses = [list(formula.lits)]
            else:
                clauses = self._compiler.compile(formula, self.method)
            if clauses:  # a formula that folded to True says nothing worth printing
                self._record(_Shown(self, formula, selector),
                             [[-selector] + clause for clause in clauses])
        return self.clauses[start:]

    def _card_clauses(self, item: IdCardinality) -> list[list[int]]:
        return cardinality_clauses(item.kind, item.k, list(item.lits), self.pool,
                                   self.card_encoding)

    def sympy_literal(self, lit: int) -> Formula:
        """The sympy literal of an int literal (by the variable's name)."""
        from sympy import Not, Symbol

        atom = Symbol(self.name(lit))
        return atom if lit > 0 else Not(atom)

    def __len__(self) -> int:
        """The number of clauses."""
        return len(self.clauses)

    # -- showing ---------------------------------------------------------------------------
    def pretty(self, limit: int | None = None) -> str:
        """The told formulas, one per line, as sympy prints them."""
        shown = self.formulas if limit is None else self.formulas[:limit]
        lines = [str(f) for f in shown]
        if limit is not None and len(self.formulas) > limit:
            lines.append(f"... and {len(self.formulas) - limit} more")
        return "\n".join(lines)

    def to_dimacs(self, comments: Iterable[str] = ()) -> str:
        """A DIMACS text with `c var <id> <name>` for every named variable."""
        return format_dimacs(self.num_vars, self.clauses, self.names(), comments)
