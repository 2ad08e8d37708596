"""Unique Akari puzzles, and the `generate akari` capability.

Steps: random walls; bulbs dropped in random order on cells still dark (so none sees another)
until every cell is lit; every wall numbered by the bulbs beside it; the SAT solver checks
that the solution is unique (else new walls); then numbers are taken away, in random order,
while the solution stays unique. Puzzle k depends on the size, seed and k alone.
"""

from __future__ import annotations

import random
from collections.abc import Container, Iterator
from pathlib import Path

from akari_game.board import NUMBERS, WALL, WHITE, AkariPuzzle, Cell, format_puzzle, load
from akari_game.encode import AkariSolver
from logic_agents.errors import GenerationError
from logic_agents.world.declared import Option
from logic_agents.world.spec import GenerateReport, GenerateRequest, Generator

WALL_SHARE = 0.2
ATTEMPTS = 200


def _unique(puzzle: AkariPuzzle) -> bool:
    with AkariSolver(puzzle) as sat:
        return len(sat.solutions(2)) == 1


def generate_puzzle(width: int, height: int, rng: random.Random, name: str) -> AkariPuzzle:
    for _ in range(ATTEMPTS):
        grid = [[WALL if rng.random() < WALL_SHARE else WHITE for _ in range(width)]
                for _ in range(height)]
        plain = AkariPuzzle(tuple("".join(row) for row in grid), name)
        whites = plain.whites()
        if not whites:
            continue
        rng.shuffle(whites)
        bulbs: set[Cell] = set()
        lit: set[Cell] = set()
        for cell in whites:
            if cell not in lit:
                bulbs.add(cell)
                lit |= plain.seen_from(cell)
        for r in range(height):
            for c in range(width):
                if grid[r][c] == WALL:
                    grid[r][c] = str(sum(n in bulbs for n in plain.neighbours((r, c))))
        puzzle = AkariPuzzle(tuple("".join(row) for row in grid), name)
        if not _unique(puzzle):
            continue
        numbered = [cell for cell, _ in puzzle.numbered()]
        rng.shuffle(numbered)
        for r, c in numbered:
            kept = grid[r][c]
            grid[r][c] = WALL
            trial = AkariPuzzle(tuple("".join(row) for row in grid), name)
            if not _unique(trial):
                grid[r][c] = kept
        return AkariPuzzle(tuple("".join(row) for row in grid), name)
    raise GenerationError(f"no unique {width}x{height} Akari puzzle in {ATTEMPTS} attempts")


def iter_puzzles(width: int, height: int, count: int, seed: int, *,
                 skip: Container[int] = ()) -> Iterator[AkariPuzzle]:
    for k in range(count):
        if k not in skip:
            rng = random.Random(f"akari-{width}x{height}-{seed}-{k}")
            yield generate_puzzle(width, height, rng, f"akari{width}x{height}-s{seed}-{k:04d}")


def _size(text: str) -> tuple[int, int]:
    import argparse
    import re

    m = re.fullmatch(r"([0-9]{1,3})x([0-9]{1,3})", text.strip())
    if not m or not all(2 <= int(v) <= 40 for v in m.groups()):
        raise argparse.ArgumentTypeError(f"give WxH with sides 2-40, such as 7x7, not {text[:40]!r}")
    return int(m.group(1)), int(m.group(2))


OPTIONS = (Option("size", tuple, (7, 7), "width x height", metavar="WxH", parse=_size),)


def _run(request: GenerateRequest) -> GenerateReport:
    from logic_agents.world.generated import kept_files, streamed, write_file

    width, height = request.options.get("size") or (7, 7)
    out = Path(request.output)
    paths = [out / f"akari{width}x{height}-s{request.seed}-{k:04d}.txt" for k in range(request.count)]
    kept = kept_files(paths, load, request.force, request.resume)
    written = []
    for puzzle in streamed(iter_puzzles(width, height, request.count, request.seed, skip=kept),
                           request.count - len(kept), "puzzles"):
        path = out / f"{puzzle.name}.txt"
        write_file(path, format_puzzle(puzzle))
        written.append(str(path))
    return GenerateReport(written, len(written), len(kept),
                          f"unique {width}x{height} Akari puzzles to {out}")


GENERATOR = Generator(options=OPTIONS, generate=_run,
                      help="unique Akari puzzles, one file each")

__all__ = ["GENERATOR", "generate_puzzle", "iter_puzzles", "NUMBERS"]
