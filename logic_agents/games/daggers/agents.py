"""The 2018 report's three Daggers agents: rpx, spx and satx.

Concepts:
- RandomProbeAgent (rpx): probe a covered, unflagged cell chosen uniformly at random.
- single_point_moves: the single-point strategy's sound deductions from one clue at a time.
- SinglePointAgent (spx): play those deductions; probe at random when a pass finds none.
- SatAgent (satx): single-point passes first; when they stall, the satisfiability test on one
  incremental SatOracle that grows with every observation; a random probe only when no cell
  is provable. `incremental=False` rebuilds the same KB at every test (for comparison), and
  `encoding="sympy"` rebuilds the report's naive KB through sympy.to_cnf instead.
- QueryEvent: what satx hands to `on_query` at each satisfiability test (used by `cnf`).
Every agent sees observations only; proven moves are queued, since knowledge only grows.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from logic_agents.errors import UnknownName
from logic_agents.games.daggers.board import Cell
from logic_agents.games.daggers.encode import (
    DaggersEncoder,
    count_window,
    dagger_key,
    encode_naive,
    frontier,
)
from logic_agents.games.daggers.world import (
    COVERED,
    DaggersAction,
    DaggersObservation,
    clue_neighbourhoods,
    clue_value,
    neighbourhood,
)
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.names import CARD_ENCODING_NAMES
from logic_agents.logic.oracle import DEFAULT_SOLVER, SatOracle, Verdict, check_solver_name
from logic_agents.logic.query import Query
from logic_agents.world.core import Why
from logic_agents.world.options import solver_option
from logic_agents.world.registry import Option

ENCODINGS = ("tseitin", "sympy")
# Chosen by measurement (scripts/bench_daggers.py, docs/BENCHMARKS.md).
DEFAULT_GLOBAL_COUNT = True
DEFAULT_CARD_ENCODING = "seqcounter"


def single_point_moves(obs: DaggersObservation) -> list[DaggersAction]:
    """Every move one clue proves on its own.

    A clue whose daggers are all marked (flagged or hit) makes its other covered neighbours
    safe; a clue whose unmarked covered neighbours number exactly its missing daggers makes
    them all daggers."""
    return [move for move, _ in single_point_proofs(obs)]


def single_point_proofs(obs: DaggersObservation, clues: OpenClues | None = None
                        ) -> list[tuple[DaggersAction, Cell]]:
    """single_point_moves, each with the clue cell that proves it (the first one found).
    `clues` (an agent's OpenClues) reads only the clues that may still prove something."""
    probes: dict[Cell, Cell] = {}
    flags: dict[Cell, Cell] = {}
    around = clue_neighbourhoods(obs) if clues is None else clues.neighbourhoods(obs)
    for cell, k, unknown, marked in around:
        if not unknown:
            continue
        if marked == k:
            probes.update((n, cell) for n in unknown if n not in probes)
        elif len(unknown) == k - marked:
            flags.update((n, cell) for n in unknown if n not in flags)
    return [(DaggersAction("probe", c), clue) for c, clue in probes.items()] + [
        (DaggersAction("flag", c), clue) for c, clue in flags.items() if c not in probes
    ]


class OpenClues:
    """The clue cells that still have a covered neighbour, kept up to date from the cells
    that changed since the last look (rows compared whole first): single-point moves read
    those clues, in reading order, instead of the whole grid at every step."""

    def __init__(self) -> None:
        self.grid: tuple | None = None
        self.open: set[Cell] = set()

    def neighbourhoods(self, obs: DaggersObservation
                       ) -> list[tuple[Cell, int, list[Cell], int]]:
        """As world.clue_neighbourhoods(obs), for the clues with a covered neighbour."""
        grid, last = obs.grid, self.grid
        if last is None or len(last) != len(grid) or len(last[0]) != len(grid[0]):
            self.open = {cell for cell, _, unknown, _ in clue_neighbourhoods(obs) if unknown}
        else:
            table = obs.neighbours
            for r, (row, old) in enumerate(zip(grid, last)):
                if row == old:
                    continue
                for c, (now, before) in enumerate(zip(row, old)):
                    if now == before:
                        continue
                    if clue_value(now) is not None:
                        self.open.add((r, c))
                    elif now == COVERED:  # unflagged: its clues have a covered cell again
                        self.open.update(n for n in table[r, c]
                                         if clue_value(grid[n[0]][n[1]]) is not None)
        self.grid = grid
        out = []
        for cell in sorted(self.open):
            unknown, marked = neighbourhood(obs, cell)
            if unknown:
                out.append((cell, clue_value(grid[cell[0]][cell[1]]), unknown, marked))
            else:
                self.open.discard(cell)
        return out


class DaggersAgent:
    """Shared plumbing: the agent's RNG, its counters and a queue of proven moves."""

    name = "agent"

    def __init__(self) -> None:
        self.rng = random.Random()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.guesses = 0
        self.why = ""  # how the last move was chosen, for people watching a game
        self.pending: deque[tuple[DaggersAction, str]] = deque()
        self.open_clues = OpenClues()

    def stats(self) -> dict:
        return {"guesses": self.guesses}

    def _next_pending(self, obs: DaggersObservation) -> DaggersAction | None:
        while self.pending:
            move, why = self.pending.popleft()
            if obs.at(move.cell) == COVERED:
                self.why = why
                return move
        return None

    def _random_probe(self, obs: DaggersObservation) -> DaggersAction | None:
        cells = obs.unknown_cells()
        if not cells:
            return None
        self.guesses += 1
        self.why = Why("random guess", guess=True)
        return DaggersAction("probe", self.rng.choice(cells))


class RandomProbeAgent(DaggersAgent):
    """rpx: probe a covered, unflagged cell chosen uniformly at random."""

    name = "rpx"

    def act(self, obs: DaggersObservation) -> DaggersAction | None:
        return self._random_probe(obs)


class SinglePointAgent(DaggersAgent):
    """spx: single-point strategy; a random probe when a full pass changes nothing."""

    name = "spx"

    def act(self, obs: DaggersObservation) -> DaggersAction | None:
        move = self._next_pending(obs)
        if move is None:
            self.pending.extend(
                (m, Why(f"single point: clue {obs.clue(clue)} at {clue}", [clue]))
                for m, clue in single_point_proofs(obs, self.open_clues))
            move = self._next_pending(obs)
        return move or self._random_probe(obs)


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


class SatAgent(DaggersAgent):
    """satx: single-point passes, then the satisfiability test, then a random probe."""

    name = "satx"
    options = (
        Option("global_count", bool, DEFAULT_GLOBAL_COUNT, "also tell the total number of "
               "daggers (on by default, chosen by measurement; see docs/BENCHMARKS.md)"),
        Option("encoding", str, "tseitin", "tseitin = one incremental KB; sympy = the 2018 "
               "report's route, rebuilt through sympy.to_cnf at every test", choices=ENCODINGS),
        Option("incremental", bool, True, "keep one solver for the whole game, or rebuild the "
               "KB and solver at every satisfiability test"),
        Option("card_encoding", str, DEFAULT_CARD_ENCODING, "pysat.card encoding of large "
               "cardinality constraints such as the global count window",
               choices=tuple(sorted(CARD_ENCODING_NAMES)), metavar="NAME"),
        solver_option(DEFAULT_SOLVER),
    )

    def __init__(
        self,
        *,
        global_count: bool = DEFAULT_GLOBAL_COUNT,
        encoding: str = "tseitin",
        solver: str = DEFAULT_SOLVER,
        single_point: bool = True,
        incremental: bool = True,
        card_encoding: str = DEFAULT_CARD_ENCODING,
        on_query: Callable[[QueryEvent], None] | None = None,
        explain: Callable[[list[str]], None] | None = None,
    ):
        if encoding not in ENCODINGS:
            raise UnknownName(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
        self.global_count = global_count and encoding == "tseitin"
        self.encoding = encoding
        self.solver = check_solver_name(solver)
        self.single_point = single_point
        self.incremental = incremental
        self.card_encoding = card_encoding
        self.on_query = on_query
        self.explain = explain  # when set, every proven move carries its minimal proof
        self.oracle: SatOracle | None = None
        super().__init__()

    def close(self) -> None:
        if getattr(self, "oracle", None) is not None:
            self.oracle.close()
            self.oracle = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.close()
        self.kb = KnowledgeBase(card_encoding=self.card_encoding)
        self.encoder = DaggersEncoder(self.kb)  # the total is asked per test, see _decide
        self.oracle = None
        self.queries = 0
        self.proved_safe = 0
        self.proved_dagger = 0
        self.skipped_clues = 0
        self.sat_seconds = 0.0

    def stats(self) -> dict:
        return {
            "guesses": self.guesses,
            "queries": self.queries,
            "proved_safe": self.proved_safe,
            "proved_dagger": self.proved_dagger,
            "sat_time_s": round(self.sat_seconds, 6),
        }

    def act(self, obs: DaggersObservation) -> DaggersAction | None:
        move = self._next_pending(obs)
        if move is None and self.single_point:
            self.pending.extend(
                (m, Why(f"single point: clue {obs.clue(clue)} at {clue}", [clue]))
                for m, clue in single_point_proofs(obs, self.open_clues))
            move = self._next_pending(obs)
        if move is None:
            self.pending.extend(self.satisfiability_test(obs))
            move = self._next_pending(obs)
        return move or self._guess(obs)

    def _guess(self, obs: DaggersObservation) -> DaggersAction | None:
        """Nothing is provable: satx probes at random (prob overrides this)."""
        return self._random_probe(obs)

    def satisfiability_test(self, obs: DaggersObservation) -> list[tuple[DaggersAction, str]]:
        """Decide every candidate cell the KB entails; returns the proven moves and why."""
        self.queries += 1
        started = time.perf_counter()
        if self.encoding == "sympy":
            # The 2018 report's route: rebuild from sympy at every test, two questions per cell.
            kb, skipped = encode_naive(obs)
            self.skipped_clues += skipped
            with SatOracle(kb, self.solver) as oracle:
                verdicts = {c: oracle.verdict(dagger_key(c)) for c in frontier(obs)}
                self._report(obs, oracle, verdicts)
        elif self.incremental:
            self.encoder.update(obs)
            if self.oracle is None:
                self.oracle = SatOracle(self.kb, self.solver)
            verdicts = self._decide(self.oracle, obs)
        else:
            kb = KnowledgeBase(card_encoding=self.card_encoding)
            DaggersEncoder(kb).update(obs)
            with SatOracle(kb, self.solver) as oracle:
                verdicts = self._decide(oracle, obs)
        self.sat_seconds += time.perf_counter() - started
        moves = []
        proofs = getattr(self, "proofs", {})
        for cell, verdict in verdicts.items():
            if verdict is Verdict.FALSE:
                self.proved_safe += 1
                why = proofs.get(cell, f"SAT test {self.queries}: proved safe")
                moves.append((DaggersAction("probe", cell), why))
            elif verdict is Verdict.TRUE:
                self.proved_dagger += 1
                why = proofs.get(cell, f"SAT test {self.queries}: proved dagger")
                moves.append((DaggersAction("flag", cell), why))
        return moves

    def _report(self, obs: DaggersObservation, oracle: SatOracle, verdicts: dict) -> None:
        """Hand the test to `on_query` while its assumptions are still open (for `cnf`)."""
        if self.on_query is not None:
            settings = (f"encoding {self.encoding} global-count "
                        f"{'on' if self.global_count else 'off'}")
            self.on_query(QueryEvent(self.queries, obs, oracle.kb, dict(verdicts), oracle.assumed,
                                     settings))

    def _decide(self, oracle: SatOracle, obs: DaggersObservation) -> dict[Cell, Verdict]:
        """Verdicts for the frontier and, with the global count, for the interior."""
        candidates = frontier(obs)
        keys = [dagger_key(c) for c in candidates]
        if not self.global_count:
            by_key = oracle.backbone(keys)
            verdicts = {c: by_key[k] for c, k in zip(candidates, keys)}
            self._report(obs, oracle, verdicts)
            self._explain(oracle, obs, verdicts)
            return verdicts
        window = count_window(oracle.kb, obs, candidates)  # the encoder's, see CountWindow
        with oracle.scoped(*window.formulas()):  # ASK under the total
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
            self._explain(oracle, obs, verdicts, window.words(obs.total_daggers))
        return verdicts

    def _explain(self, oracle: SatOracle, obs: DaggersObservation, verdicts: dict,
                 count_words: str = "") -> None:
        """With `explain` on: the minimal proof of every proven cell, in words (self.proofs)."""
        self.proofs: dict[Cell, str] = {}
        if self.explain is None or self.encoding != "tseitin":
            return
        about = self.encoder.about if self.incremental else {}
        cell_of = self.encoder.cell_of if self.incremental else {}
        for cell, verdict in verdicts.items():
            if verdict is Verdict.UNKNOWN:
                continue
            key = oracle.kb.literal(dagger_key(cell))
            found = oracle.explain(key if verdict is Verdict.TRUE else -key)
            what = "a dagger" if verdict is Verdict.TRUE else "safe"
            if found is None:  # an interior cell: the total alone decides it
                self.proofs[cell] = Why(f"{cell} is {what}: {count_words or 'the total'}")
                continue
            words = [about.get(f, count_words if str(f).startswith("Implies(SEL") else str(f))
                     for f in found.formulas]
            words = list(dict.fromkeys(w for w in words if w))
            cells = dict.fromkeys(cell_of[f] for f in found.formulas if f in cell_of)
            self.proofs[cell] = Why(f"{cell} is {what}: " + ", ".join(words)
                                    + ("" if found.minimal else " (not minimised)"), cells)


AGENTS: dict[str, Callable[..., DaggersAgent]] = {
    "rpx": RandomProbeAgent,
    "spx": SinglePointAgent,
    "satx": SatAgent,
}
AGENT_HELP = {
    "rpx": "random probe: a uniformly random covered, unflagged cell",
    "spx": "single-point strategy, random probe when stuck",
    "satx": "single-point, then SAT entailment on one incremental oracle, random when stuck",
}
