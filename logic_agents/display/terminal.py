"""Boards in the terminal: a BoardView (world.view) as coloured rich Text, and watching a
game redraw in place.

Concepts:
- board_text(board, ...): the tiles as coloured cells, three characters wide (four on hex
  boards, whose rows are shifted), with the cursor, the last move and the cells of a proof
  marked; the same picture human play and `play --delay` / `replay --show` draw;
- Watcher: redraws one board in place (rich Live) after every step, with the move, its why
  and the counters, waiting `delay` seconds between steps.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from logic_agents.world.spec import GameSpec, Puzzle
from logic_agents.world.view import BoardView, Cell, View, cells_in

CURSOR = "on #2f6fde"
MOVE = "on #f59f4a"
PROOF = "on #9ec5ff"


def board_text(board: BoardView, cursor: Cell | None = None, move: Iterable[Cell] = (),
               proof: Iterable[Cell] = (), labels: bool = True) -> Text:
    """The board as Text; cells are game cells (the board's origin is added here). With
    `labels`, the game's row numbers run down the left and its column numbers along the top
    (0-based, as in every action and reason)."""
    def tiles(cells: Iterable[Cell] | None) -> set[Cell]:
        return {t for t in (board.tile_of(c) for c in cells or ()) if t is not None}

    cursor_tile = board.tile_of(cursor) if cursor is not None else None
    moved, proved = tiles(move), tiles(proof)
    width = 4 if board.row_shift else 3
    margin = max((len(board.row_label(r)) for r in range(board.rows)), default=0) + 1
    out = Text()
    if labels:
        head = " " * margin + (" " * round(board.row_shift[0] * width) if board.row_shift else "")
        for c in range(board.cols):
            head += board.col_label(c)[-width + 1:].center(width)
            if board.boxes and (c + 1) % board.boxes[1] == 0 and c + 1 < board.cols:
                head += " "
        out.append(head.rstrip() + "\n", "dim")
    for r in range(board.rows):
        if labels:
            out.append(board.row_label(r).rjust(margin - 1) + " ", "dim")
        if board.row_shift:
            out.append(" " * round(board.row_shift[r] * width))
        for c in range(board.cols):
            tile = board.tile(r, c)
            fill, ink = board.colours(tile.kind)
            style = f"bold {ink} on {fill}"
            if (r, c) == cursor_tile:
                style = f"bold #ffffff {CURSOR}"
            elif (r, c) in moved:
                style = f"bold {ink} {MOVE}"
            elif (r, c) in proved:
                style = f"bold {ink} {PROOF}"
            out.append(tile.text[:width - 1].center(width), style)
            if board.boxes and (c + 1) % board.boxes[1] == 0 and c + 1 < board.cols:
                out.append("│", "dim")
        out.append("\n")
        if board.boxes and (r + 1) % board.boxes[0] == 0 and r + 1 < board.rows:
            out.append((" " * margin if labels else "")
                       + "─" * (board.cols * width + board.cols // board.boxes[1] - 1) + "\n",
                       "dim")
    return out


def counters_text(board: BoardView, extra: Iterable[tuple[str, Any]] = ()) -> Text:
    out = Text()
    own = {name for name, _ in board.counters}  # the game's own count wins (Ooze's score)
    for name, value in [*((n, v) for n, v in extra if n not in own), *board.counters]:
        out.append(f"{name} ", "dim")
        out.append(f"{value}   ", "bold")
    return out


class Watcher:
    """`play --delay` and `replay --show`: one board, redrawn in place after each step."""

    def __init__(self, spec: GameSpec, console: Console, delay: float, title: str):
        from rich.live import Live

        self.spec, self.delay, self.title = spec, delay, title
        self.steps, self.score = 0, 0.0
        self.live = Live(console=console, auto_refresh=False, transient=False)

    def __enter__(self) -> Watcher:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.__exit__(*exc)

    def show(self, observation: object, action: object = None, why: object = "",
             reward: float = 0.0) -> None:
        if action is not None:
            self.steps += 1
            self.score += reward
        view = self.spec.get(View)
        parts: list[Any] = [Text(self.title, "bold")]
        if view is None:
            shown = self.spec.render(observation)
            parts.append(shown if isinstance(shown, Text) else Text(str(shown)))
        else:
            board = view.board(observation)
            moved = view.cells_of(action) if action is not None else ()
            parts += [board_text(board, move=moved, proof=cells_in(why)),
                      counters_text(board, [("step", self.steps)] + (
                          [] if self.spec.get(Puzzle) is not None  # a puzzle scores nothing
                          else [("score", self.score)]))]
        if action is not None:
            line = Text(str(action), "bold")
            if why:
                line.append(f"  {why}", "dim")
            parts.append(line)
        self.live.update(Group(*parts), refresh=True)
        if action is not None and self.delay:
            time.sleep(self.delay)
