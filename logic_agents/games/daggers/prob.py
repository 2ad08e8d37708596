"""prob: satx's certainties, then every guess chosen by exact dagger probability.

Concepts:
- Certainties first: the same single-point passes as satx; then the cells the exact odds put
  at 0 or 1 (`certainties="odds"`, the default: the odds are needed for the guess anyway), or
  satx's incremental SAT test (`"sat"`; always with `explain`, for its minimal proofs, and
  with `on_query`, for `cnf`).
  Both find the same cells, queued in the same order (frontier, then interior, each in
  reading order), so a game plays the same moves either way (tests/games/daggers/
  test_trajectories.py).
- Odds: when nothing is provable, probability.dagger_odds gives every covered cell's exact
  dagger probability.
- Candidates: the cells whose chance of being safe is within `tie` (relative) of the safest
  cell's: the safest frontier cells, and when the interior is that safe, a few interior cells
  (those next to the frontier and those with the fewest covered neighbours).
- Policy `progress` (default): each candidate is scored by looking one probe ahead. For every
  clue it may show (weighed by how many placements show it), is some cell then certainly
  safe (progress), and if not, how safe is the safest next probe (secondary safety)?
  score = P(safe) x sum over clues of P(clue) x (1 if progress else beta x P(next safe)).
  `lowest` is the safest cell; `opening` is, among exact ties, the likeliest 0.
- Endgame: when at most `endgame` placements remain, endgame.best_probe searches them exactly
  for the probe with the best win chance (lives included).
- Explanation: `explain(lines)` receives, at each guess, the top candidates with their
  probabilities (`play --explain` prints them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from logic_agents.errors import UnknownName, UsageError
from logic_agents.games.daggers.agents import SatAgent
from logic_agents.games.daggers.endgame import EndgameSearch, searched_probe
from logic_agents.games.daggers.odds import (
    ComponentCache,
    DaggerOdds,
    Evidence,
    InconsistentObservation,
    branch_odds,
    lowest_odds,
    odds_of,
)
from logic_agents.games.daggers.world import (
    COVERED,
    FLAGGED,
    HIT,
    DaggersAction,
    DaggersObservation,
)
from logic_agents.world.core import Why
from logic_agents.world.declared import Option
from logic_agents.world.options import nonnegative_int
from logic_agents.world.view import Cell

# How the defaults were chosen: README "Guessing by exact probability" and the issue-8 note
# (paired runs on generated classic boards).
POLICIES = ("progress", "lowest", "opening")
DEFAULT_POLICY = "progress"
DEFAULT_TIE = {"progress": 0.1, "lowest": 0.0, "opening": 0.0}
DEFAULT_CANDIDATES = 6  # frontier cells scored by `progress`
DEFAULT_INTERIOR = 4  # interior cells of each kind scored by `progress`
DEFAULT_BETA = 1.0  # weight of a guess without progress; 0.9 measured no better
# weight of a dagger hit when a life is to spare (the endgame counts lives exactly); on expert
# with 2 lives, 0 / 0.5 / 0.8 won 86.4 / 86.1 / 85.7% of 1,000 paired games
DEFAULT_SPARE_LIFE = 0.0
DEFAULT_ENDGAME = 500  # placements; 0 turns the exact endgame search off
CERTAINTIES = ("odds", "sat")
ENDGAME_BUDGET = 200_000  # search nodes per endgame question (best_probe's default)
COMPONENT_CACHE = 20_000  # enumerated components kept per game before the cache is cleared


class ProbAgent(SatAgent):
    """prob: satx, but a guess is chosen by exact dagger probability."""

    name = "prob"
    options = SatAgent.options + (
        Option("policy", str, DEFAULT_POLICY, "how a guess is chosen: progress (safety and the "
               "chance that the next move is certain), lowest (the least likely dagger) or "
               "opening", choices=POLICIES),
        Option("endgame", int, DEFAULT_ENDGAME, "search exactly for the best win chance when "
               "at most N placements remain (0 turns it off)", metavar="N",
               parse=nonnegative_int),
        Option("certainties", str, "odds", "how certain cells are found: odds (P(dagger) 0 or "
               "1 in the exact odds, computed for the guess anyway) or sat (satx's SAT test; "
               "--explain always asks SAT, for the proof); both play the same moves",
               choices=CERTAINTIES),
    )

    def __init__(self, *, policy: str = DEFAULT_POLICY, tie: float | None = None,
                 candidates: int = DEFAULT_CANDIDATES, interior: int = DEFAULT_INTERIOR,
                 beta: float = DEFAULT_BETA, spare_life: float = DEFAULT_SPARE_LIFE,
                 endgame: int = DEFAULT_ENDGAME, certainties: str = "odds",
                 explain: Callable[[list[str]], None] | None = None, **options: Any) -> None:
        if policy not in POLICIES:
            raise UnknownName(f"unknown guess policy {policy!r}; choose one of "
                              f"{', '.join(POLICIES)}")
        if tie is not None and not 0.0 <= tie < 1.0:
            raise UsageError(f"tie must be at least 0 and below 1, got {tie}")
        if certainties not in CERTAINTIES:
            raise UnknownName(f"unknown certainties route {certainties!r}; choose one of "
                              f"{', '.join(CERTAINTIES)}")
        if endgame < 0:
            raise UsageError(f"endgame must not be negative, got {endgame}")
        self.policy = policy
        self.tie = DEFAULT_TIE[policy] if tie is None else tie
        self.candidates = candidates
        self.interior = interior
        self.beta = beta
        self.spare_life = spare_life
        self.endgame = endgame
        self.certainties = certainties
        self.win_chance: float | None = None
        self.looked_ahead: tuple[int, float] | None = None  # (candidates, best score)
        self.last_odds: DaggerOdds | None = None
        super().__init__(explain=explain, **options)

    def satisfiability_test(self, obs: DaggersObservation) -> list[tuple[DaggersAction, Why]]:
        """The certain cells, once the single-point passes stall. The exact odds are needed
        for the guess anyway, and they are complete as SAT's verdicts are (a cell is proved
        safe exactly when no consistent placement puts a dagger on it: tests/games/daggers/
        test_odds.py), so SAT is asked only for its proofs (`explain`), for its
        questions (`on_query`, as `cnf` asks), on request (`certainties="sat"`), or without
        the total (the odds always count it)."""
        known = self._odds_of(obs)
        if known is None:
            return []
        odds = known[2]
        decided = self._decided(odds)
        if not decided:
            return []  # nothing is certain: a SAT test would prove nothing
        if (self.certainties == "sat" or self.explain is not None
                or self.on_query is not None or not self.global_count):
            return super().satisfiability_test(obs)
        return self._certain_moves(odds, decided)

    @staticmethod
    def _decided(odds: DaggerOdds) -> list[Cell]:
        """The cells of probability 0 or 1, in satx's order: frontier, then interior (all
        interior cells share one probability, looked at once)."""
        exact = odds.exact
        cells = [c for c in sorted(odds.frontier)
                 if exact[c].numerator in (0, exact[c].denominator)]
        if odds.interior_cells:
            shared = exact[odds.interior_cells[0]]
            if shared.numerator in (0, shared.denominator):
                cells += odds.interior_cells
        return cells

    def _certain_moves(self, odds: DaggerOdds, decided: list[Cell]
                       ) -> list[tuple[DaggersAction, Why]]:
        """The cells the odds decide (`decided`), as moves with their reasons (claimed
        proved: the referee checks them against the hidden board)."""
        inside = set(odds.interior_cells)
        moves: list[tuple[DaggersAction, Why]] = []
        for cell in decided:
            p = odds.exact[cell]
            if p == 0:
                self.proved_safe += 1
                moves.append((DaggersAction("probe", cell), Why(
                    f"exact odds: {cell} is safe: none of the {odds.placements} placements "
                    f"that agree with the clues and the total puts a dagger there", proved=True)))
            elif p == 1:
                self.proved_dagger += 1
                moves.append((DaggersAction("flag", cell), Why(
                    f"exact odds: {cell} is a dagger in all {odds.placements} placements "
                    f"that agree with the clues and the total"
                    + (" (an interior cell)" if cell in inside else ""), proved=True)))
        return moves

    _odds: tuple[DaggersObservation, tuple[Evidence, dict[Any, Any], DaggerOdds]] | None

    def _odds_of(self, obs: DaggersObservation
                 ) -> tuple[Evidence, dict[Any, Any], DaggerOdds] | None:
        """The evidence, component cache and exact odds of `obs` (computed once per
        observation); None when no cell is unknown."""
        if self._odds is None or self._odds[0] is not obs:
            if not obs.unknown_cells():
                return None
            evidence = Evidence.of(obs, self.open_clues)
            cache = self._components
            if len(cache) > COMPONENT_CACHE:
                cache.clear()
            self._odds = (obs, (evidence, cache, odds_of(evidence, cache)))
        return self._odds[1]

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._odds = None
        # components enumerated in this game, by their constraints: a step changes one or
        # two, and the look-ahead's boards share the rest
        self._components: ComponentCache = {}
        self._resume: EndgameSearch | None = None  # the game's last endgame search, to go on from

    def _guess(self, obs: DaggersObservation) -> DaggersAction | None:
        known = self._odds_of(obs)
        if known is None:
            return None
        evidence, cache, odds = known
        self.last_odds = odds
        ranked = odds.ranked()
        endgame = (self._endgame_probe(obs) if self.endgame and odds.placements <= self.endgame
                   else None)
        if endgame is not None:
            cell, self.win_chance = endgame
        elif self.policy == "progress":
            cell = self._progress_choice(obs, odds, ranked, evidence, cache)
        else:
            near = self.near(ranked)
            cell = near[0] if self.policy == "lowest" else min(
                near, key=lambda c: self._opening_key(c, obs, odds))
        self.guesses += 1
        # a guess says so first, with the odds of this cell; the endgame's win chance counts
        # the lives left, so a probe with P(dagger) = 0.5 may still win with chance 1
        self.why = Why(f"guess: P(dagger) = {odds.probability(cell):.4f} here; the endgame "
                       f"search wins from here with chance {self.win_chance:.4f}, lives "
                       f"included" if endgame is not None
                       else f"guess: P(dagger) = {odds.probability(cell):.4f}",
                       odds={c: float(p) for c, p in ranked}, guess=True)
        if self.explain is not None:
            lines = self._explanation(obs, odds, cell)
            if endgame is not None:
                lines.append(f"  endgame search over {odds.placements} placements: the probe "
                             f"wins with chance {self.win_chance:.4f}")
            elif self.policy == "progress" and self.looked_ahead is not None:
                count, score = self.looked_ahead
                lines.append(f"  look-ahead over {count} candidates: the probe scores "
                             f"{score:.4f} (P(safe) x chance of a certain or safe next move)")
            self.explain(lines)
        return DaggersAction("probe", cell)

    def _endgame_probe(self, obs: DaggersObservation) -> tuple[Cell, float] | None:
        """best_probe, from the game's last search when `obs` is a position it covers (its
        memo then answers most of the question), else from a new one."""
        if self._resume is not None:
            found = self._resume.resume(obs, ENDGAME_BUDGET)
            if found is not None:
                return found
        found, search = searched_probe(obs, self.endgame, ENDGAME_BUDGET)
        self._resume = search
        return found

    def near(self, ranked: list[tuple[Cell, float]]) -> list[Cell]:
        """The cells safe within `tie` of the safest (relative), safest first."""
        floor = (1.0 - ranked[0][1]) * (1.0 - self.tie)
        return [c for c, p in ranked if 1.0 - p >= floor - 1e-12]

    def _progress_choice(self, obs: DaggersObservation, odds: DaggerOdds,
                         ranked: list[tuple[Cell, float]], evidence: Evidence, cache: ComponentCache) -> Cell:
        near = self.near(ranked)
        inside = set(odds.interior_cells)
        cands = [c for c in near if c not in inside][:self.candidates]
        if any(c in inside for c in near):
            cands += self._interior_candidates(obs, odds, inside)
        self.looked_ahead = None
        if len(cands) == 1:
            return cands[0]
        scored = []
        for c in cands:
            safe = 1.0 - odds.probability(c)
            score = safe * sum(w * (1.0 if pmin == 0 else self.beta * (1.0 - pmin))
                               for w, pmin in self.branches(c, obs, evidence, cache))
            if obs.lives > 1 and self.spare_life and safe < 1.0:
                # with a life to spare, a dagger hit is information: the game goes on with
                # the dagger shown, worth `spare_life` of a safe reveal
                hit = self._after_hit(c, obs, evidence, cache)
                if hit is not None:
                    score += (1.0 - safe) * self.spare_life * (1.0 if hit == 0 else 1.0 - hit)
            scored.append((-score, -safe, c))
        best = min(scored)
        self.looked_ahead = (len(scored), -best[0])
        return best[2]

    @staticmethod
    def _after_hit(cell: Cell, obs: DaggersObservation, evidence: Evidence | None = None,
                   cache: ComponentCache | None = None) -> float | None:
        """The lowest dagger probability left once `cell` is shown to be a dagger (None if
        it cannot be one)."""
        evidence = evidence or Evidence.of(obs)
        try:
            return lowest_odds(evidence.showing(obs, cell, HIT), cache)[1]
        except InconsistentObservation:
            return None

    def _interior_candidates(self, obs: DaggersObservation, odds: DaggerOdds,
                             inside: set[Cell]) -> list[Cell]:
        """Interior cells next to the frontier (their clue may link up with it) and those
        with the fewest covered neighbours (corners and edges, likeliest to show a 0)."""
        def covered_around(c: Cell) -> int:
            return sum(obs.at(n) == COVERED for n in obs.neighbours[c])

        touching = [c for c in odds.interior_cells
                    if any(n in odds.exact and n not in inside for n in obs.neighbours[c])]
        touching.sort(key=lambda c: (covered_around(c), c))
        fewest = sorted(odds.interior_cells, key=lambda c: (covered_around(c), c))
        return list(dict.fromkeys(touching[:self.interior] + fewest[:self.interior]))

    @staticmethod
    def branches(cell: Cell, obs: DaggersObservation, evidence: Evidence | None = None,
                 cache: ComponentCache | None = None) -> list[tuple[float, float]]:
        """For each clue `cell` may show: (P(that clue | cell safe), the lowest dagger
        probability of any other covered cell after it is shown). The evidence after each clue
        is derived from `evidence` (the constraints of `obs`), and components it leaves alone
        come from `cache`."""
        evidence = evidence or Evidence.of(obs)
        out = [(placements, low) for _, placements, low in branch_odds(evidence, obs, cell, cache)]
        total = sum(w for w, _ in out)
        return [(w / total, pmin) for w, pmin in out] if total else []

    @staticmethod
    def _opening_key(cell: Cell, obs: DaggersObservation, odds: DaggerOdds
                     ) -> tuple[float, float, Cell]:
        # the likelier the cell shows a 0 (and opens an area), the better; P(0 | safe) is
        # estimated as the product of its covered neighbours' safety
        p = odds.probability(cell)
        zero = 1.0
        for n in obs.neighbours[cell]:
            shown = obs.at(n)
            if shown == COVERED:
                zero *= 1.0 - odds.probability(n)
            elif shown in (FLAGGED, HIT):
                zero = 0.0
        return (-(1.0 - p) * (1.0 + zero), p, cell)

    @staticmethod
    def _explanation(obs: DaggersObservation, odds: DaggerOdds, chosen: Cell,
                     top: int = 5) -> list[str]:
        lines = [f"step {obs.step}: no cell is provable; {odds.placements} placements agree "
                 f"with the clues and the total"]
        for cell, p in odds.ranked()[:top]:
            where = "interior" if cell in odds.interior_cells else "frontier"
            mark = "  <- probe" if cell == chosen else ""
            lines.append(f"  {cell[0]},{cell[1]}  P(dagger) = {p:.4f}  ({where}){mark}")
        if chosen not in [c for c, _ in odds.ranked()[:top]]:
            lines.append(f"  {chosen[0]},{chosen[1]}  P(dagger) = "
                         f"{odds.probability(chosen):.4f}  <- probe")
        return lines

