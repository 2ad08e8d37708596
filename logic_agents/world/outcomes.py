"""What a world says of its episode, read with WorldBase's declared defaults.

A world that does not derive from world.base.WorldBase (a plug-in's own, a Gymnasium env) may
leave out the members WorldBase declares (`outcome`, `summary()`, `hidden_state()`): the
runner, the checks and human play read them here, in one place.

Concepts: outcome_of, finished, world_summary, hidden_state_of, and ended (the typed outcome
a terminated episode must have).
"""

from __future__ import annotations

from logic_agents.errors import ContractError
from logic_agents.world.core import Outcome


def outcome_of(world: object) -> object:
    """The world's `outcome`: None while the episode runs (and when it declares none)."""
    return getattr(world, "outcome", None)


def finished(world: object) -> bool:
    """Whether the world says its episode is over (it has an outcome)."""
    return outcome_of(world) is not None


def world_summary(world: object) -> dict[str, object]:
    """The world's `summary()` as a new dict, {} when it has none.

    What it returns that is no mapping raises here, on the world's side of the Clock.
    """
    summary = getattr(world, "summary", None)
    return dict(summary()) if callable(summary) else {}


def hidden_state_of(world: object) -> object:
    """The world's `hidden_state()`, None when it has none."""
    hidden = getattr(world, "hidden_state", None)
    return hidden() if callable(hidden) else None


def ended(world: object, on_terminated: bool = True) -> Outcome:
    """How a world says its episode ended: its `outcome` (WON, LOST or ENDED).

    A Gymnasium env says `terminated` alone, which cannot tell a win from a loss:
    logic-agents refuses to guess.

    Raises:
        ContractError: the world has no such outcome; the message says what to add.
    """
    outcome = outcome_of(world)
    if isinstance(outcome, Outcome) and outcome in (Outcome.WON, Outcome.LOST, Outcome.ENDED):
        return outcome
    when = "ended the episode (terminated)" if on_terminated else "is finished at reset"
    raise ContractError(
        f"the world {type(world).__name__} {when} but says no outcome: set its `outcome` to "
        f"Outcome.WON, Outcome.LOST or Outcome.ENDED (a scored game), as world.base.WorldBase "
        f"does with self.end(...), not {outcome!r}")

