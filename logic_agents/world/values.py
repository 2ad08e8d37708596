"""What the framework reads of a game's own values: no more than it needs.

Concepts:
- Instance: a map or a puzzle, of which the framework reads its `name`;
- Answer: the status, a solution and a second one (logic_agents.solving.SolveResult is the
  one the shipped games give; the world reads any object with these members);
- Solve: the shape of a Puzzle capability's `solve(instance, unique, solver)`;
- Proofs: a capability, what a game's SAT reasoning proves of an observation: the moves
  proved safe and the cells proved dangerous (Daggers: the satx backbone), by a Prover made
  once per episode. The Gymnasium env's SatTeacher gives them as labels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

S_co = TypeVar("S_co", covariant=True)  # a puzzle's solution
I_contra = TypeVar("I_contra", contravariant=True)  # a puzzle's instance


@runtime_checkable
class Instance(Protocol):
    """What the framework reads of a game's instance (a map, a puzzle): its name; no more."""

    @property
    def name(self) -> str:
        """A one-line str."""
        ...


class Answer(Protocol[S_co]):
    """What a puzzle's `solve` answers (logic_agents.solving.SolveResult is one).

    `status` is "unique", "multiple", "solved" or "unsat"; `second` is a different solution,
    the evidence that a puzzle is not unique.
    """

    @property
    def status(self) -> str:
        """How the search ended."""
        ...

    @property
    def solution(self) -> S_co | None:
        """A solution, None when there is none."""
        ...

    @property
    def second(self) -> S_co | None:
        """A second solution, when `status` is "multiple"."""
        ...


class Solve(Protocol[I_contra, S_co]):
    """A puzzle's solver: `solve(instance, unique, solver)`, `solver` a PySAT name or None."""

    def __call__(self, instance: I_contra, unique: bool = ..., solver: str | None = ..., /
                 ) -> Answer[S_co]:
        """The answer for one instance; `unique` also looks for a second solution."""
        ...


Obs = TypeVar("Obs")  # a game's observation
Act = TypeVar("Act")  # a game's action
Obs_contra = TypeVar("Obs_contra", contravariant=True)
Act_co = TypeVar("Act_co", covariant=True)


class Prover(Protocol[Obs_contra, Act_co]):
    """One episode's SAT reasoning, told each observation in turn.

    Its knowledge base grows with the episode instead of being rebuilt at every step.
    """

    def prove(self, obs: Obs_contra) -> tuple[Sequence[Act_co], Sequence[tuple[int, int]]]:
        """(The moves proved safe, the cells (row, column) proved dangerous) after `obs`."""
        ...

    def close(self) -> None:
        """Free the episode's solver."""
        ...


class CertifyingProver(Prover[Obs_contra, Act_co], Protocol[Obs_contra, Act_co]):
    """A Prover whose every UNSAT answer a proof checker accepts (logic.certify)."""

    @property
    def certificates(self) -> tuple[int, int, int]:
        """(claims, certified, lemmas) of the episode so far."""
        ...


@dataclass(frozen=True)
class Proofs(Generic[Obs, Act]):
    """What a game's SAT reasoning proves of an observation (a capability).

    `prover()` makes a Prover for one episode; a move it proves safe must never lose
    (tests/test_gym.py checks Daggers' over thousands of boards). `certified(checker)`, where
    the game has one, makes a Prover whose every UNSAT answer a proof checker accepts
    (logic.certify), counting them in its `certificates` (claims, certified, lemmas).
    """

    prover: Callable[[], Prover[Obs, Act]]
    certified: Callable[[str], CertifyingProver[Obs, Act]] | None = None
