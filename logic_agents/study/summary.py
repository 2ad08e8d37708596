"""Summaries of a study's rows: win rates with intervals, scores, and paired tests.

Concepts: wilson (a proportion's 95% interval), mcnemar_exact (the two-sided exact test on
the discordant pairs), paired_difference (a difference of paired win rates with the
Agresti-Min interval), score_stats (mean, median, max and an interval of the mean), and
summarize: per agent and per group, games, wins, win rate, errors and timeouts (counted apart
from losses; they are games not won), means of steps, guesses, time and the agent's counters;
for every pair of agents an exact McNemar test (or, for scored games, a sign test on scores)
beside the difference and its 95% interval; per_map: the same statistics map by map.

The results are frozen dataclasses (Summary, AgentStats, ScoreStats, Pair, MapStats): nothing
changes them once made. `to_json()` gives what `compare --json` prints, and each reads like
that JSON object too (`pair["p_value"]`, `summary["agents"]`), as the dicts it replaced did.
"""

from __future__ import annotations

import math
import statistics
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from logic_agents.errors import UsageError
from logic_agents.ground.output import natural_key
from logic_agents.ground.shapes import Record
from logic_agents.study.rows import Row

# a study of more agents than this, given no --baseline, tests each against the best only:
# every pair of 400 agents is 79,800 tests, and a summary's cost must stay linear in them
ALL_PAIRS_UP_TO = 40


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: a sign test on the discordant pairs."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1))
    return min(1.0, float(2 * tail / 2**n))


class ReadsLikeJson(ABC):
    """A result that reads like the JSON object it serializes to, as the dicts it replaced."""

    @abstractmethod
    def to_json(self) -> Record:
        """The result as `compare --json` prints it."""

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]


def _interval(ci95: tuple[float, float]) -> list[float]:
    return [ci95[0], ci95[1]]


@dataclass(frozen=True)
class ScoreStats(ReadsLikeJson):
    """Scores: mean, median, max and a normal-approximation 95% interval of the mean."""

    mean: float
    median: float
    max: float
    ci95: tuple[float, float]

    def to_json(self) -> Record:
        return {"mean": self.mean, "median": self.median, "max": self.max,
                "ci95": _interval(self.ci95)}


@dataclass(frozen=True)
class AgentStats(ReadsLikeJson):
    """One agent's games (over a study, a group or a map): wins with the Wilson interval,
    failures apart, the means of steps, guesses, time and its counters; `score` for a scored
    game; `groups` (over a study only) the same per group."""

    games: int
    wins: int
    errors: int
    timeouts: int
    win_rate: float
    ci95: tuple[float, float]
    mean_steps: float
    mean_guesses: float
    mean_time_s: float
    mean_cpu_s: float
    mean_stats: Mapping[str, float]
    score: ScoreStats | None = None
    groups: Mapping[str, AgentStats] | None = None

    def to_json(self) -> Record:
        out: Record = {"score": self.score.to_json()} if self.score is not None else {}
        out.update({"games": self.games, "wins": self.wins, "errors": self.errors,
                    "timeouts": self.timeouts, "win_rate": self.win_rate,
                    "ci95": _interval(self.ci95), "mean_steps": self.mean_steps,
                    "mean_guesses": self.mean_guesses, "mean_time_s": self.mean_time_s,
                    "mean_cpu_s": self.mean_cpu_s, "mean_stats": dict(self.mean_stats)})
        if self.groups is not None:
            out["groups"] = {name: g.to_json() for name, g in self.groups.items()}
        return out


@dataclass(frozen=True)
class Pair(ReadsLikeJson):
    """Two agents on their paired games: the games only one won (or, scored, where one scored
    more), the exact test's p-value, the verdict, and the difference with its 95% interval."""

    a: str
    b: str
    paired_games: int
    only_a_won: int
    only_b_won: int
    test: str
    p_value: float
    significant: bool
    better: str | None
    difference: float
    difference_ci95: tuple[float, float]

    def to_json(self) -> Record:
        return {"a": self.a, "b": self.b, "paired_games": self.paired_games,
                "only_a_won": self.only_a_won, "only_b_won": self.only_b_won, "test": self.test,
                "p_value": self.p_value, "significant": self.significant,
                "better": self.better, "difference": self.difference,
                "difference_ci95": _interval(self.difference_ci95)}


@dataclass(frozen=True)
class MapStats(ReadsLikeJson):
    """One map's statistics per agent."""

    group: str
    map: str
    agents: Mapping[str, AgentStats]

    def to_json(self) -> Record:
        return {"group": self.group, "map": self.map,
                "agents": {name: st.to_json() for name, st in self.agents.items()}}


@dataclass(frozen=True)
class Summary(ReadsLikeJson):
    """A study's statistics: per agent (and group), every pair's test, and the objective the
    game is judged on ("win" or "score")."""

    agents: Mapping[str, AgentStats]
    pairs: tuple[Pair, ...]
    objective: str = "win"
    # the agents every tested pair has one of: the --baseline given, or, in a study of more
    # than ALL_PAIRS_UP_TO agents given none, the best one, chosen (`chosen`); () for every pair
    baseline: tuple[str, ...] = ()
    chosen: bool = False

    @property
    def scored(self) -> bool:
        return self.objective == "score"

    def to_json(self) -> Record:
        return {"agents": {name: st.to_json() for name, st in self.agents.items()},
                "pairs": [p.to_json() for p in self.pairs], "objective": self.objective,
                "baseline": list(self.baseline), "baseline_chosen": self.chosen}


def paired_difference(only_a: int, only_b: int, n: int, z: float = 1.96) -> Record:
    """A's win rate minus B's over n paired games, of which only A won `only_a` and only B
    `only_b`, with the Agresti-Min (2005) 95% interval: the Wald interval of paired
    proportions after adding one half to each of the four cells, which keeps its coverage
    near 95% when the discordant counts are small or zero."""
    if n == 0:
        return {"difference": 0.0, "ci95": [0.0, 0.0]}
    b, c, m = only_a + 0.5, only_b + 0.5, n + 2
    centre = (b - c) / m
    half = z * math.sqrt(max(0.0, (b + c) - (b - c) ** 2 / m)) / m
    return {"difference": (only_a - only_b) / n,
            "ci95": [max(-1.0, centre - half), min(1.0, centre + half)]}


def mean_difference(differences: Sequence[float], z: float = 1.96) -> Record:
    """The mean of paired differences (A's score minus B's) with a normal 95% interval."""
    stats = score_stats(differences, z)
    return {"difference": stats.mean, "ci95": _interval(stats.ci95)}


def score_stats(scores: Sequence[float], z: float = 1.96) -> ScoreStats:
    """Mean, median, max and a normal-approximation 95% interval of the mean."""
    n = len(scores)
    if n == 0:
        return ScoreStats(0.0, 0.0, 0.0, (0.0, 0.0))
    # math.fsum is exactly rounded, so the same scores in any order (the order parallel
    # games finish in) give the same doubles
    mean = math.fsum(scores) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return ScoreStats(mean, statistics.median(scores), max(scores), (mean - half, mean + half))


def _stats(rows: list[Row], scored: bool = False,
           groups: Mapping[str, AgentStats] | None = None) -> AgentStats:
    n = len(rows)
    wins = sum(r.won for r in rows)
    return AgentStats(
        games=n,
        wins=wins,
        errors=sum(r.outcome == "error" for r in rows),
        timeouts=sum(r.outcome == "timeout" for r in rows),
        win_rate=wins / n if n else 0.0,
        ci95=wilson(wins, n),
        mean_steps=math.fsum(r.steps for r in rows) / n if n else 0.0,
        mean_guesses=math.fsum(r.guesses for r in rows) / n if n else 0.0,
        mean_time_s=math.fsum(r.time_s for r in rows) / n if n else 0.0,
        mean_cpu_s=math.fsum(r.cpu_s for r in rows) / n if n else 0.0,
        mean_stats={k: math.fsum(r.stats[k] for r in rows) / n
                    for k in sorted(set.intersection(*[set(r.stats) for r in rows]))} if n else {},
        score=score_stats([r.score or 0 for r in rows]) if scored else None,
        groups=groups,
    )


def summarize(rows: Iterable[Row], agents: Sequence[str] | None = None,
              alpha: float = 0.05, groups: Sequence[str] | None = None,
              scored: bool = False, baseline: Sequence[str] = ()) -> Summary:
    """Per agent (and group) statistics and every pair's test, as `compare --json` prints
    them (Summary.to_json). Groups come in the order given (else sorted by name). A `scored`
    game (Ooze) adds score statistics, and its pairs are judged on scores: an exact sign test
    on the paired runs where one agent scored more than the other. With a `baseline` (agents'
    names), only the pairs with a baseline agent in them are tested: a class of 200 against
    spx and satx, not its 19,900 pairs. Without one, a study of more than ALL_PAIRS_UP_TO
    agents tests each agent against the best (by win rate, or mean score; the first named of
    those tied), so its cost stays linear in the agents (`Summary.chosen` says so)."""
    rows = list(rows)
    names = list(agents) if agents else list(dict.fromkeys(r.agent for r in rows))
    unknown = [b for b in baseline if b not in names]
    if unknown:
        raise UsageError(f"--baseline {unknown[0]}: no agent of the study is named so "
                         f"(its agents: {', '.join(names[:10])}{', ...' if len(names) > 10 else ''})")
    rows_of: dict[str, list[Row]] = {name: [] for name in names}
    for r in rows:
        rows_of.setdefault(r.agent, []).append(r)
    per_agent: dict[str, AgentStats] = {}
    for name in names:
        mine = rows_of[name]
        by_group: dict[str, list[Row]] = {}
        for r in mine:
            by_group.setdefault(r.group, []).append(r)
        order = _in_order(groups or [], by_group)
        per_agent[name] = _stats(mine, scored, {g: _stats(by_group[g], scored) for g in order})
    # each agent's games by (map, run, seed): a pair's shared games are one lookup each
    games_of = {name: {(r.map, r.run, r.seed): ((r.score or 0) if scored else r.won)
                       for r in rows_of[name]} for name in names}
    chosen = not baseline and len(names) > ALL_PAIRS_UP_TO
    if chosen:
        baseline = (_best(per_agent, scored),)
    pairs = []
    for a, b in _tested_pairs(names, frozenset(baseline)):
        ours, theirs = games_of[a], games_of[b]
        shared = [k for k in ours if k in theirs]
        if scored:  # "won" = scored more in the paired run
            only_a = sum(ours[k] > theirs[k] for k in shared)
            only_b = sum(theirs[k] > ours[k] for k in shared)
        else:
            only_a = sum(bool(ours[k]) and not theirs[k] for k in shared)
            only_b = sum(bool(theirs[k]) and not ours[k] for k in shared)
        p = mcnemar_exact(only_a, only_b)
        significant = p < alpha
        delta = (mean_difference([ours[k] - theirs[k] for k in shared])
                 if scored else paired_difference(only_a, only_b, len(shared)))
        pairs.append(Pair(
            a=a, b=b, paired_games=len(shared), only_a_won=only_a, only_b_won=only_b,
            test=("exact sign test on paired scores" if scored
                  else "exact McNemar (sign test on discordant runs)"),
            p_value=p, significant=significant,
            better=(a if only_a > only_b else b) if significant else None,
            difference=delta["difference"],
            difference_ci95=(delta["ci95"][0], delta["ci95"][1])))
    return Summary(per_agent, tuple(pairs), "score" if scored else "win", tuple(baseline),
                   chosen)


def _best(per_agent: Mapping[str, AgentStats], scored: bool) -> str:
    """The agent with the best win rate (mean score), the first named of those tied."""
    def value(name: str) -> float:
        st = per_agent[name]
        return (st.score.mean if st.score is not None else -math.inf) if scored else st.win_rate

    return max(per_agent, key=value)


def _tested_pairs(names: Sequence[str], baseline: frozenset[str]) -> Iterator[tuple[str, str]]:
    """(a, b), a named before b: every pair, or, with a baseline, each pair with one of it
    (made from the baseline's side: linear in the agents, not quadratic)."""
    if not baseline:
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                yield a, b
        return
    position = {name: i for i, name in enumerate(names)}
    ordered = sorted((position[b], b) for b in baseline if b in position)  # in names' order
    for i, a in enumerate(names):
        others = names[i + 1:] if a in baseline else [b for at, b in ordered if at > i]
        yield from ((a, b) for b in others)


def _in_order(given: Sequence[str], present: Iterable[str]) -> list[str]:
    """The groups present: those `given` first, in its order, then the others sorted."""
    present = list(present)
    order = [g for g in given if g in present]
    return order + sorted(g for g in present if g not in order)


def per_map(rows: Iterable[Row], agents: Sequence[str] | None = None,
            scored: bool = False, groups: Sequence[str] | None = None) -> list[MapStats]:
    """One entry per (group, map), maps in natural order: {"group", "map", "agents": {name:
    the statistics summarize gives an agent}}. Groups come in the order `groups` gives (the
    others after them, sorted), else in the order the rows first name them: parallel games
    finish in no fixed order, so a study's pages pass its groups."""
    rows = list(rows)
    names = list(agents) if agents else list(dict.fromkeys(r.agent for r in rows))
    cells: dict[tuple[str, str], dict[str, list[Row]]] = {}
    for r in rows:
        cells.setdefault((r.group, r.map), {}).setdefault(r.agent, []).append(r)
    met = list(dict.fromkeys(group for group, _ in cells))
    if groups is not None:
        met = _in_order(groups, met)
    order = sorted(cells, key=lambda key: (met.index(key[0]), natural_key(key[1])))
    return [MapStats(group, name, {a: _stats(cells[group, name][a], scored)
                                   for a in names if a in cells[group, name]})
            for group, name in order]
