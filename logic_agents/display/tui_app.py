"""The Textual app of human play: imported only when a person plays (Textual is the optional
extra `tui`, imported at the top here and nowhere else; display.tui checks it is installed).

Concepts:
- PlayApp: one episode of a human.Session in a Textual app. Its key bindings come from the
  session's Controls (the same keys in every game, plus the game's own), bound when the app
  is made; the board, the last message, the key line and the status line are redrawn after
  every key, and the title names the instance played (after `n`, the new one). The key line
  wraps to the terminal's width, a key never parted from its words, so every key shows at 80
  columns (Textual's footer cuts what does not fit on one line).
- Rules: the game's rules over the board, and the last hint in full; the arrows and PgUp/PgDn
  scroll it, any other key closes it.
- The last message (a hint and its why) wraps to the terminal's width in at most a third of
  its rows; a longer one ends with a line that says `?` shows all of it, never cut silently.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Header, Static

from logic_agents.display.human import Session

MOVES = ("down", "left", "right")  # "up" is bound with the footer's label for all four


class Rules(ModalScreen[None]):
    """The game's rules over the board; any key closes it."""

    CSS = """
    Rules { align: center middle; }
    #rules-box { width: 80%; max-width: 90; height: auto; max-height: 90%; padding: 1 2;
             border: round $accent; background: $panel; overflow-y: auto; }
    """

    def __init__(self, session: Session):
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        text = Text.assemble((f"{self.session.spec.name}: the rules", "bold"), "\n\n",
                             self.session.rules())
        if self.session.message.startswith("hint"):  # the last hint in full, however long
            text.append_text(Text.assemble("\n\n", ("the last hint", "bold"), "\n",
                                           self.session.message))
        text.append("\n\n↑ ↓ PgUp PgDn scroll; any other key closes this", "dim")
        with VerticalScroll(id="rules-box"):
            yield Static(text, id="rules")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        box = self.query_one("#rules-box", VerticalScroll)
        scrolls = {"up": -1, "down": 1, "pageup": -box.size.height, "pagedown": box.size.height}
        if event.key in scrolls:
            box.scroll_to(y=box.scroll_y + scrolls[event.key], animate=False)
        else:
            self.app.pop_screen()


class PlayApp(App[None]):
    CSS = """
    #board { height: 1fr; padding: 1 2; overflow: auto; }
    #why { height: auto; padding: 0 2; }
    #bottom { dock: bottom; height: auto; }
    #keys { height: auto; padding: 0 1; }
    #status { height: 1; padding: 0 1; background: $panel; }
    """
    ENABLE_COMMAND_PALETTE = False  # its ^p would take a place in the footer

    def __init__(self, session: Session, title: str):
        super().__init__()
        self.session = session
        self.title = title
        self.bound: set[str] = set()
        self.shown: list[tuple[str, str]] = []  # (key, words) of the key line, in order
        controls = session.controls
        self._bind("up", "walk" if controls.arrows_act else "move", key_display="arrows")
        for key in MOVES:
            self._bind(key, "", show=False)
        if controls.primary:
            self._bind("space", controls.primary)
        if controls.secondary:
            self._bind("f", controls.secondary)
        for label, words in controls.keys.items():
            first = next((ch for ch in label if ch.isalnum()), "")
            if first:
                self._bind(first.lower(), words, key_display=label)
        if session.can_undo:
            self._bind("u", "undo")
        self._bind("h", "hint")
        self.bind("question_mark", "rules", description="rules")
        self.bound.add("question_mark")
        self.shown.append(("?", "rules"))
        for key, words in (("r", "restart"), ("n", "new game"), ("q", "quit")):
            self._bind(key, words)

    def _bind(self, key: str, words: str, *, show: bool = True,
              key_display: str | None = None) -> None:
        self.bind(key, f"press('{key}')", description=words, show=show, key_display=key_display)
        self.bound.add(key)
        if show and words:
            self.shown.append((key_display or key, words))

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="board")
        yield Static(id="why")
        with Vertical(id="bottom"):  # the keys, then the status line as the last row
            yield Static(id="keys")
            yield Static(id="status")

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()

    def redraw(self) -> None:
        session = self.session
        picture, board = session.picture()
        width = board.cols * (4 if board.row_shift else 3) + 10
        height = board.rows + 2 * (board.boxes is not None) * board.rows // max(
            1, (board.boxes or (1, 1))[0]) + 8
        size = self.size
        if size.width < width or size.height < height:
            picture = Text(f"the terminal is too small for this board: it needs "
                           f"{width}x{height}, this one is {size.width}x{size.height}",
                           "bold red")
        self.title = f"{session.spec.name} {session.instance.name}"
        self.query_one("#keys", Static).update(self.key_line(max(20, size.width - 2)))
        self.query_one("#board", Static).update(picture)
        self.query_one("#why", Static).update(self.message_lines(
            max(10, size.width - 4), max(2, size.height // 3)))
        self.query_one("#status", Static).update(session.status(board))

    def message_lines(self, width: int, most: int) -> Text:
        """The last message wrapped to `width`, in at most `most` lines.

        A longer one (a hint whose proof names many cells) ends with a line that says `?`
        shows all of it, rather than being cut where the terminal ends.
        """
        lines = Text(self.session.message).wrap(self.console, width)
        if len(lines) <= most:
            return Text("\n").join(lines)
        note = Text("… (? shows all of it)", "bold")
        kept = lines[:most - 1]
        return Text("\n").join([*kept, note])

    def key_line(self, width: int) -> Text:
        """Every shown key and its words, in lines of at most `width` characters."""
        out, used = Text(), 0
        for key, words in self.shown:
            size = len(key) + 1 + len(words)
            if used and used + 2 + size > width:
                out.append("\n")
                used = 0
            elif used:
                out.append("  ")
                used += 2
            out.append(key, "bold")
            out.append(f" {words}", "dim")
            used += size
        return out

    def action_press(self, key: str) -> None:
        if not self.session.press(key, key if len(key) == 1 else None):
            self.exit()
            return
        self.redraw()

    def action_rules(self) -> None:
        self.push_screen(Rules(self.session))

    def on_key(self, event: events.Key) -> None:
        if event.key in self.bound:
            return  # the binding acts (and the footer shows it)
        event.stop()
        if not self.session.press(event.key, event.character):
            self.exit()
            return
        self.redraw()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self.query_one("#board", Static))
        if offset is None:
            return
        cell = self.session.cell_at(offset.x, offset.y)
        if cell is not None:
            self.session.click(cell, event.button)
            self.redraw()
