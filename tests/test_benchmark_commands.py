"""Every benchmark command docs/BENCHMARKS.md records runs as written (issue 69, item 3).

For each `python benchmarks/NAME.py ...` command in BENCHMARKS.md: the script is in the
repository, it imports and answers `--help` (one ImportError once hid a whole benchmark),
and every flag the command was written with is one the script (or the sub-command it
names) still takes; and every file it reads is in the repository, or is a peer that
benchmarks/build_peers.py builds into PEERS (or another checkout, OLD, for a before and after).
A first measurement of each command on a tiny input is the rest of item 3, still open.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMAND = re.compile(r"`(python benchmarks/[A-Za-z0-9_]+\.py[^`]*)`")


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


# inputs a recorded command reads that the repository does not ship, and why (a missing file
# found here is a finding: ship it, or say here why it cannot be)
NOT_SHIPPED = {
    "top1465.txt": "Stertenbrink's 1465 hardest Sudoku: in no data folder this project was "
                   "given, so not shipped (docs/BENCHMARKS.md says where it was read from)",
}
# what benchmarks/build_peers.py builds, under PEERS
BUILT_PEERS = ("PEERS/undead_peer", "PEERS/undead_rate", "PEERS/sgt/",
               "PEERS/tdoku/libtdoku.so", "PEERS/msp/MineSweeperSolver/mss")


WRITES = ("--out", "-o", "--make-boards", "--make-uniform")
# what one recorded command writes and another reads (bench_pyperf.py's -o, then its table)
WRITTEN = {word for argvs in COMMANDS.values() for argv in argvs
           for before, word in zip(["", *argv], argv) if before in WRITES}


def _inputs(argv: list[str]) -> list[str]:
    """The words of a command that name files it reads (not what --out writes)."""
    out = []
    for before, word in zip(["", *argv], argv):
        if before in WRITES or word.startswith("-"):
            continue
        if "/" in word or re.search(r"\.(txt|tsv|json|map)$", word):
            out.append(word)
    return out


@pytest.mark.parametrize("script", sorted(COMMANDS))
def test_a_recorded_command_reads_only_what_the_repository_ships_or_builds(script):
    for argv in COMMANDS[script]:
        for word in _inputs(argv):
            if word.startswith("OLD"):
                continue  # another checkout of this repository, for a before and after
            if word.startswith("PEERS/"):
                assert word.startswith(BUILT_PEERS), f"`{script}`: {word} is built by nothing"
                continue
            assert (ROOT / word).exists() or word in NOT_SHIPPED or word in WRITTEN, \
                f"`{script} {' '.join(argv)}` reads {word}, which is not in the repository"


def test_every_peer_a_command_names_is_one_the_build_script_makes():
    text = (ROOT / "benchmarks" / "build_peers.py").read_text()
    for peer in BUILT_PEERS:
        assert peer.removeprefix("PEERS/").rstrip("/") in text


@pytest.mark.parametrize("argv,words", [
    ([], "name at least one checkout"),
    (["--sgt", "/nonexistent-checkout"], "no such folder"),
    (["--tdoku", "docs"], "is not a checkout of tdoku"),
    (["--sgt", "docs"], "is not a checkout of sgt-puzzles"),
])
def test_the_peer_build_refuses_what_it_cannot_build_in_one_line(argv, words, tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "build_peers.py"), *argv,
                           "--into", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and words in done.stderr
    assert "Traceback" not in done.stderr
    assert not any(tmp_path.iterdir())  # nothing half-built


# -- every benchmark's first measurement, on a tiny input ----------------------------------
BENCHMARKS = ROOT / "benchmarks"
# what a script's tiny run needs besides --tiny and --out (a positional input)
TINY_INPUTS = {"bench_sudoku_solve.py": ["maps/sudoku/norvig_top95.txt"]}
# scripts that are not measurements: the peers' build (its refusals are tested above)
NOT_MEASURING = {"build_peers.py"}


def _benchmark_scripts() -> list[str]:
    return sorted(p.name for p in BENCHMARKS.glob("*.py")
                  if not p.name.startswith("_") and p.name != "harness.py"
                  and p.name not in NOT_MEASURING)


def test_every_recorded_command_is_a_script_of_benchmarks():
    scripts = set(_benchmark_scripts()) | NOT_MEASURING
    for script in COMMANDS:
        assert script.startswith("benchmarks/") and Path(script).name in scripts, script


def test_scripts_holds_no_benchmark():
    """Issue 69: every benchmark lives in benchmarks/, on the one harness."""
    left = sorted(p.name for p in (ROOT / "scripts").glob("*.py")
                  if p.name.startswith("bench") or "harness" in p.name)
    assert not left, f"benchmarks left in scripts/: {left}"


@pytest.mark.slow
@pytest.mark.parametrize("script", _benchmark_scripts())
def test_a_benchmark_takes_its_first_measurement_on_a_tiny_input(script, tmp_path):
    out = tmp_path / "BENCHMARKS.md"
    path = str(BENCHMARKS / script)
    if script == "bench_pyperf.py":  # pyperf's own runner: a run's file, then its table
        runs = [[path, "--tiny", "-o", str(tmp_path / "tiny.json")],
                [path, "table", str(tmp_path / "tiny.json"), "--out", str(out)]]
    else:
        runs = [[path, *TINY_INPUTS.get(script, []), "--tiny", "--out", str(out)]]
    for argv in runs:
        done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, f"{script} {' '.join(argv[1:])}: " \
            f"{done.stderr.strip().splitlines()[-3:]}"
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
    written = out.read_text()
    # a section of its own, with the command that wrote it and at least one measured row
    assert "<!--" in written and "-->" in written, written[:400]
    rows = [line for line in written.splitlines()
            if line.startswith("|") and not set(line) <= set("|- ")]
    assert len(rows) >= 2, f"{script} wrote no measured row: {written[-800:]}"
