#!/usr/bin/env python3
"""Compare agents from Python instead of the command line (logic_agents.study.batch.compare).

Plays rpx, spx and satx on the 30 official maps plus 20 generated Nettle Sweeper maps, with
paired seeds, streams every game to runs.csv (rerun to resume), and prints the summary.

Usage: python scripts/compare_agents.py [--runs 20] [--out runs.csv]
"""

import argparse
import json
from pathlib import Path

from logic_agents.games.daggers import load
from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.study import batch
from logic_agents.study.entries import MapEntry, entries_from_paths
from logic_agents.study.summary import summarize

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--out", default="runs.csv")
    args = parser.parse_args()

    entries = entries_from_paths([ROOT / "maps" / "daggers" / "2018"], load)
    entries += [MapEntry(m, "nettle-easy") for m in generate_maps(PRESETS["nettle-easy"], 20, seed=1)]
    rows = batch.compare(["rpx", "spx", "satx"], entries, runs=args.runs, seed=1, out=args.out,
                         resume=Path(args.out).exists())
    summary = summarize(rows, ["rpx", "spx", "satx"])
    for name, stats in summary["agents"].items():
        lo, hi = stats["ci95"]
        print(f"{name:5} {stats['wins']:5}/{stats['games']:<5} {100 * stats['win_rate']:5.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}]  {stats['mean_time_s'] * 1000:.1f} ms/game")
    print(json.dumps(summary["pairs"], indent=1))


if __name__ == "__main__":
    main()
