"""Undead difficulty as Simon Tatham's game rates it: easy, normal or tricky.

The game (sgt-puzzles, undead.c) rates a puzzle by how far one deduction reaches, applied in
passes; this module states that deduction in its own words and code.

Concepts:
- Path: a line of sight between two clues, listed once, in the game's order: clues in
  clockwise order, a sight skipped when an earlier one ends at its clue; then the paths with
  the fewest distinct monster cells first (ties keep that order).
- Path deduction: every assignment of a path's undecided cells, each over the monsters still
  possible there, that gives both end clues their counts and keeps each monster total within
  its bound (the cells decided elsewhere counted too). A cell keeps only the monsters some
  such assignment gives it. A pass runs the deduction once per path, in order, and each path
  sees what the paths before it narrowed.
- Passes: until every cell is decided or a pass changes nothing.
- Rating: `easy` when the passes decide every cell within 3 passes; `normal` when they need
  more passes, or leave fewer than 4 cells undecided and the puzzle has one solution; `tricky`
  when 4 or more cells stay undecided and the puzzle has one solution (the game then guesses:
  it tries every remaining combination). `search_space` is the number of combinations that
  guess would try; the game's Solve button freezes for minutes past about 10^9.
- GAME_SEARCH_LIMIT: the search space a puzzle for the real game may leave (a fraction of a
  second in the game's own brute force).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from math import prod

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.encode import UndeadSolver
from logic_agents.games.undead.sight import Sight, seen

LEVELS = ("easy", "normal", "tricky")
EASY_PASSES = 3  # the game's own thresholds
TRICKY_OPEN_CELLS = 4
GAME_SEARCH_LIMIT = 10**6
BIT = {"G": 1, "V": 2, "Z": 4}
ALL = 7


@dataclass(frozen=True)
class Path:
    cells: tuple[int, ...]  # distinct monster cells, in the order the sight meets them
    start_sees: tuple[dict[str, int], ...]  # per cell: how often each monster counts at start
    end_sees: tuple[dict[str, int], ...]
    start_clue: int | None
    end_clue: int | None
    start_at: int = 0  # the clues' places (for with_clues)
    end_at: int = 0
    # per cell, every monster as (bit, slot in MONSTERS, seen at start, seen at end)
    choices: tuple[tuple[tuple[int, int, int, int], ...], ...] = ()

    @cached_property  # a path is narrowed many times a rating
    def by_bits(self) -> tuple[list[Narrowed], ...]:
        """Per cell, indexed by the cell's possible monsters (a bit set): those of its
        choices, and the most they add to the start and end clues (kept per choice)."""
        return tuple(_by_bits(choice) for choice in self.choices)


Choice = tuple[tuple[int, int, int, int], ...]
Narrowed = tuple[list[tuple[int, int, int, int]], int, int]


@cache
def _by_bits(choice: Choice) -> list[Narrowed]:
    """Path.by_bits for one cell (few cells differ in what the two clues see of them)."""
    out: list[Narrowed] = []
    for bits in range(8):
        here = [o for o in choice if bits & o[0]]
        out.append((here, max([o[2] for o in here], default=0),
                    max([o[3] for o in here], default=0)))
    return out


@dataclass(frozen=True)
class Rating:
    level: str | None  # easy / normal / tricky; None: not unique or inconsistent
    passes: int
    open_cells: int  # cells the passes leave undecided
    search_space: int  # combinations a guess over those cells would try
    reason: str = ""


def paths_of(puzzle: UndeadPuzzle) -> list[Path]:
    """The puzzle's lines of sight as the game lists them (see the module docstring)."""
    return paths_on(puzzle.sights, puzzle.clues)


def paths_on(sights: Sequence[Sight], clues: Sequence[int | None]) -> list[Path]:
    """paths_of for a mirror layout's sights and a set of clues."""
    ends: set[int] = set()
    paths = []
    for sight in sights:
        if sight.clue in ends:
            continue
        ends.add(sight.exit)
        back = sights[sight.exit]
        cells = tuple(dict.fromkeys(cell for cell, _ in sight.visits))
        start_sees, end_sees = _counts(cells, sight.visits), _counts(cells, back.visits)
        choices = tuple(tuple((BIT[m], slot, start_sees[k][m], end_sees[k][m])
                              for slot, m in enumerate(MONSTERS)) for k in range(len(cells)))
        paths.append(Path(cells, start_sees, end_sees, clues[sight.clue], clues[sight.exit],
                          sight.clue, sight.exit, choices))
    return sorted(paths, key=lambda p: len(p.cells))  # stable: ties keep clue order


def with_clues(paths: list[Path], clues: Sequence[int | None]) -> list[Path]:
    """The same paths (same layout) with other clues: a redraw of the monsters."""
    return [Path(p.cells, p.start_sees, p.end_sees, clues[p.start_at], clues[p.end_at],
                 p.start_at, p.end_at, p.choices) for p in paths]


def _counts(cells: tuple[int, ...], visits: tuple[tuple[int, bool], ...]) -> tuple[dict[str, int], ...]:
    out = []
    for cell in cells:
        out.append({m: sum(seen(m, bounced) for c, bounced in visits if c == cell)
                    for m in MONSTERS})
    return tuple(out)


def _narrow(path: Path, possible: list[int], totals: tuple[int, int, int]) -> bool | None:
    """One path deduction on `possible` (bit sets per cell); True if it narrowed something,
    None if no assignment agrees (an inconsistency)."""
    # monsters decided outside the path (list.count runs in C: this is per path and pass)
    decided = [possible.count(1), possible.count(2), possible.count(4)]
    for cell in path.cells:
        bits = possible[cell]
        if bits in (1, 2, 4):
            decided[bits.bit_length() - 1] -= 1
    room_g, room_v, room_z = (t - d for t, d in zip(totals, decided))
    n = len(path.cells)
    # per cell, its possible monsters as (bit, slot, seen at start, seen at end), and the
    # most each remaining stretch of cells can still add to either clue, for pruning
    narrowed = [table[possible[c]] for table, c in zip(path.by_bits, path.cells)]
    options = [here for here, _, _ in narrowed]
    most_start = [0] * (n + 1)
    most_end = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        _, start_most, end_most = narrowed[k]
        most_start[k] = most_start[k + 1] + start_most
        most_end[k] = most_end[k + 1] + end_most
    want_start = -1 if path.start_clue is None else path.start_clue
    want_end = -1 if path.end_clue is None else path.end_clue
    memo: dict[tuple[int, int, int, int, int, int], int | None] = {}

    def go(k: int, start: int, end: int, g: int, v: int, z: int) -> int | None:
        """The monsters cells k.. take in the assignments that complete this prefix, packed
        3 bits a cell from cell k up (0 at the end of the path); None if none does. Memoized
        on the prefix's counts: many prefixes meet in one state, so the enumeration of
        every assignment (what the game does) becomes a walk over the states."""
        left = n - k  # room past the cells left cannot bind: such states are one
        key = (k, start, end, g if g < left else left, v if v < left else left,
               z if z < left else left)
        if key in memo:
            return memo[key]
        reached: int | None = None
        if ((want_start < 0 or start <= want_start <= start + most_start[k]) and
                (want_end < 0 or end <= want_end <= end + most_end[k])):
            if k == n:
                reached = 0
            else:
                for bit, slot, sees_start, sees_end in options[k]:
                    if (g, v, z)[slot] <= 0:
                        continue
                    rest = go(k + 1, start + sees_start, end + sees_end, g - (slot == 0),
                              v - (slot == 1), z - (slot == 2))
                    if rest is not None:
                        reached = (reached or 0) | bit | rest << 3
        memo[key] = reached
        return reached

    packed = go(0, 0, 0, room_g, room_v, room_z)
    if packed is None:  # an empty path narrows nothing (deduce leaves such paths out)
        return None if n else False
    found = [packed >> 3 * j & 7 for j in range(n)]
    changed = False
    for j, cell in enumerate(path.cells):
        if possible[cell] & ~found[j]:
            possible[cell] &= found[j]
            changed = True
    return changed


def deduce(puzzle: UndeadPuzzle, max_passes: int | None = None) -> tuple[list[int], int, bool]:
    """The passes: (possible monsters per cell as bit sets, passes run, consistent).
    `max_passes` stops them early (a rating above it is all the caller needs)."""
    return deduce_paths(paths_of(puzzle), puzzle.width * puzzle.height, puzzle.monster_cells,
                        puzzle.givens, puzzle.counts, max_passes)


def deduce_paths(paths: list[Path], size: int, monster_cells: Sequence[int],
                 givens: Mapping[int, str], counts: tuple[int, int, int],
                 max_passes: int | None = None, *, solvable: bool = False,
                 ) -> tuple[list[int], int, bool]:
    """deduce on paths already listed (paths_of; rated.py lists them once per layout).

    `solvable`: the caller knows a solution (a drawn one). A path whose cells are all decided
    then holds its solution's monsters and can narrow nothing, so it is skipped; on any other
    puzzle such a path may still show a contradiction, and is run."""
    possible = [0] * size
    for cell in monster_cells:
        given = givens.get(cell)
        possible[cell] = BIT[given] if given else ALL
    paths = [p for p in paths if p.cells]
    passes = 0
    while True:
        passes += 1
        changed = False
        for path in paths:
            if solvable and all(possible[c] in (1, 2, 4) for c in path.cells):
                continue
            narrowed = _narrow(path, possible, counts)
            if narrowed is None:
                return possible, passes, False
            changed |= narrowed
        if (all(possible[c] in (1, 2, 4) for c in monster_cells) or not changed
                or passes == max_passes):
            return possible, passes, True


def rate(puzzle: UndeadPuzzle, unique: bool | None = None) -> Rating:
    """The game's rating of a puzzle. `unique` (whether it has exactly one solution) is asked
    of the SAT solver when the passes leave cells open and the caller did not say."""
    possible, passes, consistent = deduce(puzzle)
    if not consistent:
        return Rating(None, passes, 0, 0, "the deduction meets a contradiction")
    open_cells = [c for c in puzzle.monster_cells if possible[c] not in (1, 2, 4)]
    space = prod(bin(possible[c]).count("1") for c in open_cells)
    if not open_cells:
        return Rating("easy" if passes <= EASY_PASSES else "normal", passes, 0, 1)
    if unique is None:
        solver = UndeadSolver(puzzle)
        try:
            unique = solver.count_solutions(2) == 1
        finally:
            solver.close()
    if not unique:
        return Rating(None, passes, len(open_cells), space, "more than one solution")
    level = "normal" if len(open_cells) < TRICKY_OPEN_CELLS else "tricky"
    return Rating(level, passes, len(open_cells), space)
