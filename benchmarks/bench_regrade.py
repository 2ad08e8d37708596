"""Benchmark of a regrade (issue 67): one student's `--resume --only NAME` against the class.

A class of `--students` submissions of four kinds (an agent with an `act` of its own, a
`reset(self)` without `seed`, an agent that gives up at once, `ProbAgent` imported as
`Agent`) plays the 30 official maps, 1 run, `--jobs 2`, with the sandbox where it is
installed; then one student's file changes and `--resume --only s01` regrades it; then, the
old way, another student's fix is taken with `--resume --retry-errors`. Each command's wall
time, over `--rounds` rounds, each in a fresh folder.

    python benchmarks/bench_regrade.py --students 40 --rounds 3
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import arguments, parse, row, table, write_report  # noqa: E402

MAPS = ROOT / "logic_agents" / "maps" / "daggers" / "2018"
HEAD = "from logic_agents.games.daggers.agents import SinglePointAgent\n\n\n"
KINDS = (
    HEAD + "class Agent(SinglePointAgent):\n    def act(self, observation):\n"
           "        return super().act(observation)\n",
    HEAD + "class Agent(SinglePointAgent):\n    def reset(self):\n        pass\n",
    "class Agent:\n    def reset(self, seed=None):\n        pass\n\n"
    "    def act(self, observation):\n        return None\n",
    "from logic_agents.games.daggers.agents import ProbAgent as Agent\n",
)


def _class(folder: Path, students: int) -> None:
    for k in range(1, students + 1):
        own = folder / "students" / f"s{k:02d}"
        own.mkdir(parents=True)
        (own / "agent.py").write_text(KINDS[k % len(KINDS)])


def _timed(folder: Path, *extra: str) -> float:
    command = [sys.executable, "-m", "logic_agents", "compare", str(MAPS), "--submissions",
               "students", "--runs", "1", "--jobs", "2", "--out", "runs.csv",
               "--move-timeout", "5", "--game-timeout", "60", *extra]
    start = time.perf_counter()
    subprocess.run(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parse(parser)
    if args.tiny:  # five students (s01 and s05 are the two fixed), one round
        args.students, args.rounds = 5, 1
    if args.students < 5:
        parser.error("--students must be at least 5 (students s01 and s05 fix their files)")
    started = time.perf_counter()
    before = os.getloadavg()[0]
    header = ["round", "the class", "`--resume --only s01` (its file changed)", "share",
              "`--resume --retry-errors` (another fix)"]
    rows = []
    print(table(header, []))
    for k in range(1, args.rounds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            _class(folder, args.students)
            whole = _timed(folder)
            (folder / "students" / "s01" / "agent.py").write_text(KINDS[0])  # s01's fix
            one = _timed(folder, "--resume", "--only", "s01")
            (folder / "students" / "s05" / "agent.py").write_text(KINDS[0])  # s05's fix
            retried = _timed(folder, "--resume", "--retry-errors")
        rows.append([k, f"{whole:.2f} s", f"{one:.2f} s", f"{100 * one / whole:.1f}%",
                     f"{retried:.2f} s ({100 * retried / whole:.0f}%)"])
        print(row(rows[-1]), flush=True)
    loads = f"Load (1-minute average) before and after: {before:.1f}, {os.getloadavg()[0]:.1f}"
    print(loads)
    if args.out:
        write_report(args.out, "bench_regrade", "A regrade beside its class "
                     "(`benchmarks/bench_regrade.py`)", time.perf_counter() - started,
                     [(f"A class of {args.students}, wall s", table(header, rows) + "\n\n"
                       + loads)])


if __name__ == "__main__":
    main()
