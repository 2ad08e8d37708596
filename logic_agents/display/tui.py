"""Human play in the terminal, for every game whose View has Controls (Textual).

Concepts:
- The same keys in every game: arrows move the cursor (in Mazes they walk), space or enter
  probes or places, f flags or marks, u undoes (puzzles only), h asks the game's hint agent
  for a move and shows its why with the cells of its proof (a guess says it is one, with its
  odds), ? shows the game's rules, r restarts, n starts a new game (the next puzzle or map),
  q quits. A game adds its own keys (Controls.keys: digits in Sudoku, g v z in Undead, w in
  Ooze). The footer lists them (Textual bindings). A click on a cell moves the cursor there and
  acts: the left button as space, the right as f.
- PlayApp: one episode in a Textual app, drawing a human.Session. The board is the game's
  BoardView (terminal.board_text, with its row and column numbers); the footer and then the
  status line stay at the bottom at any size, and a terminal too small for the board says so.
- play_human: runs the app, then replays the kept actions through run_episode, so the result
  and the --trace are those of any other agent (a human trace replays like any other).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.text import Text

from logic_agents.display.human import Scripted, Session, replay_actions
from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.world.spec import GameSpec, Instance

__all__ = ["Scripted", "Session", "play_app", "play_human", "replay_actions"]


def _textual() -> Any:
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UsageError("human play needs Textual: pip install 'logic-agents[tui]'") from None
    from textual import app, widgets

    return app, widgets


def play_app(session: Session, title: str) -> Any:
    """The Textual app of a session (run it, or drive it with run_test in tests)."""
    app_module, widgets = _textual()
    from textual.binding import Binding
    from textual.screen import ModalScreen

    base: Any = app_module.App
    controls = session.controls
    bindings = [Binding("up", "press('up')", "walk" if controls.arrows_act else "move",
                        key_display="arrows")]
    bindings += [Binding(key, f"press('{key}')", "", show=False)
                 for key in ("down", "left", "right")]
    if controls.primary:
        bindings.append(Binding("space", "press('space')", controls.primary))
    if controls.secondary:
        bindings.append(Binding("f", "press('f')", controls.secondary))
    for label, words in controls.keys.items():
        first = next((ch for ch in label if ch.isalnum()), "")
        if first:
            bindings.append(Binding(first.lower(), f"press('{first.lower()}')", words,
                                    key_display=label))
    if session.can_undo:
        bindings.append(Binding("u", "press('u')", "undo"))
    bindings += [Binding("h", "press('h')", "hint"), Binding("question_mark", "rules", "rules"),
                 Binding("r", "press('r')", "restart"), Binding("n", "press('n')", "new game"),
                 Binding("q", "press('q')", "quit")]
    bound = {b.key for b in bindings}

    class Rules(ModalScreen):  # type: ignore[misc, type-arg, unused-ignore]
        """The game's rules over the board; any key closes it."""

        CSS = """
        Rules { align: center middle; }
        #rules { width: 80%; max-width: 90; height: auto; max-height: 90%; padding: 1 2;
                 border: round $accent; background: $panel; overflow-y: auto; }
        """

        def compose(self) -> Any:
            yield widgets.Static(f"[b]{session.spec.name}: the rules[/b]\n\n"
                                 + session.rules().replace("[", "\\[")
                                 + "\n\n[dim]any key closes this[/dim]", id="rules")

        def on_key(self, event: Any) -> None:
            event.stop()
            self.app.pop_screen()

    class PlayApp(base):  # type: ignore[misc, unused-ignore]
        CSS = """
        #board { height: 1fr; padding: 1 2; overflow: auto; }
        #why { height: auto; max-height: 6; padding: 0 2; }
        #bottom { dock: bottom; height: auto; }
        #keys { dock: none; }
        #status { height: 1; padding: 0 1; background: $panel; }
        """
        TITLE = title
        BINDINGS = bindings
        ENABLE_COMMAND_PALETTE = False  # its ^p would take a place in the footer

        def compose(self) -> Any:
            yield widgets.Header(show_clock=False)
            yield widgets.Static(id="board")
            yield widgets.Static(id="why")
            from textual.containers import Vertical

            with Vertical(id="bottom"):  # the keys, then the status line as the last row
                yield widgets.Footer(id="keys", compact=True)
                yield widgets.Static(id="status")

        def on_mount(self) -> None:
            self.redraw()

        def on_resize(self, event: Any) -> None:
            self.redraw()

        def redraw(self) -> None:
            picture, board = session.picture()
            width = board.cols * (4 if board.row_shift else 3) + 10
            height = board.rows + 2 * (board.boxes is not None) * board.rows // max(
                1, (board.boxes or (1, 1))[0]) + 8
            size = self.size
            if size.width < width or size.height < height:
                picture = Text(f"the terminal is too small for this board: it needs "
                               f"{width}x{height}, this one is {size.width}x{size.height}",
                               "bold red")
            self.query_one("#board").update(picture)
            self.query_one("#why").update(Text(session.message))
            self.query_one("#status").update(session.status(board))

        def action_press(self, key: str) -> None:
            if not session.press(key, key if len(key) == 1 else None):
                self.exit()
                return
            self.redraw()

        def action_rules(self) -> None:
            self.push_screen(Rules())

        def on_key(self, event: Any) -> None:
            if event.key in bound:
                return  # the binding acts (and the footer shows it)
            event.stop()
            if not session.press(event.key, event.character):
                self.exit()
                return
            self.redraw()

        def on_click(self, event: Any) -> None:
            board_widget = self.query_one("#board")
            offset = event.get_content_offset(board_widget)
            if offset is None:
                return
            cell = session.cell_at(offset.x, offset.y)
            if cell is not None:
                session.click(cell, getattr(event, "button", 1))
                self.redraw()

    return PlayApp()


def play_human(spec: GameSpec, instance: Instance, world_options: Record, seed: int | None,
               make_trace: Callable[[Any, int | None], Any] | None,
               hint_agent: Callable[[], Any] | None,
               next_puzzle: Callable[[Any], Any] | None = None) -> Any:
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
