"""Text pictures of what a Daggers agent sees.

Concepts: GLYPHS maps observation cells to characters (covered "·", flag "F", hit "X", gold
"g", clue digits); render(obs) is plain text (hex boards drawn with their offset);
render_markup colours the same text for rich.
"""

from __future__ import annotations

from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT, DaggersObservation

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


def render_markup(obs: DaggersObservation) -> str:
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
