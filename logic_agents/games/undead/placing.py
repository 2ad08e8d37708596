"""Monsters placed the real game's way: line of sight by line of sight, each one's pair of
clues picking out its monsters.

Simon Tatham's Undead (undead.c, `new_game_desc` and `get_unique`) does not draw monsters at
random and then reject puzzles its deduction cannot solve. It walks the lines of sight in the
order its deduction meets them (fewest monster cells first) and, on each, gives the cells
still undecided monsters whose pair of clues (start, end) no other assignment of those cells
gives, with the cells decided by earlier sights held. A puzzle so placed is decided by the
game's first pass in that order: each sight's clues leave one assignment, whatever else is
narrowed. Only the last `filling` cells get random monsters, which is how the game reaches
its harder levels.

Concepts:
- place_sight(path, possible, rng): one sight, the game's get_unique. The game lists every
  assignment (3^n for n undecided cells); here a walk over the cells counts, for each pair
  of clue values, the assignments that give it (capped at 2), picks one pair counted once,
  uniformly as the game does, and walks back to its one assignment.
- place(grid, paths, rng, filling, reverse): sights placed in the game's order until at most
  `filling` cells are undecided (`reverse`: last first, so that a pass of the deduction in
  the game's order meets a sight before the sights that decide it, and a puzzle takes more
  passes: the way to a `normal` one that every pass decides).
- placed_solution(...): monsters on every empty cell of a mirror layout: placed, then random
  monsters on the cells left undecided.
- game_filling(level, width, height, monster_cells): the game's own `filling`: easy 2;
  normal min(W+H, cells/2); tricky max(W+H, cells/2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from logic_agents.games.undead.board import EMPTY, MONSTERS
from logic_agents.games.undead.difficulty import ALL, Path

DECIDED = {1: MONSTERS[0], 2: MONSTERS[1], 4: MONSTERS[2]}  # difficulty's one-monster bit sets


def game_filling(level: str | None, width: int, height: int, monster_cells: int) -> int:
    """How many cells the game leaves to random monsters at a level (None: as at normal)."""
    if level == "easy":
        return 2
    if level == "tricky":
        return max(width + height, monster_cells // 2)
    return min(width + height, monster_cells // 2)


def place_sight(path: Path, possible: list[int], rng: random.Random) -> bool:
    """Give the path's undecided cells an assignment whose clue pair no other assignment of
    them gives (cells decided already are held); False, and nothing changed, when every pair
    is shared. `possible` holds bit sets per cell (difficulty.BIT), ALL when undecided."""
    # layers[k]: clue pair of the first k cells -> how many assignments give it (at most 2)
    layers: list[dict[tuple[int, int], int]] = [{(0, 0): 1}]
    for choices, cell in zip(path.choices, path.cells):
        here = [(start, end) for bit, _, start, end in choices if possible[cell] & bit]
        counts: dict[tuple[int, int], int] = {}
        for (start, end), ways in layers[-1].items():
            for add_start, add_end in here:
                key = (start + add_start, end + add_end)
                counts[key] = min(2, counts.get(key, 0) + ways)
        layers.append(counts)
    once = [pair for pair, ways in layers[-1].items() if ways == 1]
    if not once:
        return False
    start, end = once[rng.randrange(len(once))]
    # back from the end: the pair is reached one way, so each cell has one monster that leads
    # to a prefix reached at all
    for k in range(len(path.cells) - 1, -1, -1):
        cell = path.cells[k]
        for bit, _, add_start, add_end in path.choices[k]:
            if possible[cell] & bit and (start - add_start, end - add_end) in layers[k]:
                possible[cell] = bit
                start, end = start - add_start, end - add_end
                break
    return True


def place(grid: str, paths: Sequence[Path], rng: random.Random, filling: int,
          *, reverse: bool = False) -> list[int]:
    """The sights of `grid` placed in the game's order (`reverse`: last first) until at most
    `filling` cells are undecided: bit sets per cell (difficulty.BIT), ALL where undecided,
    0 on mirrors. `paths` are the layout's, in the game's order (difficulty.paths_on)."""
    cells = [i for i, ch in enumerate(grid) if ch == EMPTY]
    possible = [0] * len(grid)
    for cell in cells:
        possible[cell] = ALL
    undecided = len(cells)
    for path in reversed(paths) if reverse else paths:
        if undecided <= filling:
            break
        if any(possible[c] == ALL for c in path.cells) and place_sight(path, possible, rng):
            undecided = sum(possible[c] == ALL for c in cells)
    return possible


def placed_solution(grid: str, paths: Sequence[Path], rng: random.Random, filling: int,
                    *, reverse: bool = False) -> list[str]:
    """Monsters for every empty cell of `grid`: placed (see `place`), then random monsters
    on the cells left undecided. The solution as letters, mirrors kept."""
    possible = place(grid, paths, rng, filling, reverse=reverse)
    return [ch if ch != EMPTY else DECIDED.get(possible[i]) or rng.choice(MONSTERS)
            for i, ch in enumerate(grid)]
