"""The 2018 report's three Daggers agents: rpx, spx and satx.

Concepts:
- RandomProbeAgent (rpx): probe a covered, unflagged cell chosen uniformly at random.
- single_point_moves (clues.py): the single-point strategy's sound deductions, one clue at a
  time.
- SinglePointAgent (spx): play those deductions; probe at random when a pass finds none.
- SatAgent (satx): aima's KB-agent loop. Single-point moves first; when they stall, TELL the
  DaggersKB the observation and ASK it to decide the frontier (knowledge.py: one incremental
  SatOracle, the count window, the interior); ACT on the proven moves; a random probe only
  when no cell is provable.
Every agent sees observations only; proven moves are queued, since knowledge only grows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from logic_agents.errors import UnknownName, UsageError
from logic_agents.games.daggers.clues import (  # noqa: F401 - single_point_moves re-exported
    GridChanges,
    OpenClues,
    single_point_moves,
    single_point_proofs,
)
from logic_agents.games.daggers.encode import frontier
from logic_agents.games.daggers.knowledge import ENCODINGS, DaggersKB, QueryEvent
from logic_agents.games.daggers.world import COVERED, DaggersAction, DaggersObservation
from logic_agents.ground.shapes import Counters
from logic_agents.logic.certify import CHECKERS, DEFAULT_CHECKER
from logic_agents.logic.names import CARD_ENCODING_NAMES, DEFAULT_SOLVER
from logic_agents.logic.oracle import Verdict
from logic_agents.logic.solvers import check_solver_name
from logic_agents.solving.options import solver_option
from logic_agents.world.base import PlanningAgent
from logic_agents.world.core import Why
from logic_agents.world.declared import Option
from logic_agents.world.view import Cell

if TYPE_CHECKING:
    from logic_agents.logic.kb import KnowledgeBase

# Chosen by measurement (benchmarks/bench_daggers.py, docs/BENCHMARKS.md).
DEFAULT_GLOBAL_COUNT = True
DEFAULT_CARD_ENCODING = "seqcounter"


class DaggersAgent(PlanningAgent[DaggersObservation, DaggersAction]):
    """Shared plumbing (world.base.PlanningAgent: the RNG, the counters, the queue of proven
    moves), and the one tracker of what the grid showed anew."""

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.changes = GridChanges()  # the one tracker of what the grid showed anew
        self.open_clues = OpenClues(self.changes)

    def playable(self, obs: DaggersObservation, action: DaggersAction) -> bool:
        """A proven move is still worth playing while its cell is covered."""
        return obs.at(action.cell) == COVERED

    def _plan_single_points(self, obs: DaggersObservation) -> None:
        """Queue the moves single clues prove, from the clues that changed since the last
        pass, each with the clue that proves it."""
        whys: dict[Cell, Why] = {}  # one reason per proving clue (it proves several moves)
        moves: list[tuple[DaggersAction, str | Why | None]] = []
        for move, clue in single_point_proofs(obs, self.open_clues, fresh=True):
            why = whys.get(clue)
            if why is None:
                why = whys[clue] = Why(f"single point: clue {obs.clue(clue)} at {clue}", [clue])
            moves.append((move, why))
        self.plan(moves)

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
        move = self.next_move(obs)
        if move is None:
            self._plan_single_points(obs)
            move = self.next_move(obs)
        return move or self._random_probe(obs)


class SatAgent(DaggersAgent):
    """satx: single-point passes, then the satisfiability test, then a random probe."""

    name = "satx"
    options: tuple[Option, ...] = (
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
        Option("certify", bool, False, "check the DRAT proof of every UNSAT answer a proved "
               "move rests on (the certify extra); a rejected proof fails the game"),
        Option("checker", str, DEFAULT_CHECKER, "the proof checker --certify uses: drup "
               "(verified in Why3) or dratify (pure Python)", choices=CHECKERS),
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
        certify: bool = False,
        checker: str = DEFAULT_CHECKER,
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
        if checker not in CHECKERS:
            raise UnknownName(f"unknown proof checker {checker!r}; choose one of "
                              f"{', '.join(CHECKERS)}")
        self.certify = checker if certify else None
        super().__init__()

    _knowledge: DaggersKB | None = None  # made by reset, one per episode

    @property
    def knowledge(self) -> DaggersKB:
        """This episode's knowledge base (reset makes it)."""
        if self._knowledge is None:
            raise UsageError(f"{self.name}: reset() the agent first; it makes the knowledge base")
        return self._knowledge

    def close(self) -> None:
        if self._knowledge is not None:
            self._knowledge.close()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.close()
        self._knowledge = DaggersKB(
            global_count=self.global_count, encoding=self.encoding,
            incremental=self.incremental, card_encoding=self.card_encoding,
            solver=self.solver, changes=self.changes, on_query=self.on_query,
            explain=self.explain is not None, certify=self.certify)
        self.proved_safe = 0
        self.proved_dagger = 0
        self.sat_seconds = 0.0

    @property
    def kb(self) -> KnowledgeBase:
        """The knowledge base the agent has told so far (print it: `agent.kb.pretty()`)."""
        return self.knowledge.kb

    @property
    def queries(self) -> int:
        return self.knowledge.queries

    def stats(self) -> Counters:
        return {
            "guesses": self.guesses,
            "queries": self.queries,
            "proved_safe": self.proved_safe,
            "proved_dagger": self.proved_dagger,
            "sat_time_s": round(self.sat_seconds, 6),
            **self._certificates(),
        }

    def _certificates(self) -> Counters:
        """With --certify: the UNSAT answers its proved moves rest on, those certified, and
        the lemmas of the proofs the checker was shown."""
        if self.certify is None or self._knowledge is None:
            return {}
        claims, certified, lemmas = self._knowledge.certificates
        return {"claims": claims, "certified": certified, "lemmas": lemmas}

    def act(self, obs: DaggersObservation) -> DaggersAction | None:
        """aima's KB-agent loop: single-point moves, then TELL and ASK, then ACT."""
        move = self.next_move(obs)
        if move is None and self.single_point:
            self._plan_single_points(obs)
            move = self.next_move(obs)
        if move is None:
            self.plan(self.satisfiability_test(obs))
            move = self.next_move(obs)
        return move or self._guess(obs)

    def _guess(self, obs: DaggersObservation) -> DaggersAction | None:
        """Nothing is provable: satx probes at random (prob overrides this)."""
        return self._random_probe(obs)

    def satisfiability_test(self, obs: DaggersObservation) -> list[tuple[DaggersAction, Why]]:
        """Tell the KB `obs`, ask it to decide the frontier; the proven moves and why."""
        started = time.perf_counter()
        claims, _, lemmas = self.knowledge.certificates
        self.knowledge.tell(obs)
        verdicts = self.knowledge.decide(frontier(obs))
        self.sat_seconds += time.perf_counter() - started
        # under --certify, each move of this test rests on its checked proofs: their lemmas
        now_claims, _, now_lemmas = self.knowledge.certificates
        certified = now_lemmas - lemmas if now_claims > claims else None
        moves = []
        proofs = self.knowledge.proofs
        for cell, verdict in verdicts.items():
            if verdict is Verdict.UNKNOWN:
                continue
            dagger = verdict is Verdict.TRUE
            if dagger:
                self.proved_dagger += 1
            else:
                self.proved_safe += 1
            # the move is claimed proved: the referee checks it against the hidden board
            found = proofs.get(cell)
            why = Why(found if found is not None else
                      f"SAT test {self.queries}: proved {'dagger' if dagger else 'safe'}",
                      found.cells if found is not None else (), proved=True,
                      certified=certified)
            moves.append((DaggersAction("flag" if dagger else "probe", cell), why))
        return moves

    def explain_claim(self, action: DaggersAction) -> str | None:
        """What a proved move rested on: the minimal set of the KB's formulas, as told.

        The referee asks it when the hidden board refutes the move (world.runner), before
        the knowledge base is told anything newer.
        """
        if self._knowledge is None or action.kind not in ("probe", "flag"):
            return None
        found = self._knowledge.explain_verdict(action.cell, action.kind == "flag")
        return None if found is None else str(found)


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
