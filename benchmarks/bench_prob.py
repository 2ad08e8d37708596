#!/usr/bin/env python3
"""Benchmark of prob against satx: the 30 official 2018 maps and classic Minesweeper.

Prints three markdown tables, each measured in this run with paired seeds (the same seed for
both agents on every map and run):
1. the 30 official 2018 maps, 1,000 runs each: win rates with 95% Wilson intervals overall,
   per size (EASY, MEDIUM, HARD) and on HARD10, and an exact McNemar test;
2. classic Minesweeper beginner, intermediate and expert, 10,000 generated games each, first
   probe at the [0,0] corner, which the generator keeps clear so that it opens an area (the
   issue's "opening start" rule): win rates with Wilson intervals, the distance from the
   published figures, and the median time per game;
3. the records' rules: 9x9/10 and 16x16/40 opened at (2,2), expert opened at (3,3) (Tu et
   al.'s MineSweeperProb "SNR" rule at their 1-based [3,3] and [4,4]), 20,000 games each:
   win rates with Wilson intervals beside the published figures, and with `--against REV` a
   paired exact McNemar test against `prob` as it was at git revision REV, played on the same
   boards and seeds in the same run;
4. CPU seconds per game (mean, median, max) of those same games, one game at a time in each
   of `--jobs` child processes (time.process_time), for this tree and for REV.
With --safe-start it prints instead, as a section of its own, beginner (8x8), intermediate
and expert under the "classic" rule: the first probe at the [0,0] corner is safe but need
not open an area, against the published figures for that rule (Tu et al. 81.79 / 78.22 /
40.06%, JSMinesweeper 40.7% on expert).
With --out FILE it writes its section of FILE (docs/BENCHMARKS.md).

Usage: python benchmarks/bench_prob.py [--scale 1.0] [--jobs 2] [--skip-modern]
                                    [--against REV] [--out docs/BENCHMARKS.md]
       python benchmarks/bench_prob.py --records-only --against REV [--scale 1.0] [--out ...]
       python benchmarks/bench_prob.py --records-only --sizes beginner,intermediate --scale 5
       python benchmarks/bench_prob.py --safe-start [--scale 1.0] [--jobs 2] [--out ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, checkout, parse, write_report  # noqa: E402

from logic_agents.games.daggers import load  # noqa: E402
from logic_agents.games.daggers.generate import PRESETS, generate_maps  # noqa: E402
from logic_agents.study import batch  # noqa: E402
from logic_agents.study.entries import MapEntry, entries_from_paths  # noqa: E402
from logic_agents.study.summary import (  # noqa: E402
    mcnemar_exact,
    summarize,
    wilson,  # noqa: E402
)

AGENTS = ("satx", "prob")
# Tu et al.'s solver, MineSweeperProb (github.com/b1f6c1c4/MineSweeperProb, README "Winning
# Rate" and "Winning Rate by First Move", 10^8 games each), rule SNR: the first probe is an
# opening (no dagger on it or around it). PSEQ at the 1-based corner [1,1], that is [0,0]:
RECORDS = {"beginner": 96.2181, "intermediate": 85.4942, "expert": 46.7470}
TARGETS: dict[str, float] = {}
# ... and at the cells their table marks best: 9x9 and 16x16 at [3,3] = (2,2) 0-based,
# 30x16 at [4,4] = (3,3): PSEQ, and PSEQ-D256 (their slow quasi-optimal variant).
RECORD_RULES = {"beginner": (2, 2), "intermediate": (2, 2), "expert": (3, 3)}
PSEQ = {"beginner": 97.1453, "intermediate": 88.9267, "expert": 52.7909}
PSEQ_D256 = {"beginner": 97.1669, "intermediate": 89.0786, "expert": 53.452}
JSMINESWEEPER = {"expert": 54.0}  # David Hill's JSMinesweeper README, expert opened at (3,3)
RECORD_TARGETS = {"beginner": 97.2, "intermediate": 89.1, "expert": 54.0}
# CPU per game before issue 19 as the issue measured it (s), and the target for each: expert
# at most 0.1 s, the others shrunk by the same factor (0.54 / 0.1)
CPU_BEFORE = {"beginner": 0.015, "intermediate": 0.079, "expert": 0.54}
CPU_TARGET = {k: v * 0.1 / 0.54 for k, v in CPU_BEFORE.items()}
# With a safe (not necessarily opening) first probe: Tu et al. (AAAI 2017, "Exploring
# Efficient Strategies for Minesweeper"), quasi-optimal 81.79 / 78.22 / 40.06% (their PSEQ
# heuristics 81.63 / 78.12 / 39.62%); JSMinesweeper's README: 40.7% on "classic expert
# (30x16/99 safe start in a corner)". The best of them for each size. Tu et al.'s beginner is
# the 8x8 board (on 9x9 even satx wins 87% under this rule).
SAFE_START_RECORDS = {"beginner-8x8": 81.79, "intermediate": 78.22, "expert": 40.7}


def rate(rows: list) -> str:
    wins, n = sum(r.won for r in rows), len(rows)
    lo, hi = wilson(wins, n)
    return f"{100 * wins / n:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]" if n else "-"


def paired(rows: list) -> str:
    """prob against satx on the paired runs (summarize's exact McNemar test)."""
    p = summarize(rows, list(AGENTS))["pairs"][0]
    return (f"{p['paired_games']} paired games: only {p['a']} won {p['only_a_won']}, only "
            f"{p['b']} won {p['only_b_won']}; exact McNemar p = {p['p_value']:.3g}")


def official(runs: int, jobs: int) -> str:
    entries = entries_from_paths([ROOT / "maps" / "daggers" / "2018"], load)
    rows = batch.compare(list(AGENTS), entries, runs=runs, seed=8, jobs=jobs)
    size = {e.instance.name: e.instance.name.rstrip("0123456789") for e in entries}
    lines = [f"{len(entries)} maps x {runs} runs per agent, paired seeds (seed 8).", "",
             "| agent | all, win % [95% CI] | EASY | MEDIUM | HARD | HARD10 | target |",
             "|---|---|---|---|---|---|---|"]
    for agent in AGENTS:
        mine = [r for r in rows if r.agent == agent]
        by = {s: [r for r in mine if size[r.map] == s] for s in ("EASY", "MEDIUM", "HARD")}
        lines.append(f"| {agent} | {rate(mine)} | {rate(by['EASY'])} | {rate(by['MEDIUM'])} | "
                     f"{rate(by['HARD'])} | {rate([r for r in mine if r.map == 'HARD10'])} | "
                     f"all >= 99.5, HARD10 >= 90 |")
    lines += ["", f"- prob vs satx: {paired(rows)}"]
    return "\n".join(lines)


def classic(count: int, jobs: int, start: tuple[int, int] | None = None,
            opening: bool = True) -> str:
    where = "[0,0]" if start is None else f"({start[0]},{start[1]})"
    rule = "kept clear with its neighbours (an opening)" if opening else \
        "safe, its neighbours not kept clear (it may show a number)"
    records, targets = (RECORDS, TARGETS) if opening else (SAFE_START_RECORDS, {})
    lines = [f"{count} generated games per size (seed 9), first probe at {where}, {rule}; one "
             "run each, paired seeds.", "",
             "| size | agent | win % [95% CI] | record | distance | target | median s/game |",
             "|---|---|---|---|---|---|---|"]
    pairs = []
    for preset in records:
        entries = [MapEntry(m, preset)
                   for m in generate_maps(PRESETS[preset], count, 9, start, opening)]
        rows = batch.compare(list(AGENTS), entries, runs=1, seed=9, jobs=jobs)
        for agent in AGENTS:
            mine = [r for r in rows if r.agent == agent]
            pct = 100 * sum(r.won for r in mine) / len(mine)
            lines.append(f"| {preset} | {agent} | {rate(mine)} | {records[preset]} | "
                         f"{pct - records[preset]:+.2f} | {targets.get(preset, '-')} | "
                         f"{statistics.median(r.time_s for r in mine):.4f} |")
        pairs.append(f"- {preset}, prob vs satx: {paired(rows)}")
        print(lines[-2], lines[-1], sep="\n", file=sys.stderr, flush=True)
    return "\n".join(lines + [""] + pairs)


def play_prob(pythonpath: Path, preset: str, count: int, start: tuple[int, int],
              jobs: int, seed: int = 9, env: dict[str, str] | None = None) -> list[dict]:
    """prob's games from `pythonpath`'s logic_agents, split over `jobs` child processes (seed
    `seed` for the boards and for the play; `env`: more environment for the children): one
    dict per game, in board order."""
    chunks = [(count * i // jobs, count * (i + 1) // jobs) for i in range(jobs)]
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(pythonpath)}
    games = []
    with tempfile.TemporaryDirectory() as tmp:
        # each child writes to a file of its own: a pipe read after another child's would
        # fill and stop it, and the children would run one after the other
        outs = [Path(tmp) / f"{k}.jsonl" for k in range(jobs)]
        children = []
        for (a, b), out in zip(chunks, outs):
            with out.open("w") as sink:
                children.append(subprocess.Popen(
                    [sys.executable, str(ROOT / "benchmarks" / "_prob_games.py"), preset,
                     str(count), str(seed), f"{start[0]},{start[1]}", str(a), str(b),
                     str(seed)],
                    stdout=sink, text=True, env=env, cwd=pythonpath))
        for child, out in zip(children, outs):
            if child.wait():
                raise SystemExit(f"the games under {pythonpath} failed (exit {child.returncode})")
            games += [json.loads(line) for line in out.read_text().splitlines()]
    return games


def build_in_place(tree: Path, require: bool = True) -> bool:
    """Compile `tree`'s C extensions next to their sources, as an editable install would, so
    that a worktree plays with its own kernel; whether prob's kernel is there after (with
    `require`, a tree without one is an error: a revision before the kernel has none)."""
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q",
                    "build_ext", "--inplace"], cwd=tree, check=True, capture_output=True)
    built = subprocess.run([sys.executable, "-c", "from logic_agents.games.daggers import "
                            "components; print(components.KERNEL is not None)"], cwd=tree,
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(tree)})
    if require and built.stdout.strip() != "True":
        raise SystemExit(f"{tree}: its kernel did not build: {built.stderr.strip()}")
    return built.stdout.strip() == "True"


def cpu(games: list[dict]) -> str:
    times = [g["cpu_s"] for g in games]
    return (f"{statistics.mean(times):.4f} | {statistics.median(times):.4f} | "
            f"{max(times):.3f}")


def records(count: int, jobs: int, against: str | None,
            sizes: tuple[str, ...] = tuple(RECORD_RULES)) -> tuple[str, str]:
    """Section 3 (win rates under the records' rules) and section 4 (CPU per game), for the
    record `sizes`."""
    rev = None
    if against:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", against],
                             capture_output=True, text=True, check=True).stdout.strip()
    lines = [f"{count} generated games per size (seed 9), each opened at the cell of the "
             "records (kept clear with its neighbours: Tu et al.'s SNR rule); prob with "
             "its default settings" + (f", and prob as of revision {rev} on the same boards "
                                       "and seeds" if rev else "") + ".", "",
             "| size | start | agent | win % [95% CI] | PSEQ | PSEQ-D256 | JSMinesweeper | "
             "target |", "|---|---|---|---|---|---|---|---|"]
    cost = ["CPU seconds per game (time.process_time around each game, one game at a time "
            f"per child process, {jobs} in parallel), on the games above.", "",
            "| size | agent | mean | median | max | before (issue 19) | target (mean) |",
            "|---|---|---|---|---|---|---|"]
    pairs = []
    with checkout(against) as old_tree:
        for preset in sizes:
            start = RECORD_RULES[preset]
            played = {"prob": play_prob(ROOT, preset, count, start, jobs)}
            if old_tree is not None:
                played[f"prob@{rev}"] = play_prob(old_tree, preset, count, start, jobs)
            for agent, games in played.items():
                wins = sum(g["won"] for g in games)
                lo, hi = wilson(wins, len(games))
                lines.append(f"| {preset} | {start[0]},{start[1]} | {agent} | "
                             f"{100 * wins / len(games):.2f} [{100 * lo:.2f}, {100 * hi:.2f}] | "
                             f"{PSEQ[preset]} | {PSEQ_D256[preset]} | "
                             f"{JSMINESWEEPER.get(preset, '-')} | "
                             f"{RECORD_TARGETS[preset]} |")
                cost.append(f"| {preset} | {agent} | {cpu(games)} | {CPU_BEFORE[preset]} | "
                            f"{CPU_TARGET[preset]:.4f} |")
                print(lines[-1], cost[-1], sep="\n", file=sys.stderr, flush=True)
            if old_tree is not None:
                new, old = played["prob"], played[f"prob@{rev}"]
                if [(g["name"], g["board"]) for g in new] != [(g["name"], g["board"])
                                                              for g in old]:
                    raise SystemExit(f"revision {rev} generated other boards: not paired")
                only_new = sum(a["won"] and not b["won"] for a, b in zip(new, old))
                only_old = sum(b["won"] and not a["won"] for a, b in zip(new, old))
                pairs.append(f"- {preset}, prob vs prob@{rev}: {len(new)} paired games: only "
                             f"prob won {only_new}, only prob@{rev} won {only_old}; exact "
                             f"McNemar p = {mcnemar_exact(only_new, only_old):.3g}")
    sources = ("PSEQ and PSEQ-D256: Tu et al.'s MineSweeperProb README (10^8 games each, rule "
               "SNR, first probe at 1-based [3,3] on 9x9 and 16x16, [4,4] on 30x16, i.e. "
               "(2,2) and (3,3) here). JSMinesweeper: David Hill's README, 54% on expert "
               "opened at (3,3).")
    return ("\n".join(lines + [""] + pairs + ["", sources]), "\n".join(cost))


def record_sizes(text: str) -> tuple[str, ...]:
    sizes = tuple(s.strip() for s in text.split(",") if s.strip())
    unknown = [s for s in sizes if s not in RECORD_RULES]
    if unknown or not sizes:
        raise argparse.ArgumentTypeError(f"choose among {', '.join(RECORD_RULES)}, not "
                                         f"{text!r}")
    return sizes


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--skip-modern", action="store_true",
                        help="leave out section 3 (the opening at (3,3))")
    parser.add_argument("--against", metavar="REV",
                        help="also play prob as of this git revision on the records' games, "
                        "for a paired test and its CPU per game")
    parser.add_argument("--records-only", action="store_true",
                        help="only sections 3 and 4 (the records' rules, CPU per game)")
    parser.add_argument("--sizes", type=record_sizes, default=tuple(RECORD_RULES),
                        help="with --records-only: the record sizes to play, comma-separated "
                        "(default beginner,intermediate,expert); a subset is written as a "
                        "section of its own")
    parser.add_argument("--safe-start", action="store_true",
                        help="only the three sizes with a safe (not opening) start in the "
                        "corner, written as a section of its own")
    args = parse(parser)
    started = time.perf_counter()
    if args.tiny:  # section 1 alone: one run on each official map, one worker
        body = official(1, 1)
        print(body)
        if args.out:
            write_report(args.out, "bench_prob_tiny", "prob against satx (tiny)",
                         time.perf_counter() - started, [("The 30 official 2018 maps", body)])
        return 0
    games = max(1, round(10000 * args.scale))  # classic games per size and start rule
    if args.safe_start:
        body = classic(games, args.jobs, opening=False)
        print(body, flush=True)
        if args.out:
            write_report(args.out, "bench_prob_safe", "prob against satx, classic safe start "
                         "(`benchmarks/bench_prob.py --safe-start`)", time.perf_counter() - started,
                         [("Classic Minesweeper, first probe safe at [0,0], not necessarily "
                           "an opening (the rule of Tu et al. and of JSMinesweeper's 40.7%)",
                           body)])
        return 0
    sections = []
    if not args.records_only:
        sections.append(("1. The 30 official 2018 maps",
                         official(max(1, round(1000 * args.scale)), args.jobs)))
        print(sections[-1][1], flush=True)
        sections.append(("2. Classic Minesweeper, opening start at [0,0] (SNR at [1,1])",
                         classic(games, args.jobs)))
        print(sections[-1][1], flush=True)
    if not args.skip_modern:
        wins, cost = records(max(1, round(20000 * args.scale)), args.jobs, args.against,
                             args.sizes)
        sections += [("3. The records' rules: 9x9 and 16x16 opened at (2,2), expert at (3,3)",
                      wins), ("4. CPU per game", cost)]
        print(wins, cost, sep="\n\n", flush=True)
    if args.out:
        key, title = (("bench_prob_records", "prob under the records' rules "
                       "(`benchmarks/bench_prob.py --records-only`)") if args.records_only else
                      ("bench_prob", "prob against satx (`benchmarks/bench_prob.py`)"))
        if args.records_only and args.sizes != tuple(RECORD_RULES):
            key += "_" + "_".join(args.sizes)
            title = (f"prob under the records' rules, {', '.join(args.sizes)} "
                     f"(`benchmarks/bench_prob.py --records-only --sizes {','.join(args.sizes)}`)")
        write_report(args.out, key, title, time.perf_counter() - started, sections)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
