"""Boards as static SVG, for notebooks and reports: the picture the game page draws.

Concepts: board_svg draws a BoardView with the geometry of page.js (34-pixel tiles, the
palette's fill and ink, thick box lines, shifted rows, the game's row and column numbers around
it), with the last move and a proof's cells outlined as on the page; Board is a board to show:
its SVG in a notebook (`_repr_html_`), its text in a terminal (`str`); episode_html is a
finished episode's card: its numbers and its last board. Nothing here loads anything from the
network.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from logic_agents.display.terminal import board_text
from logic_agents.world.core import EpisodeResult, Outcome
from logic_agents.world.view import BoardView, Cell

TILE = 34  # pixels per tile, as page.js draws them
MOVE_INK = "#e8590c"
PROOF_INK = "#4a7bd1"


def board_svg(board: BoardView, move: Iterable[Cell] = (), proof: Iterable[Cell] = (),
              tile: int = TILE) -> str:
    """The board as one <svg> element; `move` and `proof` are game cells to outline (solid
    orange for the move, dashed blue for its proof, as on the game page)."""
    moved = {t for t in (board.tile_of(c) for c in move) if t is not None}
    proved = {t for t in (board.tile_of(c) for c in proof) if t is not None}
    shift = max(board.row_shift, default=0.0)
    rows = [board.row_label(r) for r in range(board.rows)]
    cols = [board.col_label(c) for c in range(board.cols)]
    left = 6 + 8 * max(map(len, rows)) if any(rows) else 0  # room for the labels, as page.js
    top = 16 if any(cols) else 0
    width, height = left + (board.cols + shift) * tile + 4, top + board.rows * tile + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width:g}" '
           f'height="{height:g}" viewBox="0 0 {width:g} {height:g}" role="img">']
    label = ('<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" dominant-baseline="central" '
             'font-size="11" font-family="system-ui, sans-serif" fill="#777" '
             'class="label">{text}</text>')
    first_shift = board.row_shift[0] if board.row_shift else 0.0
    out += [label.format(x=left - 4, y=top + 2 + r * tile + tile / 2, anchor="end", text=text)
            for r, text in enumerate(rows) if text]
    out += [label.format(x=left + 2 + (c + first_shift) * tile + tile / 2, y=top / 2,
                         anchor="middle", text=text) for c, text in enumerate(cols) if text]
    for r in range(board.rows):
        offset = board.row_shift[r] if board.row_shift else 0.0
        for c in range(board.cols):
            cell = board.tile(r, c)
            fill, ink = board.colours(cell.kind)
            x, y = left + 2 + (c + offset) * tile, top + 2 + r * tile
            out.append(f'<g data-cell="{r},{c}" data-kind="{html.escape(cell.kind)}">'
                       f'<rect x="{x + 1:g}" y="{y + 1:g}" width="{tile - 2}" height="{tile - 2}"'
                       f' rx="3" fill="{html.escape(fill)}"/>')
            if cell.text:
                out.append(f'<text x="{x + tile / 2:g}" y="{y + tile / 2 + 1:g}" '
                           'text-anchor="middle" dominant-baseline="central" font-size="17" '
                           f'font-weight="600" font-family="system-ui, sans-serif" '
                           f'fill="{html.escape(ink)}">{html.escape(cell.text)}</text>')
            if (r, c) in moved or (r, c) in proved:
                dash = "" if (r, c) in moved else ' stroke-dasharray="4 3"'
                colour = MOVE_INK if (r, c) in moved else PROOF_INK
                out.append(f'<rect x="{x + 2.5:g}" y="{y + 2.5:g}" width="{tile - 5}" '
                           f'height="{tile - 5}" rx="3" fill="none" stroke="{colour}" '
                           f'stroke-width="3"{dash}/>')
            out.append("</g>")
    if board.boxes:
        bh, bw = board.boxes
        x0, y0 = left + 2, top + 2
        for r in range(0, board.rows + 1, bh):
            out.append(f'<line x1="{x0}" y1="{y0 + r * tile}" x2="{x0 + board.cols * tile}" '
                       f'y2="{y0 + r * tile}" stroke="#1b1b1b" stroke-width="2.5"/>')
        for c in range(0, board.cols + 1, bw):
            out.append(f'<line x1="{x0 + c * tile}" y1="{y0}" x2="{x0 + c * tile}" '
                       f'y2="{y0 + board.rows * tile}" stroke="#1b1b1b" stroke-width="2.5"/>')
    out.append("</svg>")
    return "".join(out)


def _counters(board: BoardView) -> str:
    return " · ".join(f"{html.escape(str(k))} {html.escape(str(v))}" for k, v in board.counters)


@dataclass(frozen=True, repr=False)
class Board:
    """One observation's board, drawn: a notebook shows its SVG, `print` its text."""

    view: BoardView
    title: str = ""
    move: tuple[Cell, ...] = ()  # game cells outlined as the move (solid orange)
    proof: tuple[Cell, ...] = ()  # and as its proof (dashed blue)

    def svg(self) -> str:
        return board_svg(self.view, self.move, self.proof)

    def __repr__(self) -> str:
        return f"<Board {self.title or 'board'}: {self.view.rows}x{self.view.cols} tiles>"

    def _repr_html_(self) -> str:
        caption = " · ".join(x for x in (html.escape(self.title), _counters(self.view)) if x)
        label = f'<div style="font: 13px system-ui, sans-serif">{caption}</div>' if caption else ""
        return f"<div>{label}{self.svg()}</div>"

    def __str__(self) -> str:
        return board_text(self.view, move=self.move, proof=self.proof).plain


def episode_html(result: EpisodeResult, board: BoardView | None) -> str:
    """A finished episode as a notebook shows it: game, map, agent, seed, outcome and its
    numbers, then the last board."""
    outcome = result.outcome.value if isinstance(result.outcome, Outcome) else str(result.outcome)
    facts = [("game", result.game), ("map", result.map), ("agent", result.agent),
             ("seed", result.seed), ("outcome", outcome), ("steps", result.steps),
             ("guesses", result.guesses), ("score", f"{result.score:g}"),
             ("time", f"{result.time_s:.3f} s")]
    if result.error:
        facts.append(("error", result.error))
    cells = "".join(f'<tr><th style="text-align:left;padding-right:12px">{html.escape(k)}</th>'
                    f"<td>{html.escape(str(v))}</td></tr>" for k, v in facts)
    picture = board_svg(board) if board is not None else ""
    return (f'<div style="display:flex;gap:24px;align-items:flex-start;font:13px system-ui, '
            f'sans-serif"><table>{cells}</table>{picture}</div>')
