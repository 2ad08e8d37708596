#!/usr/bin/env python3
"""Benchmark of the Ooze agents: greedy, the report's rbfs and the SAT planner, on paired seeds.

Every agent plays the same seeds, so the same piece sequences. Prints one markdown table
measured in this run: mean score with its 95% interval, median, max, mean tiles flowed, and
the time per decision (median and max over every decision; median over the decisions that
placed a piece), then paired sign tests and how close each agent comes to the ceiling of 48
tiles. With --out FILE it writes its section of FILE (docs/BENCHMARKS.md).

Usage: python benchmarks/bench_ooze.py [--games 1000] [--jobs 2] [--agents greedy,rbfs,sat]
                                    [--horizon 16] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, write_report  # noqa: E402

from logic_agents.games.ooze import AGENTS  # noqa: E402
from logic_agents.games.ooze.world import OozeWorld  # noqa: E402
from logic_agents.study.summary import mcnemar_exact, score_stats  # noqa: E402

MAX_TICKS = 400  # far above any game seen: 48 tiles flow by t = 6 + 3*48 = 150


def play(args: tuple[str, dict, int]) -> dict:
    """One game: score, tiles, crosses filled both ways, and every decision's time."""
    name, options, seed = args
    agent = AGENTS[name](**options)
    world = OozeWorld(max_ticks=MAX_TICKS)
    obs, _ = world.reset(seed=seed)
    agent.reset(seed)
    times, placing = [], []
    started = time.perf_counter()
    while True:
        t = time.perf_counter()
        action = agent.act(obs)
        dt = time.perf_counter() - t
        times.append(dt)
        if action.kind == "place":
            placing.append(dt)
        obs, _, terminated, truncated, _ = world.step(action)
        if terminated or truncated:
            break
    crosses = sum(1 for _, channels in obs.filled if len(channels) == 2)
    return {"agent": name, "seed": seed, "score": obs.score, "tiles": obs.tiles,
            "crosses": crosses, "destroys": sum(a.startswith("destroy") for a in world.actions),
            "ticks": obs.clock, "times": times, "placing": placing,
            "wall": time.perf_counter() - started}


def table(results: dict[str, list[dict]]) -> str:
    lines = ["| agent | games | mean score [95% CI] | median | max | mean tiles | max tiles | "
             "crosses/game | destroys/game | decision ms: median | max | median when placing "
             "| s/game |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, games in results.items():
        s = score_stats([g["score"] for g in games])
        times = [t for g in games for t in g["times"]]
        placing = [t for g in games for t in g["placing"]]
        lo, hi = s["ci95"]
        n = len(games)
        lines.append(
            f"| {name} | {n} | {s['mean']:.1f} [{lo:.1f}, {hi:.1f}] | {s['median']:g} | "
            f"{s['max']:g} | {sum(g['tiles'] for g in games) / n:.1f} | "
            f"{max(g['tiles'] for g in games)} | {sum(g['crosses'] for g in games) / n:.2f} | "
            f"{sum(g['destroys'] for g in games) / n:.2f} | "
            f"{1000 * statistics.median(times):.2f} | {1000 * max(times):.0f} | "
            f"{1000 * statistics.median(placing):.2f} | "
            f"{sum(g['wall'] for g in games) / n:.2f} |")
    return "\n".join(lines)


def pairs(results: dict[str, list[dict]]) -> str:
    names = list(results)
    by_seed = {n: {g["seed"]: g["score"] for g in results[n]} for n in names}
    means = {n: statistics.mean(by_seed[n].values()) for n in names}
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            seeds = sorted(set(by_seed[a]) & set(by_seed[b]))
            more_a = sum(by_seed[a][s] > by_seed[b][s] for s in seeds)
            more_b = sum(by_seed[b][s] > by_seed[a][s] for s in seeds)
            ratio = means[b] / means[a] if means[a] else float("inf")
            out.append(f"- {b} vs {a}: mean score ratio {ratio:.2f}; over {len(seeds)} paired "
                       f"seeds {b} scored more in {more_b}, {a} in {more_a}, equal in "
                       f"{len(seeds) - more_a - more_b}; exact sign test p = "
                       f"{mcnemar_exact(more_a, more_b):.2g}")
    return "\n".join(out)


def ceiling(results: dict[str, list[dict]]) -> str:
    out = []
    for name, games in results.items():
        n = len(games)
        tiles = sum(g["tiles"] for g in games) / n
        best = max(games, key=lambda g: g["score"])
        out.append(f"- {name}: {tiles:.1f} of 48 tiles on average ({100 * tiles / 48:.0f}%), "
                   f"best game {best['tiles']} tiles / {best['score']} points (seed "
                   f"{best['seed']}); {sum(g['tiles'] >= 40 for g in games)} games reached "
                   f"40 tiles or more")
    return "\n".join(out)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=1000, help="paired seeds (default 1000)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--agents", default="greedy,rbfs,sat")
    parser.add_argument("--horizon", type=int, default=None, help="sat: route horizon")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parse(parser)
    if args.tiny:  # two paired seeds, one worker
        args.games, args.jobs = 2, 1
    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = [a for a in names if a not in AGENTS]
    if unknown:
        parser.error(f"unknown agent(s) {', '.join(unknown)}; choose from {', '.join(AGENTS)}")
    started = time.perf_counter()
    seeds = range(args.first_seed, args.first_seed + args.games)
    results: dict[str, list[dict]] = {}
    for name in names:
        options = {"horizon": args.horizon} if name == "sat" and args.horizon else {}
        jobs = [(name, options, s) for s in seeds]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results[name] = list(pool.map(play, jobs, chunksize=8))
        print(f"{name}: done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    text_table, text_pairs, text_ceiling = table(results), pairs(results), ceiling(results)
    print(text_table, text_pairs, text_ceiling, sep="\n\n")
    if args.out:
        write_report(args.out, "bench_ooze", "Ooze: greedy, rbfs and the SAT planner",
                     time.perf_counter() - started,
                     [(f"{args.games} paired seeds (same piece sequences for every agent)",
                       text_table), ("Paired comparisons", text_pairs),
                      ("How close to the ceiling (48 tiles, 96 points plus cross bonuses)",
                       text_ceiling)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
