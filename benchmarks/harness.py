"""The one harness of the benchmarks: clocks, rounds, spreads, the load, tables and reports.

Every script in benchmarks/ measures with these, so that a figure means the same in each:
- clocks: cpu() (user + system of this process and the children it has waited for),
  children_cpu(), timed(fn) (the CPU a call spent, and its value), whole_process(argv) (a
  fresh `python -m logic_agents ARGV`, its CPU from RUSAGE_CHILDREN); Measured, a command run
  in a cpuacct cgroup of its own (wall, CPU of its whole process tree, peak PSS, processes):
  RUSAGE_CHILDREN misses a sandboxed player's processes, which bubblewrap's init reaps, not
  the command, so their CPU never reaches the command's children's count; a cgroup counts
  every process that was in it, whoever reaped it;
- rounds: interleaved(n, ours, peer), ours and the peer's measurement in turn, n times (the
  peer in the same run, on the same inputs; no peer: ours alone);
- spreads: Spread (median, p95 and max of a sample: a SAT solver's time on a hard instance
  is partly luck, so the tail is reported beside the median), p95 (nearest rank);
- load(): the machine's load averages, the column every table that compares runs states;
- tables: table(header, rows), a Markdown table;
- reports: provenance (the command as anyone's command line reads it, the machine, the date),
  write_section / write_report (one script's section of docs/BENCHMARKS.md between markers,
  so that each script owns its section and no other);
- revisions: checkout(rev), a detached worktree of another git revision for the tree before
  to run beside this one, in the same run;
- arguments(doc): the parser every script starts from, with --out and --tiny (the first
  measurement on a tiny input, written nowhere but --out: tests/test_benchmark_commands.py
  runs every script so, and a script whose peer is not given measures its own side alone);
  parse(parser): its arguments, refusing a tiny run's figures a place in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from logic_agents.study.summary import wilson  # noqa: F401  (re-exported for the bench scripts)

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent


# -- the parser every script starts from ---------------------------------------------------
def arguments(doc: str | None) -> argparse.ArgumentParser:
    """A script's parser: its docstring's first paragraph as the description, --out and
    --tiny (each script says what its tiny input is)."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the section into this Markdown file")
    parser.add_argument("--tiny", action="store_true",
                        help="the first measurement only, on a tiny input (a smoke run: what "
                             "tests/test_benchmark_commands.py runs); a peer not given is "
                             "left out")
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None
          ) -> argparse.Namespace:
    """The script's arguments; a tiny run's figures are refused a place in BENCHMARKS.md."""
    args = parser.parse_args(argv)
    out = getattr(args, "out", None)
    if getattr(args, "tiny", False) and out is not None and \
            Path(out).resolve() == (ROOT / "docs" / "BENCHMARKS.md").resolve():
        parser.error("--tiny measures a tiny input, not figures for docs/BENCHMARKS.md: give "
                     "another --out")
    return args


# -- clocks --------------------------------------------------------------------------------
def cpu() -> float:
    """CPU seconds (user + system) of this process and every child it has waited for."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + kids.ru_utime + kids.ru_stime


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """(CPU seconds the call spent, in this process and the children it waited for, its value)."""
    started = cpu()
    out = fn()
    return cpu() - started, out


def whole_process(argv: Sequence[str], cap: float | None = None, cwd: Path | None = None
                  ) -> float | None:
    """The CPU seconds of `python -m logic_agents ARGV` as a fresh process (it must succeed),
    from RUSAGE_CHILDREN; None when it ran past `cap` seconds (it is then stopped)."""
    before = children_cpu()
    proc = subprocess.Popen([sys.executable, "-m", "logic_agents", *argv], cwd=cwd or ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None
    if proc.returncode:
        raise SystemExit(f"logic-agents {' '.join(argv[:6])} ... failed "
                         f"({proc.returncode}): {err.strip()[-800:]}")
    return children_cpu() - before


def interleaved(count: int, ours: Callable[[], float], peer: Callable[[], float] | None
                ) -> tuple[list[float], list[float]]:
    """Our measurement and the peer's, taken in turn `count` times: what disturbs one round
    (the load, the CPU's clock) falls on both sides alike. No peer: its list stays empty."""
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(count):
        mine.append(ours())
        if peer is not None:
            theirs.append(peer())
    return mine, theirs


# -- spreads -------------------------------------------------------------------------------
def p95(values: Sequence[float]) -> float:
    """The 95th percentile (nearest rank): the tail the benchmarks report beside the median."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Spread:
    """A sample's median, 95th percentile (nearest rank) and maximum."""

    median: float
    p95: float
    max: float
    count: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("a spread of no values")
        return cls(statistics.median(values), p95(values), max(values), len(values))

    def shown(self, scale: float = 1.0, digits: int = 1, tail: bool = True) -> str:
        """"median / p95 / max" (or "median / max" without the tail), each times `scale`."""
        parts = [self.median, self.p95, self.max] if tail else [self.median, self.max]
        return " / ".join(f"{scale * x:.{digits}f}" for x in parts)


# -- tables --------------------------------------------------------------------------------
def row(cells: Sequence[object]) -> str:
    """One row of a Markdown table."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table: the header, its rule, then the rows."""
    return "\n".join([row(header), row(["---"] * len(header)), *(row(r) for r in rows)])


# -- the load and the reports --------------------------------------------------------------
HEADER = (
    "# Benchmarks\n\n"
    "Numbers below are printed by the scripts in `benchmarks/`; every comparison is made in one "
    "run, on the same inputs and seeds. Each section names the command that wrote it.\n"
)


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes), as a table's load column shows them."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def portable(argument: str) -> str:
    """An argument as anyone's command line reads it: a path in this checkout relative to
    it, a peer's build as PEERS/... (the folder the peers were built in, as
    benchmarks/bench_pseq.py says), another checkout's interpreter as OLD/.venv/..., anything
    else as typed."""
    path = Path(argument)
    if not path.is_absolute():
        return argument
    if path.resolve().is_relative_to(ROOT):
        return path.resolve().relative_to(ROOT).as_posix()
    if "peers" in path.parts:
        return "/".join(["PEERS", *path.parts[path.parts.index("peers") + 1:]])
    if ".venv" in path.parts:  # another checkout's interpreter (--old): OLD, as the page says
        return "/".join(["OLD", *path.parts[path.parts.index(".venv"):]])
    return argument


def provenance(elapsed_s: float) -> str:
    command = "python " + " ".join(portable(a) for a in [str(Path(sys.argv[0]).resolve()),
                                                         *sys.argv[1:]])
    machine = (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}")
    return (f"- Command: `{command}`\n- Machine: {machine}\n"
            f"- Date: {datetime.date.today().isoformat()}; wall time {elapsed_s:.0f} s\n")


def write_section(path: Path, key: str, body: str) -> None:
    """Replace (or append) the section between <!-- key:begin --> and <!-- key:end -->."""
    begin, end = f"<!-- {key}:begin -->", f"<!-- {key}:end -->"
    text = path.read_text() if path.exists() else HEADER
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


def write_report(path: Path, key: str, heading: str, elapsed_s: float,
                 sections: list[tuple[str, str]]) -> None:
    """Write a script's section: heading, provenance, then one `###` part per (title, body)."""
    text = [f"## {heading}", "", provenance(elapsed_s)]
    for title, body in sections:
        text += [f"### {title}", "", body, ""]
    write_section(path, key, "\n".join(text))
    print(f"wrote {path}", file=sys.stderr)


@contextlib.contextmanager
def checkout(rev: str | None) -> Iterator[Path | None]:
    """A detached worktree of `rev` (None: nothing), removed afterwards."""
    if rev is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where),
                        rev], check=True)
        try:
            yield where
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(where)], check=True)


# -- a command in a cgroup of its own -----------------------------------------------------
CGROUP = Path("/sys/fs/cgroup/cpuacct")


def have_cgroup() -> bool:
    return (CGROUP / "cpuacct.usage").exists() and os.access(CGROUP, os.W_OK)


class Measured:
    """One command run in a cpuacct cgroup of its own: wall, CPU, peak PSS and processes."""

    made = 0

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None = None,
                 codes: tuple[int, ...] = (0,)):
        Measured.made += 1
        self.group = CGROUP / f"la-bench-{os.getpid()}-{Measured.made}"
        self.group.mkdir()
        self.peak_pss = 0
        self.peak_processes = 0
        start = time.perf_counter()
        done = threading.Event()
        sampler = threading.Thread(target=self._sample, args=(done,), daemon=True)
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=self._join)
        sampler.start()
        _, err = proc.communicate()
        self.wall = time.perf_counter() - start
        done.set()
        sampler.join()
        if proc.returncode not in codes:  # a class's study ends 3: some students failed
            raise SystemExit(f"{' '.join(argv[:6])} ... failed ({proc.returncode}): {err[-800:]}")
        self.cpu = int((self.group / "cpuacct.usage").read_text()) / 1e9
        for _ in range(50):  # the study's processes are gone; the group goes with them
            try:
                self.group.rmdir()
                break
            except OSError:
                time.sleep(0.1)

    def _join(self) -> None:
        (self.group / "cgroup.procs").write_text("0")

    def _sample(self, done: threading.Event) -> None:
        while not done.wait(0.1):
            try:
                pids = [int(p) for p in (self.group / "cgroup.procs").read_text().split()]
            except OSError:
                continue
            self.peak_processes = max(self.peak_processes, len(pids))
            self.peak_pss = max(self.peak_pss, sum(_pss(pid) for pid in pids))


def _pss(pid: int) -> int:
    """A process's proportional set size in bytes (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0
