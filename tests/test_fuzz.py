"""Fuzz every input kind through the real command line: never a traceback.

Hypothesis takes a valid input of each kind from maps/ (or made by the program itself: a CNF,
a trace, results files), mutates its bytes (flips, truncation, deleted and duplicated lines,
a byte-order mark, CRLF, non-ASCII digits, huge numbers) and runs the same `main()` that the
console script runs, in-process. Every run must exit 0, or exit 2 with exactly one line on
stderr; any other exception fails the test.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logic_agents.cli import main

from .conftest import ROOT

MAPS = ROOT / "maps"
# over every kind; CI must see at least 2,000 (issue 16). The cases are derandomised, so CI is
# repeatable; FUZZ_RANDOM=1 explores new ones (and FUZZ_CASES sets how many)
CASES = int(os.environ.get("FUZZ_CASES", 3000))
RANDOM = os.environ.get("FUZZ_RANDOM") == "1"


def _lines(path: Path, count: int) -> bytes:
    return b"".join(path.read_bytes().splitlines(keepends=True)[:count])


def _made(workdir: Path) -> dict[str, bytes]:
    """Inputs the program writes itself: a CNF, a trace, results and their study record."""
    cnf, trace = workdir / "q.cnf", workdir / "t.jsonl"
    csv, jsonl = workdir / "r.csv", workdir / "r.jsonl"
    quiet = contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO())
    with quiet[0], quiet[1]:
        assert main(["cnf", "EASY1", "-o", str(cnf)]) == 0
        assert main(["play", "EASY1", "--agent", "spx", "--quiet", "--trace", str(trace)]) == 0
        for out in (csv, jsonl):
            assert main(["compare", "EASY1", "--agents", "spx", "--runs", "2", "--jobs", "1",
                         "--out", str(out)]) == 0
    # wall times and this checkout's path vary from run to run: fixed, so the derandomised
    # cases are the same in every run and every clone
    timed = re.compile(rb'("time_s": ?)[0-9.e-]+')
    trace_bytes = timed.sub(rb"\g<1>0.0005", trace.read_bytes()).replace(
        str(ROOT).encode() + b"/", b"")
    csv_bytes = re.sub(rb"(?m)^((?:[^,\n]*,){10})[0-9.e-]+,", rb"\g<1>0.0005,", csv.read_bytes())
    return {"cnf": cnf.read_bytes(), "trace": trace_bytes, "csv": csv_bytes,
            "jsonl": timed.sub(rb"\g<1>0.0005", jsonl.read_bytes()),
            "study": Path(f"{csv}.study.json").read_bytes()}


# kind -> (file name, verb and flags before the file, flags after it)
KINDS = {
    "daggers": ("m.txt", ["play", "--game", "daggers", "--quiet"], []),
    "sudoku-lines": ("s.txt", ["solve", "--game", "sudoku"], []),
    "sudoku-grid": ("g.txt", ["solve", "--game", "sudoku"], []),
    "undead-tsv": ("u.tsv", ["solve", "--game", "undead"], []),
    "undead-picture": ("p.txt", ["solve", "--game", "undead"], []),
    "maze": ("z.txt", ["solve", "--game", "mazes"], []),
    "dimacs": ("q.cnf", ["inspect", "--solve", "--limit", "3"], []),
    "trace": ("t.jsonl", ["replay"], []),
    "results-csv": ("r.csv", ["compare", "EASY1", "--agents", "spx", "--runs", "2", "--jobs",
                              "1", "--resume", "--out"], []),
    "results-jsonl": ("r.jsonl", ["compare", "EASY1", "--agents", "spx", "--runs", "2",
                                  "--jobs", "1", "--resume", "--out"], []),
}


@pytest.fixture(scope="module")
def seeds(tmp_path_factory) -> dict[str, bytes]:
    made = _made(tmp_path_factory.mktemp("made"))
    return {
        "daggers": (MAPS / "daggers/2018/EASY1.txt").read_bytes(),
        "sudoku-lines": _lines(MAPS / "sudoku/norvig_top95.txt", 3),
        "sudoku-grid": b"1 . | . 4\n. 4 | 1 .\n--+--\n. 1 | 4 .\n4 . | . 1\n",
        "undead-tsv": _lines(MAPS / "undead/4x4dt.tsv", 3),
        "undead-picture": (MAPS / "undead/report-4x4.txt").read_bytes(),
        "maze": (MAPS / "mazes/eom-6x6-02.txt").read_bytes(),
        "dimacs": made["cnf"],
        "trace": made["trace"],
        "results-csv": made["csv"],
        "results-jsonl": made["jsonl"],
        "study": made["study"],
    }


STRANGE_DIGITS = ["²", "٣", "３", "߂"]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    for op in draw(st.lists(st.sampled_from(["flip", "truncate", "delete", "duplicate", "bom",
                                             "crlf", "digit", "huge"]), min_size=1, max_size=3)):
        if not data:
            break
        if op == "flip":
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        elif op == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif op in ("delete", "duplicate"):
            lines = data.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [] if op == "delete" else [lines[k], lines[k]]
            data = b"".join(lines)
        elif op == "bom":
            data = b"\xef\xbb\xbf" + data
        elif op == "crlf":
            data = data.replace(b"\n", b"\r\n")
        else:
            digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
            if not digits:
                continue
            at = draw(st.sampled_from(digits))
            new = (draw(st.sampled_from(STRANGE_DIGITS)).encode() if op == "digit"
                   else b"9" * draw(st.sampled_from([13, 400, 5000])))
            data = data[:at] + new + data[at + 1:]
    return data


def run_main(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own usage errors
            code = e.code
    return code, err.getvalue()


@pytest.mark.slow
def test_no_input_gives_a_traceback(seeds):
    seen: Counter[str] = Counter()
    failures: list[str] = []

    @settings(max_examples=CASES, database=None, deadline=None, derandomize=not RANDOM,
              suppress_health_check=list(HealthCheck))
    @given(kind=st.sampled_from(sorted(KINDS)), data=st.data())
    def one(kind: str, data) -> None:
        name, before, after = KINDS[kind]
        text = data.draw(mutated(seeds[kind]), label="input")
        workdir = Path(tempfile.mkdtemp(prefix="fuzz-"))
        try:
            path = workdir / name
            path.write_bytes(text)
            if kind.startswith("results"):  # the study record of the same study
                Path(f"{path}.study.json").write_bytes(seeds["study"])
            code, err = run_main([*before, str(path), *after])
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        seen[kind] += 1
        lines = err.splitlines()
        if not (code == 0 or (code == 2 and len(lines) == 1 and "error" in lines[0])):
            failures.append(f"{kind}: exit {code}, stderr {err!r}, input {text[:200]!r}")
        assert not failures, failures[-1]

    one()
    print(f"fuzzed {sum(seen.values())} inputs: {dict(sorted(seen.items()))}")
    assert sum(seen.values()) >= min(2000, CASES) and set(seen) == set(KINDS)
