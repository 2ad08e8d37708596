"""prob: satx's certainties, then every guess chosen by exact dagger probability.

Concepts:
- Certainties first: the same single-point passes and incremental SAT oracle as satx; every
  cell proved safe or a dagger is played as satx plays it.
- Guess: when nothing is provable, probabilities.dagger_odds gives every covered cell's exact
  dagger probability; the lowest wins. Near-ties (within `tie`) are broken by the guess policy
  (docs in README, measurements in docs/BENCHMARKS.md).
- Explanation: `explain(lines)` receives, at each guess, the top candidates with their
  probabilities (`play --explain` prints them).
"""

from __future__ import annotations

from collections.abc import Callable

from logic_agents.games.daggers.agents import SatAgent
from logic_agents.games.daggers.board import Cell
from logic_agents.games.daggers.probability import DaggerOdds, dagger_odds
from logic_agents.games.daggers.world import DaggersAction, DaggersObservation

DEFAULT_TIE = 0.0


class ProbAgent(SatAgent):
    """prob: satx, but a guess is the cell least likely to hold a dagger."""

    name = "prob"

    def __init__(self, *, tie: float = DEFAULT_TIE,
                 explain: Callable[[list[str]], None] | None = None, **options) -> None:
        self.tie = tie
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
        cell = min(near, key=lambda c: self._tie_key(c, obs, odds))
        self.guesses += 1
        self.why = f"guess: P(dagger) = {odds.probability(cell):.4f}, the lowest"
        if self.explain is not None:
            self.explain(self._explanation(obs, odds, cell))
        return DaggersAction("probe", cell)

    @staticmethod
    def _tie_key(cell: Cell, obs: DaggersObservation, odds: DaggerOdds) -> tuple:
        return (odds.probability(cell), cell)

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
