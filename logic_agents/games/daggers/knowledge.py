"""DaggersKB: what satx knows about one game, in the shape of aima-python's WumpusKB.

Concepts:
- DaggersKB.tell(observation): the facts the observation adds (read from the agent's one
  GridChanges tracker: each open cell is safe, each clue an Exactly over its covered
  neighbours, each flag or hit a dagger).
- DaggersKB.decide(frontier): a Verdict for every frontier cell, and with the global count a
  shared one for the interior (cells no clue touches): the count stated as a window on the
  frontier, asked under a scoped selector, so nothing is rebuilt.
- Routes, chosen once when the KB is made, never in the agent's loop: `tseitin` with one
  incremental SatOracle (the default), `incremental=False` (a fresh KB and solver per
  question, for comparison), `encoding="sympy"` (the 2018 report's KB rebuilt through
  sympy.to_cnf per question).
- QueryEvent: what a question hands to `on_query` (used by `cnf`); `proofs`: with `explain`
  on, the minimal proof of each decided cell, in words (a Why).
- DaggersKB.prove(obs): tell, then the probes proved safe and the cells proved dangerous (a
  DaggersKB per episode is the game's Proofs prover: the Gymnasium env's SatTeacher labels).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from logic_agents.games.daggers.clues import GridChanges
from logic_agents.games.daggers.encode import (
    DaggersEncoder,
    count_window,
    dagger_key,
    encode_naive,
    frontier,
)
from logic_agents.games.daggers.world import DaggersAction, DaggersObservation, probe
from logic_agents.logic.certify import Tally
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle, Verdict
from logic_agents.logic.query import Query
from logic_agents.world.core import Why
from logic_agents.world.view import Cell

ENCODINGS = ("tseitin", "sympy")


@dataclass
class QueryEvent(Query):
    """One satisfiability test: its number (1-based), what was known, what was decided."""

    index: int
    observation: DaggersObservation
    kb: KnowledgeBase
    verdicts: dict[Cell, Verdict] = field(default_factory=dict)
    assumptions: list[int] = field(default_factory=list)  # literals assumed for this test
    agent_settings: str = ""

    def __post_init__(self) -> None:
        # the KB lives on (and retires this test's selectors); remember its size now
        self.num_clauses = len(self.kb.clauses)
        self.num_vars = self.kb.num_vars
        self.step = self.observation.step

    def clauses(self) -> list[list[int]]:
        return self.kb.clauses[: self.num_clauses]

    def names(self) -> dict[int, str]:
        return {v: n for v, n in self.kb.names().items() if v <= self.num_vars}

    def settings(self) -> str:
        return self.agent_settings

    def formulas(self) -> list[str]:
        return [str(f) for f, _, end in self.kb.told if end <= self.num_clauses]

    def spans(self) -> list[tuple[int, int]]:
        return [(start, end) for _, start, end in self.kb.told if end <= self.num_clauses]

    def proved(self) -> list[int]:
        """Each decided cell's literal: D (a dagger) or its negation (safe)."""
        return [self.kb.literal(dagger_key(c)) * (1 if v is Verdict.TRUE else -1)
                for c, v in sorted(self.verdicts.items()) if v is not Verdict.UNKNOWN]


class DaggersKB:
    """One game's knowledge: told observations, asked about a frontier."""

    def __init__(self, *, global_count: bool = True, encoding: str = "tseitin",
                 incremental: bool = True, card_encoding: str = "seqcounter",
                 solver: str | None = None, changes: GridChanges | None = None,
                 on_query: Callable[[QueryEvent], None] | None = None,
                 explain: bool = False, certify: str | None = None):
        self.global_count = global_count and encoding == "tseitin"
        self.encoding = encoding
        self.incremental = incremental
        self.card_encoding = card_encoding
        self.solver = solver
        self.on_query = on_query
        self.explain = explain and encoding == "tseitin"
        self.kb = KnowledgeBase(card_encoding=card_encoding)
        self.encoder = DaggersEncoder(self.kb, changes=changes)  # the total: see decide
        self.oracle: SatOracle | None = None
        self.obs: DaggersObservation | None = None
        self.queries = 0
        self.skipped_clues = 0  # the sympy route's clues past its size guard
        self.proofs: dict[Cell, Why] = {}
        self.asked: list[Cell] = []  # the cells the last decide was asked about
        # with a proof checker, every UNSAT answer of the game's oracles certified, counted
        self.tally = Tally(certify) if certify is not None else None

    def _oracle(self, kb: KnowledgeBase) -> SatOracle:
        return SatOracle(kb, self.solver, certify=self.tally)

    @property
    def certificates(self) -> tuple[int, int, int]:
        """(claims, certified, lemmas) of the game so far: the UNSAT answers its verdicts rest
        on, those the checker accepted, and the lemmas of the proofs it checked."""
        tally = self.tally
        return (0, 0, 0) if tally is None else (tally.claims, tally.certified, tally.lemmas)

    def close(self) -> None:
        if self.oracle is not None:
            self.oracle.close()
            self.oracle = None

    def prove(self, obs: DaggersObservation) -> tuple[list[DaggersAction], list[Cell]]:
        """Tell `obs`, then what it proves (the Proofs capability's prover: one DaggersKB per
        episode): a probe of every covered cell proved safe, and every cell proved to hold a
        dagger."""
        self.tell(obs)
        verdicts = self.decide(frontier(obs))
        safe = sorted(c for c, v in verdicts.items() if v is Verdict.FALSE)
        return ([probe(*c) for c in safe],
                sorted(c for c, v in verdicts.items() if v is Verdict.TRUE))

    def tell(self, obs: DaggersObservation) -> None:
        """What `obs` adds (the rebuilding routes read it afresh when asked)."""
        self.obs = obs
        if self.encoding == "tseitin" and self.incremental:
            self.encoder.update(obs)

    def decide(self, frontier: list[Cell]) -> dict[Cell, Verdict]:
        """A Verdict for every frontier cell (and the interior's shared one, with the global
        count), from everything told so far."""
        obs = self.obs
        if obs is None:
            raise RuntimeError("DaggersKB.decide before any tell(observation)")
        self.queries += 1
        self.proofs = {}
        self.asked = list(frontier)
        if self.encoding == "sympy":  # two questions per cell, on a KB rebuilt from sympy
            kb, skipped = encode_naive(obs)
            self.skipped_clues += skipped
            with self._oracle(kb) as oracle:
                verdicts = {c: oracle.verdict(dagger_key(c)) for c in frontier}
                self._report(obs, oracle, verdicts)
            return verdicts
        if not self.incremental:
            kb = KnowledgeBase(card_encoding=self.card_encoding)
            DaggersEncoder(kb).update(obs)
            with self._oracle(kb) as oracle:
                return self._ask(oracle, obs, frontier, {}, {})
        if self.oracle is None:
            self.oracle = self._oracle(self.kb)
        return self._ask(self.oracle, obs, frontier, self.encoder.about, self.encoder.cell_of)

    def _ask(self, oracle: SatOracle, obs: DaggersObservation, candidates: list[Cell],
             about: Mapping[object, str], cell_of: Mapping[object, Cell]) -> dict[Cell, Verdict]:
        keys = [dagger_key(c) for c in candidates]
        if not self.global_count:
            by_key = oracle.backbone(keys)
            verdicts = {c: by_key[k] for c, k in zip(candidates, keys)}
            self._report(obs, oracle, verdicts)
            self._prove(oracle, verdicts, about, cell_of)
            return verdicts
        window = count_window(oracle.kb, obs, candidates)
        with oracle.scoped(*window.formulas()):  # ask under the total
            by_key = oracle.backbone(keys)
            verdicts = {c: by_key[k] for c, k in zip(candidates, keys)}
            if window.interior:
                with oracle.scoped(window.some_interior_dagger()):
                    some_interior_dagger = oracle.satisfiable()
                with oracle.scoped(window.some_interior_safe()):
                    some_interior_safe = oracle.satisfiable()
                shared = (Verdict.UNKNOWN if some_interior_dagger and some_interior_safe
                          else Verdict.TRUE if some_interior_dagger else Verdict.FALSE)
                verdicts.update(dict.fromkeys(window.interior, shared))
            self._report(obs, oracle, verdicts)
            self._prove(oracle, verdicts, about, cell_of, window.words(obs.total_daggers))
        return verdicts

    def _report(self, obs: DaggersObservation, oracle: SatOracle, verdicts: dict[Cell, Verdict]) -> None:
        """Hand the question to `on_query` while its assumptions are still open (for `cnf`)."""
        if self.on_query is not None:
            settings = (f"encoding {self.encoding} global-count "
                        f"{'on' if self.global_count else 'off'}")
            self.on_query(QueryEvent(self.queries, obs, oracle.kb, dict(verdicts), oracle.assumed,
                                     settings))

    def _prove(self, oracle: SatOracle, verdicts: dict[Cell, Verdict], about: Mapping[object, str],
               cell_of: Mapping[object, Cell], count_words: str = "") -> None:
        """With `explain` on: the minimal proof of every decided cell, in words."""
        if not self.explain:
            return
        for cell, verdict in verdicts.items():
            if verdict is not Verdict.UNKNOWN:
                self.proofs[cell] = self._why(oracle, cell, verdict, about, cell_of, count_words)

    @staticmethod
    def _why(oracle: SatOracle, cell: Cell, verdict: Verdict, about: Mapping[object, str],
             cell_of: Mapping[object, Cell], count_words: str, shown: bool = False) -> Why:
        """The minimal set of told formulas that decides `cell`, in words, under the open
        scopes (the total's window, where it was asked under one).

        With `shown`, each formula as told (sympy's text) after its words: what a wrong
        formula says is then in sight, not only what it was told for.
        """
        key = oracle.kb.literal(dagger_key(cell))
        found = oracle.explain(key if verdict is Verdict.TRUE else -key)
        what = "a dagger" if verdict is Verdict.TRUE else "safe"
        if found is None:  # an interior cell: the total alone decides it
            return Why(f"{cell} is {what}: {count_words or 'the total'}")
        words = [about.get(f, count_words if str(f).startswith("Implies(SEL") else str(f))
                 + (f" [{f}]" if shown and f in about else "") for f in found.formulas]
        words = list(dict.fromkeys(w for w in words if w))
        cells = dict.fromkeys(cell_of[f] for f in found.formulas if f in cell_of)
        return Why(f"{cell} is {what}: " + ", ".join(words)
                   + ("" if found.minimal else " (not minimised)"), cells)

    def explain_verdict(self, cell: Cell, dagger: bool) -> Why | None:
        """What the last decide's verdict on `cell` rested on: the minimal set of formulas.

        Asked after the fact (the referee asks it of a claim the board refutes): the scope of
        the total's window is opened again as decide opened it. None where the KB keeps no
        oracle to ask (the rebuilding routes) or no longer decides the cell so.
        """
        oracle, obs = self.oracle, self.obs
        if oracle is None or obs is None or not self.asked:
            return None
        verdict = Verdict.TRUE if dagger else Verdict.FALSE
        about, cell_of = self.encoder.about, self.encoder.cell_of
        if not self.global_count:
            return self._why(oracle, cell, verdict, about, cell_of, "", shown=True)
        window = count_window(oracle.kb, obs, self.asked)
        with oracle.scoped(*window.formulas()):
            return self._why(oracle, cell, verdict, about, cell_of,
                             window.words(obs.total_daggers), shown=True)
