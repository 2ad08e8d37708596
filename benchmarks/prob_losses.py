#!/usr/bin/env python3
"""Where prob loses, under the records' rules: which kind of decision made each fatal probe.

prob's guesses come from two places (logic_agents/games/daggers/prob.py):
- the exact endgame search (at most 750 placements left): its probe maximises the chance of
  winning from that position, so a game lost there was lost to the position, not the choice;
- the look-ahead policy (more placements), which is a heuristic.
For each size it plays the same boards and seeds as `benchmarks/bench_prob.py --records-only`
(the first GAMES of them) and prints: games, losses, losses at an endgame probe and at a
policy guess, the games that reached the endgame search, the wins the search expected there
(the sum of its first win chances) and the wins they got. When nearly every loss is an
endgame loss and the expected and actual wins agree, the policy's guesses are the only room
left to play better.

Usage: python benchmarks/prob_losses.py [--games 3000] [--sizes beginner,intermediate] [--jobs 2]
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _prob_games import games  # noqa: E402
from bench_prob import RECORD_RULES, record_sizes  # noqa: E402
from harness import arguments, parse, row, table, write_report  # noqa: E402

from logic_agents.games.daggers.prob import ProbAgent  # noqa: E402
from logic_agents.games.daggers.world import DaggersWorld  # noqa: E402
from logic_agents.world.core import Outcome  # noqa: E402
from logic_agents.world.runner import run_episode  # noqa: E402

FIELDS = ("games", "lost", "lost_endgame", "lost_policy", "endgame_games", "endgame_expected",
          "endgame_won")


def play(preset: str, count: int, first: int, last: int) -> dict[str, float]:
    """The tallies of games first..last-1 (boards and seeds as bench_prob's children)."""
    tally = dict.fromkeys(FIELDS, 0.0)
    for board, seed in games(preset, count, 9, RECORD_RULES[preset], first, last, "9"):
        agent = ProbAgent()
        guesses: list[tuple[str, float | None]] = []  # (who chose it, endgame win chance)

        def on_step(_obs, _action, _reward, agent=agent, guesses=guesses) -> None:
            why = agent.why
            if getattr(why, "guess", False):  # proven moves carry a plain reason
                endgame = why.startswith("endgame")
                guesses.append(("endgame" if endgame else "policy",
                                agent.win_chance if endgame else None))

        won = run_episode(DaggersWorld(board), agent, seed=seed,
                          on_step=on_step).outcome is Outcome.WON
        tally["games"] += 1
        if not won:
            tally["lost"] += 1
            if guesses:  # the fatal probe was the last guess (a proof is never wrong)
                tally[f"lost_{guesses[-1][0]}"] += 1
        chances = [chance for who, chance in guesses if who == "endgame"]
        if chances:
            tally["endgame_games"] += 1
            tally["endgame_expected"] += chances[0]
            tally["endgame_won"] += won
    return tally


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=3000, help="games per size (3000)")
    parser.add_argument("--sizes", type=record_sizes, default=("beginner", "intermediate"),
                        help="record sizes, comma-separated (beginner,intermediate)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parse(parser)
    if args.tiny:  # ten beginner games on one process
        args.games, args.sizes, args.jobs = 10, ("beginner",), 1
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    started = time.perf_counter()
    header = ["size", "games", "lost", "lost at an endgame probe", "lost at a policy guess",
              "games reaching the endgame", "wins the endgame expected", "wins there"]
    rows = []
    print(table(header, []))
    for preset in args.sizes:
        chunks = [(args.games * i // args.jobs, args.games * (i + 1) // args.jobs)
                  for i in range(args.jobs)]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(play, *zip(*[(preset, args.games, a, b) for a, b in chunks])))
        t = {k: sum(p[k] for p in parts) for k in FIELDS}
        rows.append([preset, f"{t['games']:.0f}", f"{t['lost']:.0f}",
                     f"{t['lost_endgame']:.0f}", f"{t['lost_policy']:.0f}",
                     f"{t['endgame_games']:.0f}", f"{t['endgame_expected']:.1f}",
                     f"{t['endgame_won']:.0f}"])
        print(row(rows[-1]), flush=True)
    if args.out:
        write_report(args.out, "prob_losses", "Where prob loses "
                     "(`benchmarks/prob_losses.py`)", time.perf_counter() - started,
                     [("Fatal probes by kind, the records' rules", table(header, rows))])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
