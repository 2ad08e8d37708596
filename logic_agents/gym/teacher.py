"""SatTeacher: the proofs of a game's SAT reasoning as labels beside each observation.

Concepts: SatTeacher(env) wraps a GameEnv of a game with the Proofs capability (Daggers).
After every reset and step, `info["proved_safe"]` holds the action indices of the moves the
knowledge base proves safe (each a move the mask allows: taking one never loses), and
`info["proved_dangerous"]` a 0/1 array of the board's shape, 1 where a cell is proved to hold
a dagger. Imitation and curriculum learning can use them as labels; no other Minesweeper env
gives a proof with its labels.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.gym.env import GameEnv
from logic_agents.world.values import Proofs


class SatTeacher(gymnasium.Wrapper):  # type: ignore[misc, unused-ignore]
    """See the module docstring."""

    def __init__(self, env: gymnasium.Env):  # type: ignore[type-arg, unused-ignore]
        super().__init__(env)
        game = env.unwrapped
        if not isinstance(game, GameEnv):
            raise UsageError(f"SatTeacher wraps a logic_agents env, not {type(game).__name__}")
        self.game = game
        proofs = game.spec_of_game.get(Proofs)
        if proofs is None:
            raise UsageError(f"{game.spec_of_game.name} proves nothing for a teacher (it has no "
                             "Proofs capability)")
        self.proofs: Proofs[Any, Any] = proofs

    def _taught(self, info: Record) -> Record:
        game = self.game
        dangerous = np.zeros(game.encoding.shape, dtype=np.int8)
        safe: list[int] = []
        if not game.ended:  # a finished game proves nothing more
            obs = game.observation
            moves, cells = self.proofs.prove(obs)
            wanted = set(moves)
            extent = game.encoding.extent(obs)
            safe = [i for i in np.flatnonzero(game.action_masks()).tolist()
                    if game.encoding.action(obs, i, extent) in wanted]
            board = game.encoding.view.board(obs)
            for cell in cells:
                tile = board.tile_of(cell)
                if tile is not None:
                    dangerous[tile] = 1
        return {**info, "proved_safe": safe, "proved_dangerous": dangerous}

    def reset(self, **kwargs: Any) -> tuple[Record, Record]:
        obs, info = self.env.reset(**kwargs)
        return obs, self._taught(info)

    def step(self, action: object) -> tuple[Record, float, bool, bool, Record]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, float(reward), terminated, truncated, self._taught(info)
