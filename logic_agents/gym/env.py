"""GameEnv: one game as a Gymnasium environment, and the registration of every game's env.

Concepts:
- Boards: `map=` names a map, a file of many, a folder (`"2018"`) or, for a game whose
  Generator makes instances for `compare --generate` (Daggers), a preset (`"beginner"`,
  `"beginner,expert"`) with `generate_options` (`{"start": (3, 3)}`). `reset(seed=s)` plays
  board s: the s-th of a folder (modulo its size), or the board the generator makes from
  seed s, so the same seed gives the same board and another seed another one.
- The door: an action is an index of the Discrete space, an int (a numpy integer, a 0-d
  integer array); anything else, or an index outside the space, raises a UsageError. An
  index the mask leaves out (no move, or a second index of a move already marked) changes
  nothing, costs ILLEGAL_REWARD and says why in `info["illegal"]`. After the end, a step
  changes nothing, gives 0 and the same end, and the mask is all zeros.
- `action_masks()` (as sb3-contrib's MaskablePPO asks) and `info["action_mask"]`.
- Options are checked when the env is made (as `logic_agents.make_world` checks them); an
  env pickles (the game is looked up again by name), so vector envs run it in subprocesses.
- register_envs(): logic_agents/<Game>-v0 for every registered game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from logic_agents.api.arguments import options_of, world_options_of
from logic_agents.errors import IllegalAction, LogicAgentsError, UsageError
from logic_agents.ground.shapes import Record
from logic_agents.gym.encoding import Encoding, Look
from logic_agents.gym.render import ansi_board, rgb_board
from logic_agents.study.entries import entries_from_references
from logic_agents.world.core import AnyWorld, Outcome
from logic_agents.world.outcomes import outcome_of
from logic_agents.world.registry import game_names, get_game
from logic_agents.world.spec import GameSpec, Generator
from logic_agents.world.values import Instance

ILLEGAL_REWARD = -1.0
NAMESPACE = "logic_agents"
ENDED = "the episode has ended: reset() starts another"


def env_id(game: str) -> str:
    """logic_agents/Daggers-v0 for daggers, logic_agents/LightsOut-v0 for lights-out."""
    return f"{NAMESPACE}/{''.join(part.title() for part in game.split('-'))}-v0"


class Boards:
    """The boards an env plays: a fixed list (board s is the s-th, modulo), or a generator's
    preset (board s is the one it makes from seed s)."""

    def __init__(self, spec: GameSpec, ref: str, generate_options: Mapping[str, object]):
        self.spec, self.ref, self.options = spec, ref, dict(generate_options)
        self.fixed: list[Instance] = []
        self.presets = 0
        generator = spec.get(Generator)
        try:
            self.fixed = [e.instance for e in entries_from_references([ref], spec)]
        except LogicAgentsError as error:
            if generator is None or generator.for_compare is None:
                raise UsageError(f"map={ref!r}: {error}") from None
            try:
                self.presets = len(generator.for_compare(ref, 1, 0, self.options))
            except LogicAgentsError as again:
                raise UsageError(f"map={ref!r} is no {spec.name} map, file or folder ({error}), "
                                 f"nor what its generator makes ({again})") from None
        if self.fixed and self.options:
            raise UsageError("generate_options are for generated boards; "
                             f"map={ref!r} names boards that exist")

    def board(self, seed: int) -> Instance:
        """Board `seed`."""
        if self.fixed:
            return self.fixed[seed % len(self.fixed)]
        generator = self.spec.need(Generator, "gym")
        assert generator.for_compare is not None
        made = generator.for_compare(self.ref, 1, seed, self.options)
        return made[seed % len(made)][0]

    def samples(self) -> list[Instance]:
        """One board of each shape it plays (every fixed one; the first of each preset)."""
        if self.fixed:
            return self.fixed
        return [self.board(k) for k in range(self.presets)]


class GameEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
    """One game with Gymnasium's API (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, game: str, map: str | None = None, render_mode: str | None = None,
                 generate_options: Mapping[str, object] | None = None, **world_options: object):
        if not isinstance(game, str):
            raise UsageError(f"game must be a game's name (a str), not {type(game).__name__}")
        if map is not None and not isinstance(map, str):
            raise UsageError(f"map must be a str (a map, a folder or a preset), not "
                             f"{type(map).__name__}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode {render_mode!r}: one of ansi, rgb_array")
        self._made_with = (game, map, render_mode, dict(options_of(generate_options or {},
                                                                   "generate_options")),
                           dict(world_options))
        self._build()
        self._look: Look | None = None  # the observation now, read once (encoding.Look)
        self._over: tuple[bool, bool] | None = None  # (terminated, truncated) once it ended

    def _build(self) -> None:
        game, map, render_mode, generate_options, world_options = self._made_with
        spec = get_game(game)
        self.spec_of_game, self.render_mode = spec, render_mode
        self.world_options = world_options_of(spec, world_options, "world options")
        self.boards = Boards(spec, map or spec.example, generate_options)
        firsts = [self._new_world(board).reset(seed=0)[0] for board in self.boards.samples()]
        self.encoding = Encoding(spec, firsts)
        self.observation_space = self.encoding.observation_space
        self.action_space = self.encoding.action_space
        self.kinds, self.counter_names = self.encoding.kinds, self.encoding.counter_names
        self.instance: Instance | None = None
        self.world: AnyWorld | None = None

    def _new_world(self, board: Instance) -> AnyWorld:
        try:
            world: AnyWorld = self.spec_of_game.make_world(board, **self.world_options)
        except (TypeError, ValueError) as e:
            raise UsageError(f"world options {self.world_options}: {e}") from None
        return world

    def reset(self, *, seed: int | None = None,
              options: Record | None = None) -> tuple[Record, Record]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31))
        board = self.boards.board(seed)
        if self.world is None or board is not self.instance:
            self.world, self.instance = self._new_world(board), board
        obs, info = self.world.reset(seed=seed)
        self._look, self._over = self.encoding.look(obs), None
        return self._look.copies(), {**info, "action_mask": self.action_masks(),
                                     "map": board.name}

    @property
    def look(self) -> Look:
        """The observation now, read once: board, extent, arrays, mask (after reset)."""
        if self._look is None:
            raise UsageError("no observation before reset(): reset() starts an episode")
        return self._look

    @property
    def observation(self) -> object:
        """The game's own observation now (what the arrays encode), None before reset."""
        return None if self._look is None else self._look.obs

    @property
    def ended(self) -> bool:
        """Whether the episode has ended (terminated or truncated)."""
        return self._over is not None

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 where an index means a move the rules allow now (all 0 once the episode ended)."""
        if self._look is None or self._over is not None:
            return np.zeros(self.encoding.action_space.n, dtype=np.int8)
        return self._look.mask.copy()

    def _index(self, action: object) -> int:
        if isinstance(action, np.ndarray) and action.shape == () and \
                np.issubdtype(action.dtype, np.integer):
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise UsageError(f"an action is an index of {self.action_space} (an int), not "
                             f"{action!r:.60}")
        if not 0 <= int(action) < self.encoding.action_space.n:
            raise UsageError(f"action {int(action)} is outside {self.action_space}")
        return int(action)

    def step(self, action: object) -> tuple[Record, float, bool, bool, Record]:
        index = self._index(action)
        if self.world is None or self._look is None:
            raise UsageError("step() before reset(): reset() starts an episode")
        look = self._look
        if self._over is not None:
            return (look.copies(), 0.0, *self._over,
                    {"illegal": ENDED, "action_mask": self.action_masks()})
        if not look.mask[index]:
            why = "means no move the rules allow here"
            if self.encoding.action(look.obs, index, look.extent) is not None and look.mask.any():
                why = "is not the index the mask gives this move (or the rules refuse it)"
            return (look.copies(), ILLEGAL_REWARD, False, False,
                    {"illegal": f"index {index} {why}", "action_mask": self.action_masks()})
        move = self.encoding.action(look.obs, index, look.extent)
        try:
            obs, reward, terminated, truncated, info = self.world.step(move)
        except IllegalAction as e:  # the mask said yes, the world no: a game's own doubt
            return (look.copies(), ILLEGAL_REWARD, False, False,
                    {"illegal": str(e), "action_mask": self.action_masks()})
        self._look = self.encoding.look(obs)
        if terminated or truncated:
            self._over = (bool(terminated), bool(truncated))
        outcome = outcome_of(self.world)
        info = {**info, "action_mask": self.action_masks(),
                "outcome": outcome.value if isinstance(outcome, Outcome) else None}
        return self._look.copies(), float(reward), bool(terminated), bool(truncated), info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        if self._look is None:
            return None
        board = self._look.board
        if self.render_mode == "ansi":
            return ansi_board(board)
        if self.render_mode == "rgb_array":
            return rgb_board(board)
        return None

    def __getstate__(self) -> dict[str, Any]:
        """What pickles: how the env was made and where its episode is (the game's spec,
        its codecs and the encoding are looked up again by name)."""
        return {"made_with": self._made_with, "world": self.world, "instance": self.instance,
                "obs": self.observation, "over": self._over, "np_random": self._np_random}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._made_with = state["made_with"]
        self._build()
        self.world, self.instance = state["world"], state["instance"]
        self._look = None if state["obs"] is None else self.encoding.look(state["obs"])
        self._over = state["over"]
        self._np_random = state["np_random"]


def register_envs() -> list[str]:
    """Register one env per registered game (again when plug-ins appear); their ids."""
    ids = []
    for name in game_names():  # by name: a plug-in loads when its env is made
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(ident, entry_point=f"{__name__}:GameEnv", kwargs={"game": name})
        ids.append(ident)
    return ids
