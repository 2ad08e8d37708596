"""Shared helpers of the benchmark scripts: provenance lines and writing one section of
docs/BENCHMARKS.md between markers, so that each script owns its section and no other."""

from __future__ import annotations

import datetime
import math
import os
import platform
import sys
from pathlib import Path

from logic_agents.study.summary import wilson  # noqa: F401  (re-exported for the bench scripts)

HEADER = (
    "# Benchmarks\n\n"
    "Numbers below are printed by the scripts in `benchmarks/`; every comparison is made in one "
    "run, on the same inputs and seeds. Each section names the command that wrote it.\n"
)


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank): the tail the benchmarks report beside the median."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes), as a table's load column shows them."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


ROOT = Path(__file__).resolve().parent.parent


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
