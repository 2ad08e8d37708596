"""Text pictures of what a Daggers agent sees.

Concepts: GLYPHS maps observation cells to characters (covered "·", flag "F", hit "X", gold
"g", clue digits); render(obs) is plain text (hex boards drawn with their offset);
styled(obs) is the same text coloured (a rich Text: what `play` prints); VIEW is the board
as tiles (the HTML page, the terminal; a clue with more flags around it than it counts in red)
and the keys a person plays it with.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from logic_agents.games.daggers.world import (
    COVERED,
    FLAGGED,
    HIT,
    DaggersAction,
    DaggersObservation,
    clue_neighbourhoods,
)
from logic_agents.world import view

GLYPHS = {COVERED: "·", FLAGGED: "F", HIT: "X", "0": " "}
STYLES = {"·": "dim", "F": "bold yellow", "X": "bold red", "g": "bold gold1",
          "1": "blue", "2": "green", "3": "red", "4": "magenta"}


def render(obs: DaggersObservation) -> str:
    """The board as the agent knows it, with a status line."""
    lines = [f"step {obs.step}  lives {obs.lives}  daggers {obs.total_daggers}"]
    hexagonal = obs.topology == "hex"
    shift = obs.height - 1 if hexagonal else 0
    lines.append("   " + " " * shift + " ".join(f"{c % 10}" for c in range(obs.width)))
    for r, row in enumerate(obs.grid):
        # hex: row r is shifted half a cell right of row r+1, so [r-1][c-1] and [r-1][c]
        # sit above-left and above-right of [r][c], as the hex neighbourhood says
        indent = " " * (shift - r) if hexagonal else ""
        lines.append(f"{r:>2} " + indent + " ".join(GLYPHS.get(v, v) for v in row))
    return "\n".join(lines)


def styled(obs: DaggersObservation) -> Any:
    """The same picture, coloured: a rich Text (its str is render's text)."""
    return Text.from_markup(_markup(obs))


def _markup(obs: DaggersObservation) -> str:
    """The same picture with rich markup."""
    out = []
    for line in render(obs).splitlines():
        if line.startswith("step") or line.startswith("   ") and not line[:3].strip():
            out.append(f"[bold]{line}[/bold]" if line.startswith("step") else f"[dim]{line}[/dim]")
            continue
        label, cells = line[:3], line[3:]
        styled = "".join(
            f"[{STYLES[ch]}]{ch}[/{STYLES[ch]}]" if ch in STYLES else ch for ch in cells
        )
        out.append(f"[dim]{label}[/dim]{styled}")
    return "\n".join(out)


PALETTE = {"covered": (view.COVERED, view.INK), "open": (view.PAPER, "#6b6b6b"),
           "flag": (view.MARK, view.INK), "hit": (view.BAD, "#ffffff"),
           "gold": ("#f6e7a8", "#8a6d00"), "1": (view.PAPER, "#2b59c3"),
           "2": (view.PAPER, "#2e8b3a"), "3": (view.PAPER, "#c0392b"),
           "4": (view.PAPER, "#6c3483"), "5": (view.PAPER, "#7b241c"),
           "6": (view.PAPER, "#117a65"), "7": (view.PAPER, view.INK), "8": (view.PAPER, "#555555"),
           "broken": ("#fbe3e0", view.BAD)}
TILES = {COVERED: view.Tile("", "covered"), FLAGGED: view.Tile("⚑", "flag"),
         HIT: view.Tile("✖", "hit"), "g": view.Tile("◆", "gold"), "0": view.Tile("", "open")}


def board_view(obs: DaggersObservation) -> view.BoardView:
    """The board for every viewer: covered, open (clue digits coloured), flags, hits, gold."""
    shift = (tuple((obs.height - 1 - r) / 2 for r in range(obs.height))
             if obs.topology == "hex" else ())
    # a clue with more flags (and hit daggers) around it than it counts: a flag is wrong
    broken = {cell for cell, k, _, marked in clue_neighbourhoods(obs) if marked > k}
    return view.BoardView(
        obs.height, obs.width,
        tuple(view.Tile((TILES.get(v) or view.Tile(v)).text, "broken") if (r, c) in broken
              else TILES.get(v) or view.Tile(v, v)
              for r, row in enumerate(obs.grid) for c, v in enumerate(row)),
        PALETTE, row_shift=shift,
        counters=(("lives", obs.lives), ("daggers", obs.total_daggers),
                  ("flags", sum(row.count(FLAGGED) for row in obs.grid))))


def act_at(obs: DaggersObservation, cell: view.Cell, key: str) -> DaggersAction | None:
    """space probes the cursor cell; f flags it, or unflags a flag."""
    if key == "primary":
        return DaggersAction("probe", cell)
    if key == "secondary":
        return DaggersAction("unflag" if obs.at(cell) == FLAGGED else "flag", cell)
    return None


def legal(obs: DaggersObservation, action: DaggersAction) -> bool:
    """Whether the rules allow the action here (a covered cell to probe or flag, a flag to
    take away): the Gymnasium action mask."""
    return obs.at(action.cell) == (FLAGGED if action.kind == "unflag" else COVERED)


RULES = (
    "Every covered cell hides a clue, a dagger or gold. A clue counts the daggers among its 8 "
    "neighbours (6 on a hex board). Probe a cell to uncover it: a 0 or gold opens its "
    "neighbours too, gold gives a life, a dagger costs one. Flag cells you believe are daggers "
    "(it changes nothing in the world). You win when every covered cell left is a dagger; you "
    "lose when your lives reach 0. The header shows your lives and how many daggers there are.")


VIEW = view.View(glyphs="⚑✖◆", board=board_view, cells_of=lambda action: (action.cell,),
                 controls=view.Controls(act_at, primary="probe", secondary="flag / unflag",
                                         hint_agent="prob", legal=legal, rules=RULES))
