"""Human play in the terminal, for every game whose View has Controls (Textual).

Concepts:
- The same keys in every game: arrows move the cursor (in Mazes they walk), space or enter
  probes or places, f flags or marks, u undoes (puzzles only), h asks the game's hint agent
  for a move and shows its why with the cells of its proof (a guess says it is one, with its
  odds), ? shows the game's rules, r restarts, n starts a new game (the next puzzle or map),
  q quits. A game adds its own keys (Controls.keys: digits in Sudoku, g v z in Undead, w in
  Ooze). The footer lists them (Textual bindings). A click on a cell moves the cursor there and
  acts: the left button as space, the right as f.
- play_app: one episode in a Textual app (display.tui_app.PlayApp, which imports Textual at
  its top), drawing a human.Session. The board is the game's BoardView (terminal.board_text,
  with its row and column numbers); the footer and then the status line stay at the bottom at
  any size, and a terminal too small for the board says so. This module imports no Textual.
- play_human: runs the app, then replays the kept actions through run_episode, so the result
  and the --trace are those of any other agent (a human trace replays like any other).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from logic_agents.display.human import Scripted, Session, replay_actions
from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.world.core import AnyAgent, EpisodeResult
from logic_agents.world.spec import GameSpec
from logic_agents.world.trace import Trace
from logic_agents.world.values import Instance

if TYPE_CHECKING:
    from logic_agents.display.tui_app import PlayApp

__all__ = ["Scripted", "Session", "play_app", "play_human", "replay_actions"]


def play_app(session: Session, title: str) -> PlayApp:
    """The Textual app of a session (run it, or drive it with run_test in tests)."""
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UsageError("human play needs Textual: pip install 'logic-agents[tui]'") from None
    from logic_agents.display.tui_app import PlayApp  # Textual: the optional extra `tui`

    return PlayApp(session, title)


def play_human(spec: GameSpec, instance: Instance, world_options: Record, seed: int | None,
               make_trace: Callable[[Instance, int | None], Trace | None] | None,
               hint_agent: Callable[[], AnyAgent] | None,
               next_puzzle: Callable[[Instance], Instance] | None = None) -> EpisodeResult:
    """Run human play; returns the EpisodeResult of the kept actions of the last game played
    (after `n`, the new one) and writes its trace, which `make_trace(instance, seed)` opens."""

    session = Session(spec, instance, world_options, seed, hint_agent, next_puzzle)
    started = time.perf_counter()
    play_app(session, f"{spec.name} {instance.name}").run()
    session.seconds = time.perf_counter() - started
    trace = make_trace(session.instance, session.seed) if make_trace is not None else None
    try:
        return replay_actions(spec, session.instance, world_options, session.seed, session,
                              trace)
    finally:
        if trace is not None:
            trace.close()
