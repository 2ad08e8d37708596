#!/usr/bin/env python3
"""Build the peers the benchmarks run beside logic-agents, where their commands look for them.

docs/BENCHMARKS.md writes a peer's path as PEERS/...: this script builds them into the folder
`PEERS` at the root of the checkout (git ignores it), so a recorded command runs as written
from there. Each peer is built from a checkout of its own sources, which you give: this
machine's network reaches PyPI only, so the script never downloads anything.

- `--sgt DIR`: a checkout of sgt-puzzles (chrisboyle/sgtpuzzles, whose C files are under
  app/src/main/jni; a checkout of the upstream collection, with undead.c at its root, works
  too). Builds PEERS/undead_peer (benchmarks/peers/undead_peer.c around the game's own
  undead.c: its generator, solver and rating), PEERS/undead_rate (the same program, called
  by that name it rates IDs: the RATER of bench_undead_rating.py and bench_undead_givens.py),
  and links PEERS/sgt to the checkout (the `--sgt-src PEERS/sgt/app/src/main/jni` of
  bench_undead_peer.py).
- `--tdoku DIR`: a checkout of t-dillon/tdoku. Builds PEERS/tdoku/libtdoku.so
  (bench_sudoku_solve.py's command).
- `--msp DIR`: a checkout of b1f6c1c4/MineSweeperProb. Builds PSEQ as
  PEERS/msp/MineSweeperSolver/mss (bench_pseq.py's command; main.cpp needs nlohmann/json:
  `apt-get install nlohmann-json3-dev`).

    python benchmarks/build_peers.py [--sgt DIR] [--tdoku DIR] [--msp DIR] [--into PEERS]

A checkout that lacks the files a peer is built from is refused with one line naming what is
missing, and the exit status 2.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "benchmarks" / "peers" / "undead_peer.c"
SGT_FILES = ("undead.c", "nullfe.c", "misc.c", "malloc.c", "random.c")
TDOKU_FILES = ("src/solver_dpll_triad_simd.cc", "src/util.cc")
PSEQ_FILES = ("BasicDrainer.cpp", "BasicSolver.cpp", "BinomialHelper.cpp", "Drainer.cpp",
              "GameMgr.cpp", "random.cpp", "Solver.cpp", "facade.cpp", "main.cpp")


class Refused(Exception):
    """A checkout this script cannot build from (said in one line)."""


def _holding(checkout: Path, files: Sequence[str], candidates: Sequence[str], what: str) -> Path:
    """The folder of `checkout` (itself or one of `candidates` under it) that holds `files`."""
    for folder in [checkout, *(checkout / c for c in candidates)]:
        if all((folder / name).is_file() for name in files):
            return folder
    missing = [name for name in files if not (checkout / name).is_file()]
    raise Refused(f"{checkout} is not a checkout of {what}: no {', '.join(missing[:3])} in it "
                  f"(nor under {', '.join(candidates) or 'it'})")


def _run(command: list[str], cwd: Path | None = None) -> None:
    print("$", " ".join(command), file=sys.stderr, flush=True)
    done = subprocess.run(command, cwd=cwd)
    if done.returncode:
        raise Refused(f"the build failed (exit {done.returncode}): {' '.join(command[:3])} ...")


def build_undead_peer(sources: Path, into: Path) -> Path:
    """benchmarks/peers/undead_peer.c compiled against the game's C files in `sources` (the
    folder that holds undead.c); returns the binary, into/undead_peer."""
    into.mkdir(parents=True, exist_ok=True)
    binary = into / "undead_peer"
    _run(["cc", "-O2", "-w", "-I", str(sources), "-o", str(binary), str(HARNESS),
          *(str(sources / name) for name in SGT_FILES[1:]), "-lm"])
    return binary


def build_sgt(checkout: Path, peers: Path) -> list[Path]:
    sources = _holding(checkout, SGT_FILES, ["app/src/main/jni"], "sgt-puzzles")
    binary = build_undead_peer(sources, peers)
    rater = peers / "undead_rate"
    rater.unlink(missing_ok=True)
    rater.symlink_to(binary.name)  # the harness rates when called by this name
    link = peers / "sgt"
    if link.is_symlink():
        link.unlink()
    if not link.exists():
        link.symlink_to(checkout.resolve(), target_is_directory=True)
    return [binary, rater, link]


def build_tdoku(checkout: Path, peers: Path) -> list[Path]:
    source = _holding(checkout, TDOKU_FILES, [], "tdoku")
    into = peers / "tdoku"
    into.mkdir(parents=True, exist_ok=True)
    library = into / "libtdoku.so"
    _run(["g++", "-O3", "-march=native", "-DNDEBUG", "-shared", "-fPIC", "-std=c++17",
          *(str(source / name) for name in TDOKU_FILES), "-o", str(library)])
    return [library]


def build_pseq(checkout: Path, peers: Path) -> list[Path]:
    source = _holding(checkout, PSEQ_FILES, ["MineSweeperSolver"], "MineSweeperProb")
    into = peers / "msp" / "MineSweeperSolver"
    into.mkdir(parents=True, exist_ok=True)
    binary = into / "mss"
    _run(["g++", "-std=c++23", "-O3", "-march=native", "-DNDEBUG", "-flto", "-o",
          str(binary.resolve()), *PSEQ_FILES, "-lpthread"], cwd=source)
    return [binary]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgt", type=Path, metavar="DIR", help="an sgt-puzzles checkout")
    parser.add_argument("--tdoku", type=Path, metavar="DIR", help="a tdoku checkout")
    parser.add_argument("--msp", type=Path, metavar="DIR", help="a MineSweeperProb checkout")
    parser.add_argument("--into", type=Path, default=ROOT / "PEERS", metavar="PEERS",
                        help="where to build them (default: PEERS at the checkout's root, "
                        "where docs/BENCHMARKS.md's commands look)")
    args = parser.parse_args(argv)
    builders = [(args.sgt, build_sgt), (args.tdoku, build_tdoku), (args.msp, build_pseq)]
    if not any(checkout for checkout, _ in builders):
        parser.error("name at least one checkout: --sgt DIR, --tdoku DIR or --msp DIR")
    compiler = "cc" if args.sgt else "g++"
    try:
        if shutil.which(compiler) is None:
            raise Refused(f"no {compiler} on this machine: install a C and C++ compiler "
                          "(apt-get install build-essential)")
        for checkout, _ in builders:
            if checkout is not None and not checkout.is_dir():
                raise Refused(f"{checkout}: no such folder")
        for checkout, build in builders:
            if checkout is not None:
                for built in build(checkout, args.into):
                    print(os.path.relpath(built, Path.cwd()))
    except Refused as refusal:
        print(f"build_peers.py: {refusal}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
