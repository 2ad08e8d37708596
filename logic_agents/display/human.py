"""A person's game, without a screen: the state human play keeps, and how it is recorded.

Concepts:
- Session: the world, the kept actions, the cursor, the hint, the message; every key a person
  presses (press), a click on a cell (click, cell_at), restart and new game, undo (puzzles
  only: the world is rebuilt from the seed and the kept actions, so an undone move leaves no
  trace and is no step), a hint from the game's hint agent (a guess says it is one), the rules.
  Independent of Textual, so it is tested and reused (tui.py draws it; a notebook could).
- replay_actions, Scripted: the kept actions through run_episode, so a human game's result and
  trace are those of any other agent.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from logic_agents.display.terminal import board_text, counters_text
from logic_agents.errors import IllegalAction, LogicAgentsError, UsageError
from logic_agents.ground.shapes import Counters, Record
from logic_agents.world.core import AnyAgent, EpisodeResult, Why
from logic_agents.world.outcomes import ended, finished
from logic_agents.world.runner import run_episode
from logic_agents.world.seat import seated
from logic_agents.world.spec import GameSpec, Puzzle
from logic_agents.world.trace import Trace
from logic_agents.world.values import Instance
from logic_agents.world.view import BoardView, Cell, View, cells_in

ARROWS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
SHARED_HELP = "arrows move · {primary}{secondary}{own} · {undo}h hint · ? rules · q quit"


class Session:
    """The game state human play keeps: the world, the kept actions, the cursor, the hint.
    Independent of Textual, so it can be tested and reused (a notebook, another UI)."""

    def __init__(self, spec: GameSpec, instance: Instance, world_options: Record, seed: int | None,
                 hint_agent: Callable[[], AnyAgent] | None = None,
                 next_puzzle: Callable[[Instance], Instance] | None = None):
        view = spec.get(View)
        if view is None or view.controls is None:
            raise UsageError(f"{spec.name} has no controls for human play")
        self.spec, self.instance, self.world_options, self.seed = (spec, instance,
                                                                    world_options, seed)
        self.view = view
        self.controls = view.controls
        self.hint_agent = hint_agent
        # the puzzle `n` moves to after an instance (the next of its file or folder); without
        # one, `n` plays the same instance with the next seed
        self.next_puzzle = next_puzzle
        self.seconds: float | None = None  # how long the person played (play_human)
        self.actions: list[object] = []
        self.undos = self.hints = 0
        self.hint_move: tuple[Cell, ...] = ()  # the cells of the hinted move
        self.hint_proof: tuple[Cell, ...] = ()  # the cells its why names
        self.last_info: Record = {}
        self._rebuild()
        self._home_cursor()
        self.message = "? shows the rules"

    def _home_cursor(self) -> None:
        start = self.controls.cursor(self.obs) if self.controls.cursor else (0, 0)
        self.cursor: Cell = (start[0], start[1])  # a list from JSON too

    # -- the world -------------------------------------------------------------------------
    def _rebuild(self) -> None:
        self.world = self.spec.make_world(self.instance, **self.world_options)
        self.obs, _ = self.world.reset(seed=self.seed)
        self.outcome = (ended(self.world, on_terminated=False).value if finished(self.world)
                        else None)
        self.score = 0.0
        for action in self.actions:
            self._step(action)

    def _step(self, action: object) -> None:
        self.obs, reward, terminated, truncated, info = self.world.step(action)
        self.score += reward
        if terminated:
            self.outcome = ended(self.world).value
        elif truncated:
            self.outcome = "truncated"
        self.last_info = info

    @property
    def hint_cells(self) -> tuple[Cell, ...]:
        """Every cell the last hint marks (its move's and its proof's)."""
        return self.hint_move + self.hint_proof

    @property
    def can_undo(self) -> bool:
        return self.spec.get(Puzzle) is not None

    def rules(self) -> str:
        """The game's rules as a person reads them before a first move."""
        own = self.controls.rules or f"{self.spec.description}."
        return (f"{own}\n\nKeys: {self.help()}; r restarts, n starts a new game. A click on "
                "a cell acts there (left as space, right as f).")

    def restart(self) -> None:
        """The same puzzle from its start (undos and hints are kept: they were used)."""
        self.actions = []
        self._rebuild()
        self._home_cursor()
        self.hint_move = self.hint_proof = ()
        self.message = f"restarted {self.instance.name}"

    def new_game(self) -> None:
        """The next puzzle of the file or folder, or (with none) the next seed."""
        following = self.next_puzzle(self.instance) if self.next_puzzle is not None else None
        if following is not None and following is not self.instance:
            self.instance = following
        else:
            self.seed = (self.seed or 0) + 1
        self.undos = self.hints = 0
        self.restart()
        self.message = f"new game: {self.instance.name}, seed {self.seed}"

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
        if key == "r":
            self.restart()
            return True
        if key == "n":
            self.new_game()
            return True
        if key in ("question_mark", "?"):
            self.message = self.rules()
            return True
        if self.outcome is not None:
            self.message = ("the game is over: q quits, r restarts, n starts a new game"
                            + (", u undoes" if self.can_undo else ""))
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

    def click(self, cell: tuple[int, int], button: int = 1) -> None:
        """A click on a game cell: the cursor goes there and the left button acts as space,
        the right as f (in Mazes, where the arrows walk, a click only says so)."""
        rows, cols = self._extent()
        if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
            return
        if self.controls.arrows_act:
            self.message = "the arrows walk here; a click does nothing"
            return
        self.cursor = (cell[0], cell[1])
        if self.outcome is None:
            self.act("secondary" if button == 3 and self.controls.secondary else "primary")

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
            row, col = self.controls.cursor(self.obs)
            self.cursor = (row, col)
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
            row, col = self.controls.cursor(self.obs)
            self.cursor = (row, col)
        self.hint_move = self.hint_proof = ()
        self.message = f"undid {undone}"

    def hint(self) -> None:
        if self.hint_agent is None:
            self.message = "this game has no hint agent"
            return
        agent = seated(self.hint_agent())
        agent.reset(self.seed)
        try:
            action = agent.act(self.obs)
        finally:
            agent.close()
        self.hints += 1
        if action is None:
            self.message = "hint: the agent sees no move from here" + (
                "; undo" if self.can_undo else "")
            return
        why = agent.why or ""
        self.hint_move = tuple(self.view.cells_of(action))
        self.hint_proof = tuple(c for c in cells_in(why) if c not in self.hint_move)
        if isinstance(why, Why) and why.guess:  # advice the agent could not prove: say so
            self.message = f"hint, a guess (not proven): {action} — {why}"
        else:
            self.message = f"hint: {action}" + (f" — {why}" if why else "")

    # -- drawing ---------------------------------------------------------------------------
    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The game cell at (x, y) characters of the drawn board (its labels included)."""
        board = self.view.board(self.obs)
        width = 4 if board.row_shift else 3
        margin = max((len(board.row_label(r)) for r in range(board.rows)), default=0) + 1
        tile_row, line = -1, 1  # line 0 holds the column numbers
        for r in range(board.rows):
            if line == y:
                tile_row = r
                break
            line += 1
            if board.boxes and (r + 1) % board.boxes[0] == 0 and r + 1 < board.rows:
                line += 1
        if tile_row < 0:
            return None
        rest = x - margin - (round(board.row_shift[tile_row] * width) if board.row_shift else 0)
        tile_col, column = -1, 0
        for c in range(board.cols):
            if column <= rest < column + width:
                tile_col = c
                break
            column += width + (1 if board.boxes and (c + 1) % board.boxes[1] == 0 else 0)
        if tile_col < 0:
            return None
        return tile_row - board.origin[0], tile_col - board.origin[1]

    def picture(self) -> tuple[Text, BoardView]:
        board = self.view.board(self.obs)
        return board_text(board, cursor=None if self.controls.arrows_act else self.cursor,
                          move=self.hint_move, proof=self.hint_proof), board

    def status(self, board: BoardView | None = None) -> Text:
        """The status line (`board`: the BoardView of the current observation, if drawn)."""
        board = board if board is not None else self.view.board(self.obs)
        score = int(self.score) if float(self.score).is_integer() else round(self.score, 3)
        # a static puzzle scores nothing: its line counts steps alone (issue 54)
        counted = [("step", len(self.actions))] + ([] if self.spec.get(Puzzle) is not None
                                                   else [("score", score)])
        line = counters_text(board, counted)
        if self.outcome is not None:
            colour = {"won": "bold white on green", "lost": "bold white on red"}.get(
                self.outcome, "bold black on yellow")
            line = Text.assemble((f" {self.outcome.upper().replace('_', ' ')} ", colour),
                                 "  ", line)
        return line


def replay_actions(spec: GameSpec, instance: Instance, world_options: Record, seed: int | None,
                   session: Session, trace: Trace | None) -> EpisodeResult:
    """The kept actions through run_episode: the result (and trace) of a human game."""

    world = spec.make_world(instance, **world_options)
    result = run_episode(world, Scripted(session.actions, session.hints, session.undos), seed,
                         trace, game=spec.name, map_name=instance.name)
    if session.seconds is not None:  # the person's time at the board, not the replay's
        result.time_s = session.seconds
    return result


class Scripted:
    """The moves a person kept, as an agent (so a human game is recorded like any other)."""

    name = "human"

    def __init__(self, actions: list[object], hints: int = 0, undos: int = 0):
        self.actions, self.hints, self.undos = list(actions), hints, undos

    def reset(self, seed: int | None = None) -> None:
        self._next = iter(self.actions)

    def act(self, observation: object) -> object:
        return next(self._next, None)

    def stats(self) -> Counters:
        return {"guesses": 0, "hints": self.hints, "undos": self.undos}
