"""Every game as a Gymnasium environment, and a Gymnasium policy as an agent (extra `gym`).

Concepts:
- Importing this module registers one env per registered game, plug-ins included:
  `gymnasium.make("logic_agents/Daggers-v0", map="HARD1")` (`lights-out` is LightsOut-v0).
- The spaces come from the game's View, the one picture every viewer draws: an observation is
  the BoardView as arrays, `kinds` (the tile's kind, an index into `env.kinds`) and `text` (the
  code point of the tile's first character, 0 for none); an action is one Discrete index of
  (key, cell) over the game's Controls: `primary`, `secondary`, the arrows of a game that walks,
  and the keys of `Controls.alphabet`. `info["action_mask"]` marks the indices that mean a move
  the rules allow (`Controls.legal`; each distinct move once); an index outside it changes
  nothing, gives reward -1 and says why in `info["illegal"]`.
- render_mode "ansi" (the terminal's drawing of the BoardView) and "rgb_array" (its tiles in
  their palette colours, 16 pixels each).
- PolicyAgent: any callable from such an observation (and its mask) to an action index plays
  as an agent: in `compare`, beside satx, with paired seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from logic_agents.display.terminal import board_text
from logic_agents.errors import DependencyNotInstalled, IllegalAction, UsageError

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError:  # pragma: no cover - exercised without the extra
    raise DependencyNotInstalled(
        "logic_agents.gym needs the 'gym' extra: pip install 'logic-agents[gym]'") from None

from logic_agents.ground.shapes import Record
from logic_agents.world.core import Outcome
from logic_agents.world.outcomes import outcome_of
from logic_agents.world.registry import games, get_game
from logic_agents.world.resolve import resolve
from logic_agents.world.spec import GameSpec
from logic_agents.world.view import View

ARROWS = ("up", "down", "left", "right")
ILLEGAL_REWARD = -1.0
TILE_PIXELS = 16
NAMESPACE = "logic_agents"


def env_id(game: str) -> str:
    """logic_agents/Daggers-v0 for daggers, logic_agents/LightsOut-v0 for lights-out."""
    return f"{NAMESPACE}/{''.join(part.title() for part in game.split('-'))}-v0"


class Encoding:
    """A game's observations and actions as arrays and indices, fixed by its first
    observation (the board's size, the palette's kinds)."""

    def __init__(self, spec: GameSpec, first: object):
        view = spec.get(View)
        if view is None or view.controls is None:
            raise UsageError(f"{spec.name} has no View with Controls: it has no Gymnasium env")
        self.view, self.controls = view, view.controls
        board = view.board(first)
        self.shape = (board.rows, board.cols)
        self.kinds = ["", *sorted(board.palette)]
        if self.controls.cells is not None:
            rows, cols = self.controls.cells(first)
        else:
            rows, cols = board.rows - board.origin[0], board.cols - board.origin[1]
        self.cells = [(r, c) for r in range(rows) for c in range(cols)]
        self.keys = (["primary", "secondary"] + (list(ARROWS) if self.controls.arrows_act else [])
                     + list(self.controls.alphabet))
        self.observation_space = spaces.Dict({
            "kinds": spaces.Box(0, len(self.kinds) - 1, self.shape, dtype=np.int64),
            "text": spaces.Box(0, 0x10FFFF, self.shape, dtype=np.int64),
        })
        self.action_space = spaces.Discrete(len(self.keys) * len(self.cells))

    def observe(self, obs: object) -> Record:
        board = self.view.board(obs)
        index = {kind: i for i, kind in enumerate(self.kinds)}
        kinds = np.array([index.get(t.kind, 0) for t in board.tiles], dtype=np.int64)
        text = np.array([ord(t.text[0]) if t.text else 0 for t in board.tiles], dtype=np.int64)
        return {"kinds": kinds.reshape(self.shape), "text": text.reshape(self.shape)}

    def action(self, obs: object, index: int) -> object | None:
        """The game's action an index means here, or None."""
        key, cell = divmod(int(index), len(self.cells))
        return self.controls.act(obs, self.cells[cell], self.keys[key])

    def mask(self, obs: object) -> npt.NDArray[np.int8]:
        """1 where an index means a move the rules allow (Controls.legal); each distinct move
        is marked once."""
        out = np.zeros(self.action_space.n, dtype=np.int8)
        seen: set[object] = set()
        legal = self.controls.legal
        for index in range(self.action_space.n):
            action = self.action(obs, index)
            if action is not None and action not in seen and legal(obs, action):
                seen.add(action)
                out[index] = 1
        return out


class GameEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
    """One game on one instance, with Gymnasium's API."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, game: str, map: str | None = None, render_mode: str | None = None,
                 **world_options: object):
        self.spec_of_game = get_game(game)
        self.instance = resolve(map or self.spec_of_game.example, self.spec_of_game)[1][0]
        self.world = self.spec_of_game.make_world(self.instance, **world_options)
        first, _ = self.world.reset(seed=0)
        self.encoding = Encoding(self.spec_of_game, first)
        self.observation_space = self.encoding.observation_space
        self.action_space = self.encoding.action_space
        self.kinds = self.encoding.kinds
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode {render_mode!r}: one of ansi, rgb_array")
        self.render_mode = render_mode
        self._obs: object = first

    def reset(self, *, seed: int | None = None,
              options: Record | None = None) -> tuple[Record, Record]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31))
        self._obs, info = self.world.reset(seed=seed)
        return self.encoding.observe(self._obs), {**info,
                                                  "action_mask": self.encoding.mask(self._obs)}

    def step(self, index: int | np.integer[Any]) -> tuple[Record, float, bool, bool, Record]:
        action = self.encoding.action(self._obs, int(index))
        try:
            if action is None:
                raise IllegalAction(f"index {int(index)} means no move here")
            self._obs, reward, terminated, truncated, info = self.world.step(action)
        except IllegalAction as e:
            info = {"illegal": str(e)}
            return (self.encoding.observe(self._obs), ILLEGAL_REWARD, False, False,
                    {**info, "action_mask": self.encoding.mask(self._obs)})
        outcome = outcome_of(self.world)
        info = {**info, "action_mask": self.encoding.mask(self._obs),
                "outcome": outcome.value if isinstance(outcome, Outcome) else None}
        return self.encoding.observe(self._obs), float(reward), terminated, truncated, info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        board = self.encoding.view.board(self._obs)
        if self.render_mode == "ansi":
            return board_text(board).plain
        if self.render_mode == "rgb_array":
            image = np.zeros((board.rows * TILE_PIXELS, board.cols * TILE_PIXELS, 3),
                             dtype=np.uint8)
            for r in range(board.rows):
                for c in range(board.cols):
                    fill = _rgb(board.colours(board.tile(r, c).kind)[0])
                    image[r * TILE_PIXELS:(r + 1) * TILE_PIXELS,
                          c * TILE_PIXELS:(c + 1) * TILE_PIXELS] = fill
                    image[r * TILE_PIXELS, c * TILE_PIXELS:(c + 1) * TILE_PIXELS] = 200
                    image[r * TILE_PIXELS:(r + 1) * TILE_PIXELS, c * TILE_PIXELS] = 200
            return image
        return None


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        return 128, 128, 128


class PolicyAgent:
    """A Gymnasium policy as an agent: `policy(observation, action_mask) -> index` (or a
    policy of one argument, the observation). It sees what the env would show it; an index
    that means no move the rules allow gives the game up (the env would answer it with -1)."""

    name = "policy"

    def __init__(self, policy: Callable[..., Any], game: str, name: str | None = None):
        self.policy, self.spec_of_game = policy, get_game(game)
        if name is not None:
            self.name = name
        self.encoding: Encoding | None = None

    def reset(self, seed: int | None = None) -> None:
        self.encoding = None
        reset = getattr(self.policy, "reset", None)
        if callable(reset):
            reset(seed)

    def act(self, obs: object) -> object | None:
        if self.encoding is None:
            self.encoding = Encoding(self.spec_of_game, obs)
        arrays, mask = self.encoding.observe(obs), self.encoding.mask(obs)
        try:
            index = self.policy(arrays, mask)
        except TypeError:
            index = self.policy(arrays)
        action = self.encoding.action(obs, int(index))
        if action is None or not self.encoding.controls.legal(obs, action):
            return None
        return action


def policy_agent(make_policy: Callable[[], Any], game: str,
                 name: str = "policy") -> Callable[[], PolicyAgent]:
    """A factory of PolicyAgents (a fresh policy per game, as a study needs), named `name`:
    `la.compare([policy_agent(MaskedRandom, "daggers", "masked-random"), "satx"], ["2018"])`."""

    def make() -> PolicyAgent:
        return PolicyAgent(make_policy(), game, name)

    make.name = name  # type: ignore[attr-defined]  # what tables call the agent
    return make


class UniformRandom:
    """A policy: a uniformly random index of the whole action space, as
    `env.action_space.sample()` (an index that means no move here gives the game up)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Record, mask: npt.NDArray[np.int8]) -> int:
        return int(self.rng.integers(len(mask)))


class MaskedRandom:
    """A policy: a uniformly random index among the masked-in ones (its own seeded RNG)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Record, mask: npt.NDArray[np.int8]) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


def register_envs() -> list[str]:
    """Register one env per registered game (again when plug-ins appear); their ids."""
    ids = []
    for name in games():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(ident, entry_point=f"{__name__}:GameEnv", kwargs={"game": name})
        ids.append(ident)
    return ids


ENV_IDS = register_envs()
