#!/usr/bin/env python3
"""Benchmark: how prob enumerates a frontier component, dedicated search against SAT.

The issue leaves the choice open: enumerate each component's consistent assignments with the
SAT oracle and blocking clauses (under a selector, on a copy), or with a dedicated search,
whichever measures faster. Both routes run here on the same components, met at the guesses of
real games (ProbAgent on generated intermediate and expert boards):
- dedicated: components.enumerate_component, a backtracking search over classes of interchangeable
  cells, each weighted C(size, j), with exact integer counts per dagger total;
- sat: one KnowledgeBase per component (Exactly(k) per clue through pysat.card), and
  SatOracle.raw_models over the component's cells, each model blocked under a selector, up to
  `--cap` models (a component with more is counted as over the cap and timed up to it).
Both must give the same count of assignments per dagger total wherever SAT finishes.

Usage: python benchmarks/bench_prob_enum.py [--games 60] [--cap 20000] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, write_report  # noqa: E402

from logic_agents.games.daggers import DaggersWorld, ProbAgent  # noqa: E402
from logic_agents.games.daggers.components import components as _components  # noqa: E402
from logic_agents.games.daggers.components import enumerate_component as _enumerate  # noqa: E402
from logic_agents.games.daggers.generate import PRESETS, generate_maps  # noqa: E402
from logic_agents.games.daggers.odds import constraints  # noqa: E402
from logic_agents.logic.formula import Exactly, IdCardinality  # noqa: E402
from logic_agents.logic.kb import KnowledgeBase  # noqa: E402
from logic_agents.logic.oracle import SatOracle  # noqa: E402
from logic_agents.world.runner import run_episode  # noqa: E402


def components(games: int) -> list[list]:
    """The frontier components of every position where prob had to guess."""
    found: list[list] = []
    for preset in ("intermediate", "expert"):
        for i, board in enumerate(generate_maps(PRESETS[preset], games, seed=21)):
            agent = ProbAgent(endgame=0)
            guess = agent._guess

            def logged(obs, guess=guess):
                cons = constraints(obs)
                found.extend([cons[j] for j in group] for group in _components(cons))
                return guess(obs)

            agent._guess = logged
            run_episode(DaggersWorld(board), agent, seed=i)
    return found


def dedicated(cons: list) -> dict[int, int]:
    _, table = _enumerate(cons)
    return {k: w for k, (w, _) in table.items()}


def by_sat(cons: list, cap: int) -> tuple[dict[int, int], bool]:
    kb = KnowledgeBase()
    cells = sorted({c for cells, _ in cons for c in cells})
    ids = {c: kb.var(("D", *c)) for c in cells}
    kb.tell(*[IdCardinality(Exactly, k, tuple(ids[c] for c in cs)) for cs, k in cons])
    with SatOracle(kb) as oracle:
        models = oracle.raw_models(cap + 1, over=list(ids.values()))
    counts: dict[int, int] = {}
    for model in models[:cap]:
        k = sum(model[i - 1] > 0 for i in ids.values())
        counts[k] = counts.get(k, 0) + 1
    return counts, len(models) <= cap


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=60, help="games per size (default 60)")
    parser.add_argument("--cap", type=int, default=20000,
                        help="most models SAT enumerates per component (default 20,000)")
    args = parse(parser)
    if args.tiny:  # the components of two games a size
        args.games = 2
    started = time.perf_counter()
    found = components(args.games)
    times = {"dedicated": [], "sat": []}
    over_cap = 0
    assignments = 0
    for cons in found:
        t = time.perf_counter()
        exact = dedicated(cons)
        times["dedicated"].append(time.perf_counter() - t)
        t = time.perf_counter()
        counts, finished = by_sat(cons, args.cap)
        times["sat"].append(time.perf_counter() - t)
        assignments += sum(exact.values())
        if finished:
            assert counts == exact, (cons, counts, exact)
        else:
            over_cap += 1
    sizes = [len({c for cells, _ in cons for c in cells}) for cons in found]
    lines = [
        f"{len(found)} frontier components from the guesses of {args.games} intermediate and "
        f"{args.games} expert games (seed 21); {min(sizes)}-{max(sizes)} cells, median "
        f"{statistics.median(sizes)}; {assignments:,} consistent assignments in all. SAT "
        f"stops at {args.cap:,} models ({over_cap} components had more); where it finished, "
        "its counts per dagger total equal the dedicated search's.", "",
        "| route | total ms | median ms / component | max ms |", "|---|---|---|---|"]
    for route, ts in times.items():
        lines.append(f"| {route} | {1000 * sum(ts):.1f} | {1000 * statistics.median(ts):.3f} | "
                     f"{1000 * max(ts):.1f} |")
    ratio = sum(times["sat"]) / sum(times["dedicated"])
    bound = (" (a lower bound: it stopped at the cap on the largest components)" if over_cap
             else "")
    lines += ["", f"- SAT takes {ratio:.1f}x the dedicated search's time{bound}."]
    body = "\n".join(lines)
    print(body)
    if args.out:
        write_report(args.out, "bench_prob_enum",
                     "Enumerating components: dedicated search against SAT "
                     "(`benchmarks/bench_prob_enum.py`)", time.perf_counter() - started,
                     [("Same components, both routes", body)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
