"""SatTeacher: the proofs of a game's SAT reasoning as labels beside each observation.

Concepts: SatTeacher(env) wraps a GameEnv of a game with the Proofs capability (Daggers), and
keeps one Prover per episode (Daggers': one incremental knowledge base, as satx keeps).
After every reset and step, `info["proved_safe"]` holds the action indices of the moves the
knowledge base proves safe (each a move the mask allows: taking one never loses), and
`info["proved_dangerous"]` a 0/1 array of the board's shape, 1 where a cell is proved to hold
a dagger. Imitation and curriculum learning can use them as labels; no other Minesweeper env
gives a proof with its labels.

SatTeacher(env, certify=True) (or a checker's name, logic.certify.CHECKERS) certifies every
UNSAT answer a label rests on as it is given: a rejected proof raises UncertifiedClaim, never
a quiet label; `info["claims"]` and `info["certified"]` count the episode's.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.gym.env import GameEnv
from logic_agents.logic.certify import CHECKERS, DEFAULT_CHECKER
from logic_agents.world.values import CertifyingProver, Proofs, Prover


class SatTeacher(gymnasium.Wrapper):  # type: ignore[misc, unused-ignore]
    """See the module docstring."""

    def __init__(self, env: gymnasium.Env,  # type: ignore[type-arg, unused-ignore]
                 certify: bool | str = False):
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
        self.checker = (DEFAULT_CHECKER if certify is True else certify) or None
        if self.checker is not None:
            if proofs.certified is None:
                raise UsageError(f"{game.spec_of_game.name}'s proofs cannot be certified")
            if self.checker not in CHECKERS:
                raise UsageError(f"unknown proof checker {self.checker!r}; choose one of "
                                 f"{', '.join(CHECKERS)}")
        self.prover: Prover[Any, Any] | None = None  # this episode's, told each observation
        self.certifying: CertifyingProver[Any, Any] | None = None  # the prover, when certifying
        self.last: tuple[object, Record] | None = None  # (observation, its labels)

    def _taught(self, info: Record) -> Record:
        game = self.game
        obs = game.observation
        if self.last is not None and self.last[0] is obs:  # a refused index changed nothing
            held = self.last[1]
            return {**info, **held, "proved_safe": list(held["proved_safe"]),
                    "proved_dangerous": held["proved_dangerous"].copy()}
        dangerous = np.zeros(game.encoding.shape, dtype=np.int8)
        safe: list[int] = []
        if not game.ended and self.prover is not None:  # a finished game proves nothing more
            moves, cells = self.prover.prove(obs)
            wanted = set(moves)
            look = game.look
            safe = [i for i in np.flatnonzero(look.mask).tolist()
                    if game.encoding.action(obs, i, look.extent) in wanted]
            board = look.board
            for cell in cells:
                tile = board.tile_of(cell)
                if tile is not None:
                    dangerous[tile] = 1
        labels: Record = {"proved_safe": safe, "proved_dangerous": dangerous}
        if self.certifying is not None:
            claims, certified, _ = self.certifying.certificates
            labels.update(claims=claims, certified=certified)
        self.last = (obs, labels)
        return {**info, **labels}

    def reset(self, **kwargs: Any) -> tuple[Record, Record]:
        obs, info = self.env.reset(**kwargs)
        self._close_prover()
        certified = self.proofs.certified
        self.certifying = (certified(self.checker) if self.checker is not None and certified
                           else None)
        self.prover = self.certifying or self.proofs.prover()
        self.last = None
        return obs, self._taught(info)

    def _close_prover(self) -> None:
        if self.prover is not None:
            self.prover.close()
            self.prover = self.certifying = None

    def close(self) -> None:
        self._close_prover()
        super().close()

    def step(self, action: object) -> tuple[Record, float, bool, bool, Record]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, float(reward), terminated, truncated, self._taught(info)
