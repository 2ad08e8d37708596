"""Human play in the terminal, for every game whose View has Controls (Textual).

Concepts:
- The same keys in every game: arrows move the cursor (in Mazes they walk), space or enter
  probes or places, f flags or marks, u undoes (puzzles only), h asks the game's hint agent
  for a move and shows its why with the cells of its proof, q quits. A game adds its own keys
  (Controls.keys: digits in Sudoku, g v z in Undead, w in Ooze).
- PlayApp: one episode in a Textual app. The board is drawn from the game's BoardView
  (terminal.board_text); the status line stays at the bottom at any size, and a terminal too
  small for the board says so. Undo rebuilds the world from the seed and the kept actions, so
  an undone move leaves no trace and does not count as a step.
- play_human: runs the app, then replays the kept actions through run_episode, so the result
  and the --trace are those of any other agent (a human trace replays like any other).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from logic_agents.errors import IllegalAction, LogicAgentsError, UsageError
from logic_agents.terminal import board_text, counters_text
from logic_agents.world.base import ended
from logic_agents.world.spec import Puzzle
from logic_agents.world.view import View, cells_in

ARROWS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
SHARED_HELP = "arrows move · {primary}{secondary}{own} · {undo}h hint · q quit"


def _textual() -> Any:
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UsageError("human play needs Textual: pip install 'logic-agents[tui]'") from None
    from textual import app, widgets

    return app, widgets


class Session:
    """The game state human play keeps: the world, the kept actions, the cursor, the hint.
    Independent of Textual, so it can be tested and reused (a notebook, another UI)."""

    def __init__(self, spec: Any, instance: Any, world_options: dict, seed: int | None,
                 hint_agent: Callable[[], Any] | None = None):
        view = spec.get(View)
        if view is None or view.controls is None:
            raise UsageError(f"{spec.name} has no controls for human play")
        self.spec, self.instance, self.world_options, self.seed = (spec, instance,
                                                                    world_options, seed)
        self.view: View = view
        self.controls = view.controls
        self.hint_agent = hint_agent
        self.seconds: float | None = None  # how long the person played (play_human)
        self.actions: list[Any] = []
        self.undos = self.hints = 0
        self.hint_move: tuple = ()  # the cells of the hinted move
        self.hint_proof: tuple = ()  # the cells its why names
        self.last_info: dict = {}
        self._rebuild()
        start = self.controls.cursor(self.obs) if self.controls.cursor else (0, 0)
        self.cursor = tuple(start)
        self.message = self.help()

    # -- the world -------------------------------------------------------------------------
    def _rebuild(self) -> None:
        self.world = self.spec.make_world(self.instance, **self.world_options)
        self.obs, _ = self.world.reset(seed=self.seed)
        self.outcome = (None if getattr(self.world, "outcome", None) is None
                        else ended(self.world, on_terminated=False).value)
        self.score = 0.0
        for action in self.actions:
            self._step(action)

    def _step(self, action: Any) -> None:
        self.obs, reward, terminated, truncated, info = self.world.step(action)
        self.score += reward
        if terminated:
            self.outcome = ended(self.world).value
        elif truncated:
            self.outcome = "truncated"
        self.last_info = info

    @property
    def hint_cells(self) -> tuple:
        """Every cell the last hint marks (its move's and its proof's)."""
        return self.hint_move + self.hint_proof

    @property
    def can_undo(self) -> bool:
        return self.spec.get(Puzzle) is not None

    def help(self) -> str:
        c = self.controls
        own = "".join(f" · {k} {v}" for k, v in c.keys.items())
        return SHARED_HELP.format(
            primary=f"space {c.primary}" if c.primary else "arrows walk" if c.arrows_act else "",
            secondary=f" · f {c.secondary}" if c.secondary else "", own=own,
            undo="u undo · " if self.can_undo else "")

    # -- keys ------------------------------------------------------------------------------
    def press(self, key: str, character: str | None = None) -> bool:
        """Handle one key; False when it quits."""
        if key == "q" or key == "escape":
            return False
        if self.outcome is not None:
            self.message = "the game is over: q quits" + (", u undoes" if self.can_undo else "")
            if key != "u" or not self.can_undo:
                return True
        if key == "u":
            self.undo()
        elif key == "h":
            self.hint()
        elif key in ARROWS and not self.controls.arrows_act:
            self.move_cursor(*ARROWS[key])
        else:
            name = ("primary" if key in ("space", "enter") else
                    "secondary" if key == "f" and self.controls.secondary else
                    key if key in ARROWS else (character or key))
            self.act(name)
        return True

    def move_cursor(self, dr: int, dc: int) -> None:
        rows, cols = self._extent()
        r, c = self.cursor
        self.cursor = (min(max(r + dr, 0), rows - 1), min(max(c + dc, 0), cols - 1))

    def _extent(self) -> tuple[int, int]:
        if self.controls.cells is not None:
            return self.controls.cells(self.obs)
        board = self.view.board(self.obs)
        return board.rows - board.origin[0], board.cols - board.origin[1]

    def act(self, key: str) -> None:
        action = self.controls.act(self.obs, self.cursor, key)
        if action is None:
            self.message = f"{key!r} does nothing here · " + self.help()
            return
        try:
            self._step(action)
        except (IllegalAction, LogicAgentsError) as e:
            self.message = f"not allowed: {e}"
            return
        self.actions.append(action)
        self.hint_move = self.hint_proof = ()
        if self.controls.cursor is not None:
            self.cursor = tuple(self.controls.cursor(self.obs))
        refused = self.last_info.get("invalid")
        self.message = refused or f"{action}"

    def undo(self) -> None:
        if not self.can_undo:
            self.message = "no undo in this game: a move shows hidden things"
            return
        if not self.actions:
            self.message = "nothing to undo"
            return
        undone = self.actions.pop()
        self.undos += 1
        self._rebuild()
        if self.controls.cursor is not None:
            self.cursor = tuple(self.controls.cursor(self.obs))
        self.hint_move = self.hint_proof = ()
        self.message = f"undid {undone}"

    def hint(self) -> None:
        if self.hint_agent is None:
            self.message = "this game has no hint agent"
            return
        agent = self.hint_agent()
        agent.reset(self.seed)
        try:
            action = agent.act(self.obs)
        finally:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
        self.hints += 1
        if action is None:
            self.message = "hint: the agent sees no move from here" + (
                "; undo" if self.can_undo else "")
            return
        why = getattr(agent, "why", "") or ""
        self.hint_move = tuple(self.view.cells_of(action))
        self.hint_proof = tuple(c for c in cells_in(why) if c not in self.hint_move)
        self.message = f"hint: {action}" + (f" — {why}" if why else "")

    # -- drawing ---------------------------------------------------------------------------
    def picture(self) -> Any:
        board = self.view.board(self.obs)
        return board_text(board, cursor=None if self.controls.arrows_act else self.cursor,
                          move=self.hint_move, proof=self.hint_proof), board

    def status(self, board: Any = None) -> Any:
        """The status line (`board`: the BoardView of the current observation, if drawn)."""
        from rich.text import Text

        board = board if board is not None else self.view.board(self.obs)
        score = int(self.score) if float(self.score).is_integer() else round(self.score, 3)
        line = counters_text(board, [("step", len(self.actions)), ("score", score)])
        if self.outcome is not None:
            colour = {"won": "bold white on green", "lost": "bold white on red"}.get(
                self.outcome, "bold black on yellow")
            line = Text.assemble((f" {self.outcome.upper().replace('_', ' ')} ", colour),
                                 "  ", line)
        return line


def play_app(session: Session, title: str) -> Any:
    """The Textual app of a session (run it, or drive it with run_test in tests)."""
    app_module, widgets = _textual()
    base: Any = app_module.App

    class PlayApp(base):
        CSS = """
        #board { height: 1fr; padding: 1 2; overflow: auto; }
        #why { height: auto; max-height: 6; padding: 0 2; }
        #keys { height: auto; max-height: 2; padding: 0 2; color: $text-muted; }
        #status { dock: bottom; height: 1; padding: 0 1; background: $panel; }
        """
        TITLE = title

        def compose(self) -> Any:
            yield widgets.Header(show_clock=False)
            yield widgets.Static(id="board")
            yield widgets.Static(id="why")
            yield widgets.Static(id="status")
            yield widgets.Static(session.help(), id="keys")

        def on_mount(self) -> None:
            self.redraw()

        def on_resize(self, event: Any) -> None:
            self.redraw()

        def redraw(self) -> None:
            from rich.text import Text

            picture, board = session.picture()
            width = board.cols * (4 if board.row_shift else 3) + 6
            height = board.rows + 2 * (board.boxes is not None) * board.rows // max(
                1, (board.boxes or (1, 1))[0]) + 6
            size = self.size
            if size.width < width or size.height < height:
                picture = Text(f"the terminal is too small for this board: it needs "
                               f"{width}x{height}, this one is {size.width}x{size.height}",
                               "bold red")
            self.query_one("#board").update(picture)
            self.query_one("#why").update(Text(session.message))
            self.query_one("#status").update(session.status(board))

        def on_key(self, event: Any) -> None:
            event.stop()
            if not session.press(event.key, event.character):
                self.exit()
                return
            self.redraw()

    return PlayApp()


def play_human(spec: Any, instance: Any, world_options: dict, seed: int | None, trace: Any,
               hint_agent: Callable[[], Any] | None) -> Any:
    """Run human play; returns the EpisodeResult of the kept actions (and writes `trace`)."""

    import time

    session = Session(spec, instance, world_options, seed, hint_agent)
    started = time.perf_counter()
    play_app(session, f"{spec.name} {instance.name}").run()
    session.seconds = time.perf_counter() - started
    return replay_actions(spec, instance, world_options, seed, session, trace)


def replay_actions(spec: Any, instance: Any, world_options: dict, seed: int | None,
                   session: Session, trace: Any) -> Any:
    """The kept actions through run_episode: the result (and trace) of a human game."""
    from logic_agents.world.runner import run_episode

    world = spec.make_world(instance, **world_options)
    result = run_episode(world, Scripted(session.actions, session.hints, session.undos), seed,
                         trace, game=spec.name, map_name=instance.name)
    if session.seconds is not None:  # the person's time at the board, not the replay's
        result.time_s = session.seconds
    return result


class Scripted:
    """The moves a person kept, as an agent (so a human game is recorded like any other)."""

    name = "human"

    def __init__(self, actions: list[Any], hints: int = 0, undos: int = 0):
        self.actions, self.hints, self.undos = list(actions), hints, undos

    def reset(self, seed: int | None = None) -> None:
        self._next = iter(self.actions)

    def act(self, observation: Any) -> Any:
        return next(self._next, None)

    def stats(self) -> dict:
        return {"guesses": 0, "hints": self.hints, "undos": self.undos}
