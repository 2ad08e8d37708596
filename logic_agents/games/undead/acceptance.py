"""What the real game's generator accepts, beyond its difficulty rating.

Simon Tatham's Undead (undead.c, `new_game_desc`) throws a drawn puzzle away, before it
rates it, when
- it has 4 monster cells or fewer;
- its monster cells are under 48% or over 78% of the board;
- a line of sight passes more distinct monster cells than the level allows: easy
  min(W, H) + 1, normal 3 * max(W, H) / 2 (integer division), tricky 9;
- it has only one kind of monster;
- it is tricky and holds at most one monster of some kind.
sight_problem(width, height, sights, level) is the third test alone, on a mirror layout before
it has monsters; game_problem(puzzle, solution, level) gives the first of these a puzzle breaks (None if the
game would keep it), so that `generate undead --game` writes only puzzles the game itself could
have made. The rules are read from undead.c (sgt-puzzles; mirror ghewgill/puzzles at
01c3e38, 2020); the generator's rating (difficulty.py) is checked apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.sight import Sight

MIN_MONSTER_CELLS = 5  # the game discards "num_total <= 4"
MIN_SHARE, MAX_SHARE = 0.48, 0.78


def max_sight_length(width: int, height: int, level: str) -> int:
    """The most distinct monster cells one line of sight may pass at a level."""
    if level == "easy":
        return min(width, height) + 1
    if level == "normal":
        return max(width, height) * 3 // 2
    return 9


def sight_problem(width: int, height: int, sights: Sequence[Sight], level: str) -> str | None:
    """The game's test of a mirror layout alone: a line of sight passes more distinct monster
    cells than `level` allows (None if none does). It needs no monster, so a generator asks
    it before any SAT call: at 7x7 easy it throws away 2 layouts in 3."""
    limit = max_sight_length(width, height, level)
    longest = max((len({i for i, _ in sight.visits}) for sight in sights), default=0)
    if longest > limit:
        return f"a line of sight passes {longest} monster cells ({level} allows {limit})"
    return None


def game_problem(puzzle: UndeadPuzzle, solution: str, level: str) -> str | None:
    """Why the real game's generator would discard this puzzle at `level`, or None."""
    w, h = puzzle.width, puzzle.height
    monster_cells = sum(ch in MONSTERS for ch in solution)
    if monster_cells < MIN_MONSTER_CELLS:
        return f"{monster_cells} monster cells (the game wants at least {MIN_MONSTER_CELLS})"
    share = monster_cells / (w * h)
    if not MIN_SHARE <= share <= MAX_SHARE:
        return f"monster cells are {share:.0%} of the board (the game keeps 48-78%)"
    problem = sight_problem(w, h, puzzle.sights, level)
    if problem:
        return problem
    counts = [solution.count(m) for m in MONSTERS]
    if sum(c > 0 for c in counts) < 2:
        return "only one kind of monster"
    if level == "tricky" and min(counts) <= 1:
        return "a tricky puzzle with at most one monster of some kind"
    return None
