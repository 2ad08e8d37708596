"""Text pictures of what a Daggers agent sees.

Concepts: GLYPHS maps observation cells to characters (covered ".", flag "F", hit "X", gold
"g", clue digits); render(obs) is plain text; STYLES colours the same text for rich.
"""

from __future__ import annotations

from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT, DaggersObservation

GLYPHS = {COVERED: "·", FLAGGED: "F", HIT: "X", "0": " "}
STYLES = {"·": "dim", "F": "bold yellow", "X": "bold red", "g": "bold gold1",
          "1": "blue", "2": "green", "3": "red", "4": "magenta"}


def render(obs: DaggersObservation) -> str:
    """The board as the agent knows it, with a status line."""
    lines = [f"step {obs.step}  lives {obs.lives}  daggers {obs.total_daggers}"]
    header = "   " + " ".join(f"{c % 10}" for c in range(obs.width))
    lines.append(header)
    for r, row in enumerate(obs.grid):
        lines.append(f"{r:>2} " + " ".join(GLYPHS.get(v, v) for v in row))
    return "\n".join(lines)


def render_markup(obs: DaggersObservation) -> str:
    """The same picture with rich markup."""
    out = []
    for line in render(obs).splitlines():
        if line.startswith("step") or line.startswith("   "):
            out.append(f"[bold]{line}[/bold]" if line.startswith("step") else f"[dim]{line}[/dim]")
            continue
        label, cells = line[:3], line[3:]
        styled = "".join(
            f"[{STYLES[ch]}]{ch}[/{STYLES[ch]}]" if ch in STYLES else ch for ch in cells
        )
        out.append(f"[dim]{label}[/dim]{styled}")
    return "\n".join(out)
