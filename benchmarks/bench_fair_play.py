#!/usr/bin/env python3
"""Benchmark of fair play (issue 38): what playing in a player process costs, side by side.

Prints three markdown tables, each measured in this run, configurations alternated:
1. the 2018 study (`compare maps/daggers/2018 --agents spx,satx,prob --runs 10 --jobs 2`)
   with the agents in-process (today's fast path for built-ins) and isolated (`--isolate
   all`), without and with bubblewrap; wall and CPU seconds, median and max over --rounds;
2. a 20,000-game study on generated 9x9 beginner boards with a file agent (spx in a file of
   its own, benchmarks/_file_agent.py) trusted in-process against isolated, same games;
3. one move's round trip: the referee's wall time per move, in-process against isolated,
   over the same games (median and p95 per game), and the bare frame ping-pong between two
   processes on one core and across cores.
With --out FILE it writes its section of FILE (docs/BENCHMARKS.md).

Usage: python benchmarks/bench_fair_play.py [--rounds 3] [--games 20000] [--out docs/BENCHMARKS.md]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import CGROUP, Measured, arguments, have_cgroup, parse, write_report  # noqa: E402

from logic_agents.games.daggers.generate import PRESETS, generate_maps  # noqa: E402
from logic_agents.referee.clock import NO_CAPS, Clock  # noqa: E402
from logic_agents.referee.isolation import Isolation  # noqa: E402
from logic_agents.referee.sandbox import bubblewrap  # noqa: E402
from logic_agents.study import batch  # noqa: E402
from logic_agents.study.entries import MapEntry  # noqa: E402

FILE_AGENT = f"{ROOT / 'benchmarks' / '_file_agent.py'}:FileSpx"
STUDY_2018 = ["compare", str(ROOT / "maps/daggers/2018"), "--agents", "spx,satx,prob",
              "--runs", "10", "--jobs", "2", "--json"]


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall s, CPU s of the command's whole process tree), measured in a cpuacct cgroup of
    its own (benchmarks/harness.py): RUSAGE_CHILDREN never sees a sandboxed player's processes,
    which bubblewrap's init reaps (issue 54: it read 3.2 s where the players used 7.2 s)."""
    measured = Measured([sys.executable, "-m", "logic_agents", *argv], ROOT)
    return measured.wall, measured.cpu


def configurations() -> list[tuple[str, list[str]]]:
    out = [("in-process (built-ins, trusted)", []),
           ("isolated, no sandbox", ["--isolate", "all", "--sandbox", "none"])]
    if bubblewrap() is not None:
        out.append(("isolated, bubblewrap", ["--isolate", "all", "--sandbox", "bwrap"]))
    return out


def study_2018(rounds: int) -> str:
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in configurations()}
    for _ in range(rounds):
        for name, flags in configurations():
            times[name].append(timed([*STUDY_2018, *flags]))
    base = statistics.median(w for w, _ in times[configurations()[0][0]])
    lines = ["| agents | wall s, median | wall s, max | CPU s, median | cost (median wall) |",
             "|---|---|---|---|---|"]
    for name, got in times.items():
        walls = [w for w, _ in got]
        lines.append(f"| {name} | {statistics.median(walls):.2f} | {max(walls):.2f} | "
                     f"{statistics.median(c for _, c in got):.2f} | "
                     f"{100 * (statistics.median(walls) / base - 1):+.0f}% |")
    return (f"`logic-agents {' '.join(STUDY_2018[:1] + ['maps/daggers/2018'] + STUDY_2018[2:])}`"
            f", 900 games, {rounds} rounds, configurations alternated; the machine otherwise "
            "idle. Every configuration gives the same rows (spx 248, satx 293, prob 300 "
            "wins).\n\n" + "\n".join(lines))


def file_agent_study(games: int) -> str:
    maps = max(1, games // 10)
    entries = [MapEntry(m, "beginner")
               for m in generate_maps(PRESETS["beginner"], maps, seed=7)]
    results = {}
    for name, isolation in (("trusted, in-process", Isolation(trusted=(FILE_AGENT,))),
                            ("isolated, no sandbox", Isolation(sandbox="none")),
                            *((("isolated, bubblewrap", Isolation(sandbox="bwrap")),)
                              if bubblewrap() is not None else ())):
        start = time.perf_counter()
        rows = batch.compare([FILE_AGENT], entries, runs=10, seed=7, jobs=2,
                             isolation=isolation)
        wall = time.perf_counter() - start
        results[name] = (wall, rows)
    base_wall, base_rows = results["trusted, in-process"]
    same = all(sorted((r.key, r.outcome, r.steps) for r in rows)
               == sorted((r.key, r.outcome, r.steps) for r in base_rows)
               for _, rows in results.values())
    moves = sum(r.steps for r in base_rows)
    lines = ["| file agent | wall s | games/s | cost | extra wall per move |",
             "|---|---|---|---|---|"]
    for name, (wall, rows) in results.items():
        lines.append(f"| {name} | {wall:.1f} | {len(rows) / wall:.0f} | "
                     f"{100 * (wall / base_wall - 1):+.0f}% | "
                     f"{1e6 * (wall - base_wall) / moves * 2:.0f} us (2 workers) |")
    return (f"{len(base_rows):,} games ({maps:,} generated beginner 9x9/10 maps x 10 runs, "
            f"{moves:,} moves), `--jobs 2`; identical rows in every configuration: {same}.\n\n"
            + "\n".join(lines))


def per_move(games: int) -> str:
    from logic_agents.referee.agents import agent_entry
    from logic_agents.referee.containment import own_this_process
    from logic_agents.referee.players import stop_players
    from logic_agents.world.registry import get_game
    from logic_agents.world.runner import run_episode

    spec = get_game("daggers")
    maps = generate_maps(PRESETS["beginner"], games, seed=11)
    own_this_process(0)
    out = {}
    for name, isolation in (("in-process", Isolation(trusted=(FILE_AGENT,))),
                            ("isolated, no sandbox", Isolation(sandbox="none")),
                            *((("isolated, bubblewrap", Isolation(sandbox="bwrap")),)
                              if bubblewrap() is not None else ())):
        entry = agent_entry(spec, FILE_AGENT, isolation=isolation)
        clock = Clock(NO_CAPS)
        per_game = []
        for index, board in enumerate(maps):
            from logic_agents.world.agents import build_agent

            agent = build_agent(entry, {}, clock)
            world = spec.make_world(board)
            start = time.perf_counter()
            result = run_episode(world, agent, index, clock=clock)
            if index >= 5 and result.steps:  # the first games start the player
                per_game.append((time.perf_counter() - start) / result.steps)
        stop_players()
        per_game.sort()
        out[name] = (statistics.median(per_game), per_game[int(0.95 * (len(per_game) - 1))])
    base = out["in-process"][0]
    lines = ["| agent | wall per move, median | p95 | round trip (median - in-process) |",
             "|---|---|---|---|"]
    for name, (median, p95) in out.items():
        lines.append(f"| {name} | {1e6 * median:.0f} us | {1e6 * p95:.0f} us | "
                     f"{1e6 * (median - base):.0f} us |")
    frames, bare = ping_pong()
    isolated = out["isolated, no sandbox"][0] - base
    return (f"{games} beginner games, one process (the referee pinned to one core, its "
            "player inheriting it), per game the wall time of the episode over its moves.\n\n"
            + "\n".join(lines) + "\n\n" + frames + "\n\n"
            + f"What this says: a move of spx takes {1e6 * base:.0f} us in-process; the bare "
            f"round trip of two small frames between two processes takes {bare:.0f} us here, "
            f"so no process isolation can cost less than {100 * bare * 1e-6 / base:.0f}% of "
            f"such a move. Playing isolated costs {1e6 * isolated:.0f} us a move, spread over a "
            "game's moves: the bare trip and the observation's and the answer's codecs on both "
            "sides (about 25 us, measured apart) at every move, and at every game a fresh child "
            "of the player server (its fork, the agent's module read again, its end and the "
            "sweep: issue 52's fresh state per game), two Python processes taking turns on one "
            "core.")


def ping_pong() -> tuple[str, float]:
    """The bare round trip of one frame each way between two processes: the table, and the
    fastest (us)."""
    script = ROOT / "benchmarks" / "_ping_pong.py"
    rows, times = [], []
    for label, prefix in (("one core", ["taskset", "-c", "0"]), ("across cores", [])):
        done = subprocess.run([*prefix, sys.executable, str(script)], capture_output=True,
                              text=True, cwd=ROOT)
        rows.append(f"| {label} | {done.stdout.strip()} us |")
        times.append(float(done.stdout.strip()))
    return ("Frames alone (referee.wire, 5,000 round trips):\n\n| processes on | round trip |\n"
            "|---|---|\n" + "\n".join(rows)), min(times)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--moves-games", type=int, default=300,
                        help="games of the per-move table")
    args = parse(parser)
    if not have_cgroup():
        raise SystemExit(f"no writable cpuacct cgroup at {CGROUP}: this benchmark reads the "
                         "CPU of sandboxed players from one (run it as root on cgroup v1)")
    started = time.perf_counter()
    if args.tiny:  # the file agent's study alone, on one map, ten runs
        sections = [("A file agent, trusted against isolated (tiny)", file_agent_study(10))]
    else:
        sections = [("1. The 2018 study, in-process against isolated", study_2018(args.rounds)),
                    ("2. A file agent, trusted against isolated", file_agent_study(args.games)),
                    ("3. One move's round trip", per_move(args.moves_games))]
    for title, body in sections:
        print(f"### {title}\n\n{body}\n")
    if args.out:
        write_report(args.out, "bench_fair_play", "Fair play: the cost of isolation "
                     "(`benchmarks/bench_fair_play.py`)", time.perf_counter() - started, sections)
    print(f"load: {os.getloadavg()[0]:.2f} (1 min) at the end", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
