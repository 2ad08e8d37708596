"""Benchmark of the test suite (issue 55, goal 6): what `make test` costs, beside a revision.

Runs `make test` itself (pytest-xdist, one worker per core, each file on one worker; with
.ci/run's settings, CI=1 among them, so Hypothesis draws the same examples every run) in a
cpuacct cgroup of its own, so its CPU is that of every process it started: the workers, the
commands the tests run, the sandboxed players bubblewrap reaps. With `--against REV`, a
worktree of REV is measured too, round after round in turn. Each tree runs in its own .venv,
made first by its own Makefile and not measured: a player process imports the package of
the interpreter that started it, so two trees cannot share one environment.

Prints, and with `--out` writes to its section of docs/BENCHMARKS.md: per tree, the tests
passed, the wall and CPU seconds of each round, and the test files that took longest (their
tests' summed wall time, from pytest's JUnit XML, in the last round).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
TINY_TESTS = "tests/test_failure_words.py"

from harness import Measured, arguments, checkout, have_cgroup, parse, write_report  # noqa: E402

# .ci/run's settings: a missing browser or sandbox fails rather than skips (`make test` sets
# the plug-in's and the kernel's itself)
CI_ENV = {"CI": "1", "CI_REQUIRE_BROWSER": "1", "CI_REQUIRE_SANDBOX": "1",
          "NO_MKDOCS_2_WARNING": "1"}


def _environment(**more: str) -> dict[str, str]:
    """This environment without an activated virtual environment (each tree runs its own),
    with .ci/run's settings."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    active = os.environ.get("VIRTUAL_ENV")
    if active:
        env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                      if not p.startswith(active))
    return {**env, **CI_ENV, **more}


def set_up(tree: Path) -> None:
    """The tree's own .venv with the test extras, as `make test` makes it (not measured)."""
    subprocess.run(["make", "-C", str(tree), ".venv/.installed-dev"], env=_environment(),
                   check=True, stdout=subprocess.DEVNULL)


def run_suite(tree: Path, junit: Path, pytest_args: str) -> tuple[Measured, str]:
    """One `make test` in `tree`; its measure and pytest's counts."""
    addopts = f"-p no:cacheprovider --junitxml={junit} {pytest_args}".strip()
    try:
        measured = Measured(["make", "-C", str(tree), "test"], tree,
                            _environment(PYTEST_ADDOPTS=addopts))
    except SystemExit as failed:  # make says only that it failed: name the tests that did
        named = failed_tests(junit)
        raise SystemExit(f"{failed}\nin {tree}, failed: "
                         f"{', '.join(named) or 'no test named (see the make output)'}") from None
    return measured, summary_line(junit)


def failed_tests(junit: Path) -> list[str]:
    """The tests of pytest's JUnit file that failed or erred (none when it is missing)."""
    if not junit.exists():
        return []
    return [f"{case.get('classname', '')}::{case.get('name', '')}"
            for case in ElementTree.parse(junit).getroot().iter("testcase")
            if case.find("failure") is not None or case.find("error") is not None]


def summary_line(junit: Path) -> str:
    suite = ElementTree.parse(junit).getroot()
    suite = suite.find("testsuite") if suite.tag == "testsuites" else suite
    assert suite is not None
    tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in (
        "tests", "failures", "errors", "skipped"))
    return (f"{tests - failures - errors - skipped} passed, {failures + errors} failed, "
            f"{skipped} skipped")


def file_times(junit: Path) -> Counter[str]:
    """Each test file's summed test time (wall seconds, setup and teardown included)."""
    times: Counter[str] = Counter()
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        parts = case.get("classname", "").split(".")  # tests.games.x.test_y[.TestClass]
        upto = next((k for k, part in enumerate(parts) if part.startswith("test_")),
                    len(parts) - 1)
        times["/".join(parts[:upto + 1]) + ".py"] += float(case.get("time", 0))
    return times


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--against", metavar="REV", help="a git revision to measure beside")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree, in turn")
    parser.add_argument("--top", type=int, default=12, help="how many test files to list")
    parser.add_argument("--pytest-args", default="", metavar="ARGS",
                        help="more pytest options for both trees (PYTEST_ADDOPTS), such as "
                        "'-k fuzz'; default none: the whole suite, as `make test` runs it")
    args = parse(parser)
    if args.tiny:  # `make test` on one small test file, once
        args.pytest_args, args.rounds, args.top = TINY_TESTS, 1, 3
    if not have_cgroup():
        parser.error("needs a writable cpuacct cgroup (/sys/fs/cgroup/cpuacct): run as root")
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    # the fair-play tests' cheats, unsandboxed, append rows to any file an ancestor's command
    # line names after --out, and this process is their ancestor: the file is put back
    kept = args.out.read_bytes() if args.out is not None and args.out.exists() else None
    with checkout(args.against) as other, tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT, **({f"{args.against}": other} if other else {})}
        runs: dict[str, list[Measured]] = {name: [] for name in trees}
        lines: dict[str, str] = {}
        files: dict[str, Counter[str]] = {}
        for tree in trees.values():
            set_up(tree)
        for k in range(args.rounds):
            for name, tree in trees.items():
                junit = Path(tmp) / f"{len(runs[name])}-{name.replace(' ', '-')}.xml"
                measured, lines[name] = run_suite(tree, junit, args.pytest_args)
                runs[name].append(measured)
                files[name] = file_times(junit)
                print(f"round {k + 1}, {name}: {lines[name]}; wall {measured.wall:.0f} s, "
                      f"CPU {measured.cpu:.0f} s", file=sys.stderr)
    rows = ["| tree | tests | wall s: median (max) | CPU s: median (max) |", "|---|---|---|---|"]
    for name, measured in runs.items():
        walls, cpus = [m.wall for m in measured], [m.cpu for m in measured]
        rows.append(f"| {name} | {lines[name]} | {statistics.median(walls):.0f} "
                    f"({max(walls):.0f}) | {statistics.median(cpus):.0f} ({max(cpus):.0f}) |")
    names = list(runs)
    ranked = sorted(files[names[0]], key=lambda f: -files[names[0]][f])[:args.top]
    heaviest = ["| test file | " + " | ".join(f"{n}: s" for n in names) + " |",
                "|---|" + "---|" * len(names)]
    heaviest += [f"| {f} | " + " | ".join(f"{files[n].get(f, 0):.1f}" for n in names) + " |"
                 for f in ranked]
    load = f"Load (1-minute average) before and after: {load_before:.1f}, {os.getloadavg()[0]:.1f}"
    table = "\n".join(rows) + "\n\n" + load
    print(table + "\n\n" + "\n".join(heaviest))
    if args.out:
        if kept is not None and args.out.read_bytes() != kept:
            print(f"{args.out}: a test wrote into it while the suite ran (a fair-play cheat "
                  "finds it on this command line); put back as it was", file=sys.stderr)
            args.out.write_bytes(kept)
        write_report(args.out, "bench_suite", "The suite's cost (`benchmarks/bench_suite.py`)",
                     time.perf_counter() - started,
                     [("`make test`'s run, whole", table),
                      ("The heaviest test files (summed test wall time, last round)",
                       "\n".join(heaviest))])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
