"""Every example in the README and the docs is real: each ```console block is run and its
output compared with what the page shows.

A block is `$ command` lines, each followed by the output it prints (stdout and stderr). In the
shown output a line `...` stands for any number of lines; timings (`0.004s`, `1.13 ms`, and
numbers with three or more decimals) may differ; the checkout's path is left out. Commands run
in a scratch folder that sees the checkout's maps/ and examples/.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from .conftest import ROOT
from .warm import WarmRunner

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "games").glob("*.md"))]
TIMING = [(re.compile(r"\b\d+\.\d+ ?(ms|s)\b"), "<time>"), (re.compile(r"\b\d+\.\d{3,}\b"), "<n>")]


def blocks(page: Path) -> list[tuple[int, list[str]]]:
    out, current, start = [], None, 0
    for lineno, line in enumerate(page.read_text().splitlines(), start=1):
        if current is None and line.strip() == "```console":
            current, start = [], lineno
        elif current is not None and line.strip() == "```":
            out.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return out


def examples() -> list[tuple[str, list[str]]]:
    found = []
    for page in PAGES:
        for start, lines in blocks(page):
            found.append((f"{page.relative_to(ROOT)}:{start}", lines))
    return found


def normalise(text: str) -> list[str]:
    text = text.replace(str(ROOT) + os.sep, "")
    for pattern, token in TIMING:
        text = pattern.sub(token, text)
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def matches(shown: list[str], got: list[str], i: int = 0, j: int = 0) -> bool:
    """Whether `got[j:]` fits `shown[i:]`, where a `...` line in `shown` matches any lines.

    By position, not by slices: a CNF printed to the terminal is 70,000 lines, and a slice
    of the rest for each line a `...` might stop at copied them quadratically (8 s).
    """
    if i == len(shown):
        return j == len(got)
    if shown[i] == "...":
        return any(matches(shown, got, i + 1, k) for k in range(j, len(got) + 1))
    return j < len(got) and shown[i] == got[j] and matches(shown, got, i + 1, j + 1)


def test_a_dots_line_stands_for_any_lines_and_a_long_output_is_matched_in_linear_steps():
    assert matches(["a", "...", "c"], ["a", "b", "b", "c"])
    assert matches(["...", "a"], ["a"]) and matches(["..."], [])
    assert not matches(["a", "...", "c"], ["a", "b"]) and not matches(["a"], ["a", "b"])
    assert not matches(["...", "x", "..."], ["a"] * 3)
    long = [f"line {k}" for k in range(200_000)]
    assert matches(["line 0", "...", "line 199999"], long)


@pytest.fixture(scope="module")
def warm():
    """One warm logic-agents process for the whole page set (tests/warm.py)."""
    with WarmRunner() as run:
        yield run


@pytest.fixture
def scratch(tmp_path):
    """A fresh folder per block, so that files one page writes never meet another's."""
    folder = tmp_path
    for name in ("maps", "examples"):
        (folder / name).symlink_to(ROOT / name)
    return folder


def test_the_pages_have_examples():
    assert len(examples()) >= 8
    assert any(where.startswith("README.md") for where, _ in examples())


@pytest.mark.slow
@pytest.mark.parametrize("where,lines", examples(), ids=[w for w, _ in examples()])
def test_example(where, lines, scratch, warm):
    steps: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"{where}: output before any command"
            steps[-1][1].append(line)
    for command, shown in steps:
        argv = shlex.split(command)
        assert argv[0] == "logic-agents", f"{where}: only logic-agents commands are checked"
        done = warm(argv[1:], scratch, env={"COLUMNS": "100"})
        assert not done.timed_out, f"{where}: `{command}` ran past 10 minutes"
        got = normalise(done.stdout + done.stderr)
        assert matches(normalise("\n".join(shown)), got), (
            f"{where}: `{command}` printed:\n" + "\n".join(got))
