"""Every benchmark command docs/BENCHMARKS.md records runs as written (issue 69, item 3).

For each `python scripts/NAME.py ...` command in BENCHMARKS.md: the script is in the
repository, it imports and answers `--help` (one ImportError once hid a whole benchmark),
and every flag the command was written with is one the script (or the sub-command it
names) still takes. That the files a command names are in the repository, and its first
measurement on a tiny input, are the rest of item 3, still open.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMAND = re.compile(r"`(python scripts/[A-Za-z0-9_]+\.py[^`]*)`")


def _commands() -> dict[str, list[list[str]]]:
    """Script -> the argument lists it was recorded with."""
    found: dict[str, list[list[str]]] = {}
    for match in COMMAND.finditer((ROOT / "docs" / "BENCHMARKS.md").read_text()):
        words = match.group(1).split()
        found.setdefault(words[1], []).append(words[2:])
    return found


COMMANDS = _commands()


def test_benchmarks_md_records_its_commands():
    assert len(COMMANDS) > 20


def _help(script: str, leading: list[str]) -> str:
    """What `script LEADING... --help` prints (a sub-command's own help, where it has one)."""
    done = subprocess.run([sys.executable, str(ROOT / script), *leading, "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{script} {' '.join(leading)} --help: " \
        f"{done.stderr.strip().splitlines()[-1:]}"
    return done.stdout


@pytest.mark.parametrize("script", sorted(COMMANDS))
def test_a_recorded_command_parses_as_written(script):
    assert (ROOT / script).is_file(), f"{script} is named in BENCHMARKS.md but is not in " \
        "the repository"
    helps = {(): _help(script, [])}
    for argv in COMMANDS[script]:
        # a command that starts with words, not flags, may name a sub-command: its own help
        leading = tuple(argv[:1]) if argv and not argv[0].startswith("-") else ()
        if leading not in helps:
            helps[leading] = _help(script, list(leading))
        taken = set(re.findall(r"--[a-z][a-z0-9-]*", helps[leading]))
        for word in argv:
            flag = word.split("=")[0]
            if flag.startswith("--"):
                assert flag in taken, f"`{script} {' '.join(argv)}`: {flag} is no flag of it"
