"""What an env's `render()` draws: the board as a person sees it.

Concepts:
- ansi_board(board): the terminal's drawing of the BoardView (display.terminal), with its
  colours as ANSI escape sequences, so a covered cell and an opened empty one differ.
- rgb_board(board): TILE_PIXELS pixels a tile in its palette colour, grid lines, and what
  the tile shows in its ink: numbers in a 3x5 pixel font, any other character as a mark.
"""

from __future__ import annotations

import io

import numpy as np
import numpy.typing as npt
from rich.console import Console

from logic_agents.display.terminal import board_text
from logic_agents.world.view import BoardView

TILE_PIXELS = 16
GRID_GREY = 200
# 3x5 pixel digits, rows top to bottom, "#" inked
DIGITS = {
    "0": ("###", "#.#", "#.#", "#.#", "###"), "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"), "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"), "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"), "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"), "9": ("###", "#.#", "###", "..#", "###"),
}
MARK = (".#.", "###", "###", "###", ".#.")  # a character that is not a digit


def ansi_board(board: BoardView) -> str:
    """The terminal's drawing of the board, its colours as ANSI escape sequences."""
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="truecolor", width=1000,
            highlight=False).print(board_text(board), end="")
    return out.getvalue()


def rgb(colour: str) -> tuple[int, int, int]:
    """A "#rrggbb" (or "#rgb") colour as three bytes; grey for what is none."""
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        return 128, 128, 128


def _stamp(image: npt.NDArray[np.uint8], top: int, left: int, pattern: tuple[str, ...],
           scale: int, ink: tuple[int, int, int]) -> None:
    for y, row in enumerate(pattern):
        for x, ch in enumerate(row):
            if ch == "#":
                image[top + y * scale:top + (y + 1) * scale,
                      left + x * scale:left + (x + 1) * scale] = ink


def rgb_board(board: BoardView) -> npt.NDArray[np.uint8]:
    """The board as an RGB image, TILE_PIXELS a tile, numbers drawn in the tile's ink."""
    p = TILE_PIXELS
    image = np.zeros((board.rows * p, board.cols * p, 3), dtype=np.uint8)
    for r in range(board.rows):
        for c in range(board.cols):
            tile = board.tile(r, c)
            fill, ink = board.colours(tile.kind)
            image[r * p:(r + 1) * p, c * p:(c + 1) * p] = rgb(fill)
            text = tile.text
            if text.isascii() and text.isdigit() and len(text) <= 2:
                scale = 2 if len(text) == 1 else 1
                width = len(text) * 3 * scale + (len(text) - 1)
                left = c * p + (p - width) // 2
                for k, digit in enumerate(text):
                    _stamp(image, r * p + (p - 5 * scale) // 2, left + k * (3 * scale + 1),
                           DIGITS[digit], scale, rgb(ink))
            elif text:
                _stamp(image, r * p + (p - 10) // 2, c * p + (p - 6) // 2, MARK, 2, rgb(ink))
            image[r * p, c * p:(c + 1) * p] = GRID_GREY
            image[r * p:(r + 1) * p, c * p] = GRID_GREY
    return image
