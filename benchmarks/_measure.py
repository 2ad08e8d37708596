"""A command measured in a cpuacct cgroup of its own: wall, CPU of its whole process tree,
peak PSS and processes (benchmarks/bench_fresh_games.py, benchmarks/bench_fair_play.py).

RUSAGE_CHILDREN misses a sandboxed player's processes: bubblewrap's init reaps them, not the
command, so their CPU never reaches the command's children's count. A cgroup counts every
process that was in it, whoever reaped it.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

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
