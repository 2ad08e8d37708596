"""Daggers and Gold maps: the file format, validation and the grid topology.

Concepts:
- Cell: (row, col), 0-based from the top-left.
- Token: a map cell as written: a clue "0".."8", DAGGER "d" or GOLD "g" (and "." in input,
  meaning "a safe cell; compute its clue").
- Topology: "square" (8 neighbours, clues 0-8) or "hex" (Tornado Sweeper: hexagonal cells
  stored as an N x N array; [r][c] touches [r-1][c-1], [r-1][c], [r][c-1], [r][c+1],
  [r+1][c], [r+1][c+1], so clues run 0-6).
- DaggersMap: the instance (name, tokens, lives, start hints, topology, preset, source).
- parse / format_map: text <-> DaggersMap, round-trip; load(path) reads a file.
  Every problem is a FormatError at file:line:col.
- neighbours(height, width, topology): the neighbour table of a grid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import ascii_int, read_text, strip_bom
from logic_agents.world.base import GridShape
from logic_agents.world.view import Cell

Token = str
DAGGER: Token = "d"
GOLD: Token = "g"
SAFE: Token = "."
CLUES = frozenset("012345678")
HEADER_KEYS = ("name", "lives", "start", "gold", "game", "topology", "preset")
TOPOLOGIES = ("square", "hex")
MAX_LIVES = 1_000_000
MAX_CELLS = 1_000_000  # 1000 x 1000; a larger board is refused when parsed, not when it fills memory
_STEPS = {
    "square": tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc),
    "hex": ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)),
}
_HEADER = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")


@lru_cache(maxsize=64)
def neighbours(height: int, width: int, topology: str = "square") -> dict[Cell, tuple[Cell, ...]]:
    """The neighbours of every cell of a height x width grid (8 on square, 6 on hex)."""
    steps = _STEPS[topology]
    return {
        (r, c): tuple(
            (r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < height and 0 <= c + dc < width
        )
        for r in range(height)
        for c in range(width)
    }


@dataclass(frozen=True)
class DaggersMap(GridShape):
    GRID = "tokens"

    """A Daggers and Gold board with its hidden contents. Only DaggersWorld reads `tokens`."""

    name: str
    tokens: tuple[tuple[Token, ...], ...]
    lives: int = 1
    starts: tuple[Cell, ...] = ((0, 0),)
    topology: str = "square"
    preset: str = ""
    comments: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def start(self) -> Cell:
        return self.starts[0]

    @property
    def neighbours(self) -> dict[Cell, tuple[Cell, ...]]:
        return neighbours(self.height, self.width, self.topology)

    @property
    def total_gold(self) -> int:
        return sum(row.count(GOLD) for row in self.tokens)


    @property
    def daggers(self) -> frozenset[Cell]:
        return frozenset(
            (r, c) for r, row in enumerate(self.tokens) for c, t in enumerate(row) if t == DAGGER
        )

    @cached_property  # the world reports it at every step
    def total_daggers(self) -> int:
        return sum(row.count(DAGGER) for row in self.tokens)

    def token(self, cell: Cell) -> Token:
        return self.tokens[cell[0]][cell[1]]


def _parse_cell(value: str) -> Cell | None:
    parts = value.strip().strip("()[]").split(",")
    if len(parts) == 2 and all(re.fullmatch(r"-?[0-9]{1,9}", p.strip()) for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def parse(text: str, file: str = "<string>") -> DaggersMap:
    """Parse a map; FormatError(file, line, col) on the first problem found."""
    header: dict[str, tuple[str, int]] = {}
    comments: list[str] = []
    rows: list[list[str]] = []
    where: list[list[tuple[int, int]]] = []  # (line, col) of every token
    for lineno, raw in enumerate(strip_bom(text).splitlines(), start=1):
        text_line = raw.rstrip()
        stripped = text_line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            comments.append(stripped[1:].strip())
            continue
        match = _HEADER.match(stripped)
        if match:
            if rows:
                raise FormatError("header line after the grid started", file, lineno, 1)
            key = match.group(1).lower()
            if key not in HEADER_KEYS:
                raise FormatError(
                    f"unknown header key {key!r} (known: {', '.join(HEADER_KEYS)})", file, lineno, 1
                )
            header[key] = (match.group(2), lineno)
            continue
        row, cols = [], []
        for m in re.finditer(r"\S+", text_line):
            token, col = m.group(0), m.start() + 1
            if len(token) != 1 or token not in CLUES | {DAGGER, GOLD, SAFE}:
                raise FormatError(
                    f"bad cell {token!r}: expected a clue 0-8, 'd' (dagger), 'g' (gold) or '.'",
                    file, lineno, col,
                )
            row.append(token)
            cols.append((lineno, col))
        if rows and len(row) != len(rows[0]):
            col = cols[len(rows[0])][1] if len(row) > len(rows[0]) else len(text_line) + 1
            raise FormatError(
                f"row has {len(row)} cells, the first row has {len(rows[0])}", file, lineno, col
            )
        rows.append(row)
        where.append(cols)
        if len(rows) * len(row) > MAX_CELLS:
            raise FormatError(f"map has more than {MAX_CELLS:,} cells", file, lineno, 0)
    if not rows:
        raise FormatError("no grid: a map needs at least one row of cells", file, 0, 0)

    topology = "square"
    if "topology" in header:
        value, line = header["topology"]
        if value not in TOPOLOGIES:
            raise FormatError(f"topology must be one of {', '.join(TOPOLOGIES)}, got {value!r}",
                              file, line, 1)
        topology = value
    if "game" in header and header["game"][0] != "daggers":
        raise FormatError(f"game {header['game'][0]!r} is not a daggers map", file,
                          header["game"][1], 1)
    height, width = len(rows), len(rows[0])
    table = neighbours(height, width, topology)
    tokens = [list(r) for r in rows]
    for r in range(height):
        for c in range(width):
            t = rows[r][c]
            if t == DAGGER:
                continue
            count = sum(rows[nr][nc] == DAGGER for nr, nc in table[(r, c)])
            line, col = where[r][c]
            if t == SAFE:
                tokens[r][c] = str(count)
            elif t == GOLD and count:
                raise FormatError(f"gold at [{r}][{c}] touches {count} dagger(s)", file, line, col)
            elif t in CLUES and int(t) != count:
                raise FormatError(
                    f"clue {t} at [{r}][{c}] but {count} dagger(s) around it", file, line, col
                )

    name = header.get("name", (Path(file).stem if file != "<string>" else "map", 0))[0]
    lives = 1
    if "lives" in header:
        value, line = header["lives"]
        lives = ascii_int(value, "lives", file, line, 1, low=1, high=MAX_LIVES)
    if "gold" in header:
        value, line = header["gold"]
        found = sum(row.count(GOLD) for row in tokens)
        if ascii_int(value, "gold", file, line, 1) != found:
            raise FormatError(f"header says gold {value!r}, the grid holds {found}", file, line, 1)
    starts: list[Cell] = [(0, 0)]
    if "start" in header:
        value, line = header["start"]
        starts = []
        for part in value.split():
            cell = _parse_cell(part)
            if cell is None:
                raise FormatError(f"start must be 'row,col [row,col ...]', got {value!r}",
                                  file, line, 1)
            starts.append(cell)
        if not starts:
            raise FormatError("start names no cell", file, line, 1)
    line = header.get("start", ("", 0))[1]
    for start in starts:
        if not (0 <= start[0] < height and 0 <= start[1] < width):
            raise FormatError(f"start {list(start)} is off the {height}x{width} board", file, line, 1)
        if tokens[start[0]][start[1]] == DAGGER:
            sline, scol = where[start[0]][start[1]]
            raise FormatError(f"start cell {list(start)} is a dagger", file, sline, scol)
    return DaggersMap(
        name=name,
        tokens=tuple(tuple(r) for r in tokens),
        lives=lives,
        starts=tuple(starts),
        topology=topology,
        preset=header.get("preset", ("", 0))[0],
        comments=tuple(comments),
        source=file,
    )


def format_map(instance: DaggersMap) -> str:
    """The map as text; parse(format_map(m)) == m."""
    lines = [f"# {c}".rstrip() for c in instance.comments]
    lines.append(f"name: {instance.name}")
    if instance.preset:
        lines.append(f"preset: {instance.preset}")
    if instance.topology != "square":
        lines.append(f"topology: {instance.topology}")
    if instance.lives != 1:
        lines.append(f"lives: {instance.lives}")
    if instance.starts != ((0, 0),):
        lines.append("start: " + " ".join(f"{r},{c}" for r, c in instance.starts))
    lines += [" ".join(row) for row in instance.tokens]
    return "\n".join(lines) + "\n"


def load(path: str | Path) -> DaggersMap:
    """Read and parse a map file."""
    return parse(read_text(path, "map file"), str(path))
