"""prob: satx's certainties, then every guess chosen by exact dagger probability.

Concepts:
- Certainties first: the same single-point passes and incremental SAT oracle as satx; every
  cell proved safe or a dagger is played as satx plays it.
- Guess: when nothing is provable, probability.dagger_odds gives every covered cell's exact
  dagger probability; the lowest wins (policy `lowest`). Cells within `tie` of the lowest may
  instead be ranked by the chance of showing a 0 (`opening`) or of surviving this probe and
  the safest next one (`lookahead`).
- Explanation: `explain(lines)` receives, at each guess, the top candidates with their
  probabilities (`play --explain` prints them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from logic_agents.errors import UnknownName
from logic_agents.games.daggers.agents import SatAgent
from logic_agents.games.daggers.board import Cell
from logic_agents.games.daggers.endgame import best_probe
from logic_agents.games.daggers.probability import (
    DaggerOdds,
    InconsistentObservation,
    dagger_odds,
)
from logic_agents.games.daggers.world import (
    COVERED,
    FLAGGED,
    HIT,
    DaggersAction,
    DaggersObservation,
)

# Guess policies, measured on generated classic boards ([0,0] opening start, 2026-11-26, 2,000
# games each; see the issue-8 note): lowest 95.7% beginner / 84.7% intermediate / 46.1% expert;
# opening (among exact ties, the likeliest 0) 95.2 / 85.5 / 45.2; lookahead (P(this probe and
# the next are safe), 6 candidates within 0.05) 95.2 / 84.7 / 46.8. No difference is beyond
# noise, so the simplest is the default.
POLICIES = ("lowest", "opening", "lookahead")
DEFAULT_POLICY = "lowest"
DEFAULT_TIE = 0.0
# The endgame search runs when at most this many placements remain (0: never). Measured on the
# same 2,000 games per size: endgame=300 gave 95.7 / 85.0 / 47.1% against 95.7 / 84.7 / 46.1%
# without, within noise, for 11.6x the time (714 s against 62 s), so it is off by default.
DEFAULT_ENDGAME = 0


class ProbAgent(SatAgent):
    """prob: satx, but a guess is the cell least likely to hold a dagger."""

    name = "prob"

    def __init__(self, *, policy: str = DEFAULT_POLICY, tie: float = DEFAULT_TIE,
                 candidates: int = 6, endgame: int = DEFAULT_ENDGAME,
                 explain: Callable[[list[str]], None] | None = None, **options) -> None:
        if policy not in POLICIES:
            raise UnknownName(f"unknown guess policy {policy!r}; choose one of "
                              f"{', '.join(POLICIES)}")
        self.policy = policy
        self.tie = tie
        self.candidates = candidates
        self.endgame = endgame
        self.win_chance: float | None = None
        self.explain = explain
        self.last_odds: DaggerOdds | None = None
        super().__init__(**options)

    def _guess(self, obs: DaggersObservation) -> DaggersAction | None:
        if not obs.unknown_cells():
            return None
        odds = dagger_odds(obs)
        self.last_odds = odds
        ranked = odds.ranked()
        best = ranked[0][1]
        near = [c for c, p in ranked if p <= best + self.tie]
        endgame = (best_probe(obs, self.endgame) if self.endgame and odds.placements <= self.endgame
                   else None)
        if endgame is not None:
            cell, self.win_chance = endgame
        elif self.policy == "lookahead":
            cell = max(near[:self.candidates], key=lambda c: (self._two_moves(c, obs, odds),
                                                            -odds.probability(c)))
        else:
            cell = min(near, key=lambda c: self._tie_key(c, obs, odds))
        self.guesses += 1
        self.why = (f"endgame: win chance {self.win_chance:.4f} (P(dagger) = "
                    f"{odds.probability(cell):.4f})" if endgame is not None
                    else f"guess: P(dagger) = {odds.probability(cell):.4f}")
        if self.explain is not None:
            self.explain(self._explanation(obs, odds, cell))
        return DaggersAction("probe", cell)

    @staticmethod
    def _two_moves(cell: Cell, obs: DaggersObservation, odds: DaggerOdds) -> float:
        """P(probing `cell` is safe and so is the safest probe after it): each clue the cell
        may show is weighed by how many placements give it."""
        r, c = cell
        weighted = 0.0
        total = 0
        for value in range(len(obs.neighbours[cell]) + 1):
            grid = list(obs.grid)
            row = list(grid[r])
            row[c] = str(value)
            grid[r] = tuple(row)
            after = replace(obs, grid=tuple(grid))
            try:
                odds_after = dagger_odds(after)
            except InconsistentObservation:
                continue
            total += odds_after.placements
            safest = min(odds_after.exact.values(), default=0)
            weighted += odds_after.placements * (1.0 - float(safest))
        if not total:
            return 0.0
        return (1.0 - odds.probability(cell)) * weighted / total

    def _tie_key(self, cell: Cell, obs: DaggersObservation, odds: DaggerOdds) -> tuple:
        p = odds.probability(cell)
        if self.policy == "lowest":
            return (p, cell)
        # "opening": the likelier the cell shows a 0 (and opens an area), the better; P(0 |
        # safe) is estimated as the product of its covered neighbours' safety
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
