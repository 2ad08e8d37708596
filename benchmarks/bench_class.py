#!/usr/bin/env python3
"""Benchmark of a real class (issue 67): a class with realistic failures beside a clean one.

Two classes of `--students` submissions, made by examples/course/make_class.py: the
realistic one (every kind of submission once, then two working agents for each one that
fails: a hang, a crash on some maps, a `reset` without `seed`, a module that hangs while it
is read, ...) and a clean one (every student an agent of their own that plays). Each plays
the 30 official maps, `--runs` runs, `--jobs 2`, under the caps teach.md shows
(`--move-timeout 5 --game-timeout 60`) and `--memory-cap 256`, with `--grades`, `--html`
and `--feedback`, the sandbox where it is installed. Measured in a cpuacct cgroup of its own
(benchmarks/harness.py): wall, CPU of the whole process tree, peak PSS summed over it, peak
processes at once. Then one student of the realistic class fixes their file and `--resume
--only NAME` regrades them: its wall beside the class's.

The time-outs have a floor no referee can go under: a hang spins on a core until its cap, in
every game it plays. The script prints it (the time-out rows' own wall time over the
workers), and the same for the modules that loop while they are read (the import cap, once
each), and when the first game's row was written.

    python benchmarks/bench_class.py --students 200 --runs 2 --rounds 1
"""

from __future__ import annotations

import csv
import importlib.util
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import CGROUP, Measured, arguments, parse, provenance, write_section  # noqa: E402

MAPS = ROOT / "logic_agents" / "maps" / "daggers" / "2018"
CAPS = ["--move-timeout", "5", "--game-timeout", "60", "--memory-cap", "256"]
JOBS = 2
IMPORT_CAP_S = 60.0  # the default --import-timeout


def _make_class():  # examples/ is not a package: the generator, by its path
    spec = importlib.util.spec_from_file_location("make_class",
                                                  ROOT / "examples/course/make_class.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_class"] = module
    spec.loader.exec_module(module)
    return module


make_class = _make_class()


def clean_class(root: Path, size: int) -> None:
    own = next(k for k in make_class.KINDS if k.key == "own")
    for index in range(size):
        make_class.write_kind(root, own, f"s{index:03d}")


def study(folder: Path, runs: int, extra: list[str] = ()) -> list[str]:
    return [sys.executable, "-m", "logic_agents", "compare", str(MAPS), "--submissions",
            "students", "--agents", "spx", "--runs", str(runs), "--jobs", str(JOBS), *CAPS,
            "--out", "out/runs.csv", "--grades", "out/grades.csv", "--html", "out/class.html",
            "--feedback", "out/feedback", *extra]


def first_row_after(results: Path, done: threading.Event) -> list[float]:
    """A thread's watch on the results file: [seconds from now to its first row]."""
    started, seen = time.perf_counter(), []

    def watch() -> None:
        while not done.wait(0.2):
            try:
                with open(results, encoding="utf-8") as f:
                    if sum(1 for _ in f) > 1:  # the header and one game
                        seen.append(time.perf_counter() - started)
                        return
            except OSError:
                continue

    threading.Thread(target=watch, daemon=True).start()
    return seen


def timed_out_floor(results: Path) -> tuple[int, float]:
    """(time-out rows, their own wall seconds over the workers): what the hangs cost."""
    with open(results, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["outcome"] == "timeout"]
    return len(rows), sum(float(r["time_s"]) for r in rows) / JOBS


def one_round(work: Path, size: int, runs: int, classes: tuple[str, ...] = ("realistic", "clean")
              ) -> dict[str, object]:
    measured: dict[str, object] = {}
    for name in classes:
        folder = work / name
        if name == "realistic":
            kinds = make_class.make_class(folder / "students", size)
            failing = sum(k.expect != "plays" for k in kinds.values())
        else:
            clean_class(folder / "students", size)
            failing = 0
        done = threading.Event()
        first = first_row_after(folder / "out/runs.csv", done)
        run = Measured(study(folder, runs), folder, codes=(0, 3))
        done.set()
        spinning = sum(k.key == "import-hang" for k in kinds.values()) if failing else 0
        measured[name] = (run, failing, timed_out_floor(folder / "out/runs.csv"),
                          first[0] if first else float("nan"), spinning)
        if name == "realistic":  # the student a fix is regraded for: a hang, else a crash
            student = next((n for n, k in kinds.items() if k.key == "hang"),
                           next((n for n, k in kinds.items() if k.expect != "plays"),
                                next(iter(kinds))))
    if "realistic" not in classes:
        return measured
    # one student fixes their file (an agent of their own now): regrade them alone
    folder = work / "realistic"
    own = next(k for k in make_class.KINDS if k.key == "own")
    (folder / "students" / student).mkdir(exist_ok=True)
    (folder / "students" / student / "agent.py").write_text(own.files["agent.py"])
    measured["regrade"] = Measured(study(folder, runs, ["--resume", "--only", student,
                                                        "--force"]), folder, codes=(0, 3))
    measured["student"] = student
    return measured


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parse(parser)
    # tiny: the clean class alone, of two students, one run (the realistic one's hangs spin
    # to their caps, a minute at least)
    classes = ("clean",) if args.tiny else ("realistic", "clean")
    if args.tiny:
        args.students, args.runs, args.rounds = 2, 1, 1
    if not (CGROUP / "cgroup.procs").exists():
        raise SystemExit(f"no cpuacct cgroup at {CGROUP}: this benchmark reads CPU from one")
    started, load = time.perf_counter(), os.getloadavg()
    rounds = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as scratch:
            rounds.append(one_round(Path(scratch), args.students, args.runs, classes))
    after = os.getloadavg()
    games = 30 * (args.students + 1) * args.runs  # the students and spx, the baseline
    lines = ["| class | students failing | games | wall s, median (max) | first row after, s "
             "| CPU s | peak PSS, MiB | peak processes | time-outs | their floor, s | "
             "imports that spin to the cap | their floor, s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in classes:
        runs = [r[name] for r in rounds]
        walls = [r[0].wall for r in runs]
        cpu = statistics.median(r[0].cpu for r in runs)
        pss = max(r[0].peak_pss for r in runs) / 2**20
        procs = max(r[0].peak_processes for r in runs)
        first = statistics.median(r[3] for r in runs)
        _, failing, (outs, floor), _, spinning = runs[0]
        # a module that loops while it is read holds a core until the import cap (60 s)
        import_floor = spinning * IMPORT_CAP_S / JOBS
        lines.append(f"| {name} | {failing} of {args.students} | {games:,} | "
                     f"{statistics.median(walls):.1f} ({max(walls):.1f}) | {first:.1f} | "
                     f"{cpu:.0f} | {pss:.0f} | {procs} | {outs:,} | {floor:.0f} | "
                     f"{spinning} | {import_floor:.0f} |")
    body = (f"## A real class (`benchmarks/bench_class.py`, issue 67)\n\n"
            f"{provenance(time.perf_counter() - started)}"
            f"- Load (1-minute average) before and after: {load[0]:.1f}, {after[0]:.1f}\n"
            f"- Command of each class (CLASS: its folder of submissions): `logic-agents "
            f"compare maps/daggers/2018 --submissions CLASS --agents spx --runs {args.runs} "
            f"--jobs {JOBS} {' '.join(CAPS)} --out "
            f"out/runs.csv --grades out/grades.csv --html out/class.html --feedback "
            f"out/feedback`\n\n" + "\n".join(lines) + "\n")
    if "realistic" in classes:
        regrades = [r["regrade"].wall for r in rounds]
        walls = [r["realistic"][0].wall for r in rounds]
        ratio = max(g / c for g, c in zip(regrades, walls))
        body += (f"\nRegrading one student of the realistic class (`--resume --only "
                 f"{rounds[0]['student']}`, their file fixed): {statistics.median(regrades):.1f}"
                 f" s (max {max(regrades):.1f}), at most {100 * ratio:.1f}% of the class's "
                 "wall.\n")
    print(body)
    if args.out:
        write_section(args.out, "bench_class", body)


if __name__ == "__main__":
    main()
