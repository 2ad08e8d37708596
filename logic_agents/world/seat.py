"""The agent contract, declared: what the referee calls on an agent, with its defaults.

Concepts:
- Agent (world.core): what an author writes, two members, reset(seed) and act(observation).
- Seated: the whole contract the runner and a player process call, with the optional members
  declared: `name`, `why` (the reason for the last move, or None), `stats()` (counters),
  `close()` (free what the episode held), `explain_claim(action)` (what a move claimed proved
  rested on, asked only when the hidden state refutes it). An agent in a player process (referee.remote's
  RemoteAgent) implements it itself.
- Seat: any agent object, wrapped once where it enters the referee's hands (run_episode, a
  player process), supplying the defaults an author left out: name = the object's own `name`
  or its class's; why = None; stats() = {}; close() does nothing. The agent's own code still
  runs on every call, so what it raises is for the caller's Clock to catch; the Seat reads
  the optional members when they are asked for, never at construction.
- missing_members(obj): which of reset/act an object lacks (the one test of "is an agent").
- A reset or act the contract cannot call as it does (`def reset(self):`, no seed) fails as
  errors.SignatureError, in words that say what to write, at the member's definition: the call
  failed before any of the agent's code ran, so no frame of its own would say where.
- Elsewhere: a factory whose agents are built and play in another process (the referee's
  RemoteFactory): build_agent asks it to `make` one, under the caller's guard.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from logic_agents.errors import SignatureError
from logic_agents.world.calls import Calls
from logic_agents.world.core import own_name

REQUIRED = ("reset", "act")


def missing_members(obj: object) -> list[str]:
    """The required members that an object lacks.

    Reading a member runs the object's own code (a property may raise): a member whose
    reading raises counts as missing.

    Args:
        obj: an agent, an agent class, or anything offered as one.

    Returns:
        The names among `reset` and `act` that are not callable members of `obj`.
    """
    missing = []
    for member in REQUIRED:
        try:
            found = callable(getattr(obj, member, None))
        except Exception:
            found = False
        if not found:
            missing.append(member)
    return missing


class Seated(ABC):
    """The whole agent contract, as the referee calls it, with its defaults.

    Seat and referee.remote.RemoteAgent are the two kinds; an author subclasses neither.
    """

    name: str = ""
    # False for an agent that keeps its own deadlines (one in a player process: referee.remote):
    # the runner says so to its guard, which then sets no alarm for its calls
    needs_alarm = True

    @abstractmethod
    def reset(self, seed: int | None = None) -> None:
        """Start an episode with `seed`."""

    @abstractmethod
    def act(self, observation: Any) -> Any:
        """The next action for `observation`, or None to give up."""

    @property
    def why(self) -> object:
        """The reason for the last move (a str or a core.Why), or None."""
        return None

    def stats(self) -> object:
        """The counters of the episode, name -> number (checked by the runner)."""
        return {}

    def explain_claim(self, action: Any) -> object:
        """What a move claimed proved rested on, in words (asked once the board refutes it).

        None by default, and for an agent in a player process (its words travel in `why`).
        """
        return None

    def close(self) -> None:
        """Free what the episode held (by default, there is nothing to free)."""
        return None


class Seat(Seated):
    """An agent object with the whole contract (see the module docstring)."""

    def __init__(self, agent: object):
        """Seat `agent` (it has reset and act: see missing_members)."""
        self.agent = agent
        self.name = own_name(agent) or type(agent).__name__

    def reset(self, seed: int | None = None) -> None:
        """The agent's own reset."""
        reset = self.agent.reset  # type: ignore[attr-defined]  # checked: missing_members
        try:
            reset(seed)
        except TypeError as e:
            raise _contract(e, reset, "reset", "seed", "def reset(self, seed=None):") from None

    def act(self, observation: Any) -> Any:
        """The agent's own act."""
        act = self.agent.act  # type: ignore[attr-defined]  # (as reset)
        try:
            return act(observation)
        except TypeError as e:
            raise _contract(e, act, "act", "the observation",
                            "def act(self, observation):") from None

    @property
    def why(self) -> object:
        """The agent's `why`, or None when it keeps none."""
        return getattr(self.agent, "why", None)

    def explain_claim(self, action: Any) -> object:
        """The agent's `explain_claim(action)`, or None when it has none."""
        explain = getattr(self.agent, "explain_claim", None)
        return explain(action) if callable(explain) else None

    def stats(self) -> object:
        """The agent's `stats()`, or {} when it keeps none."""
        stats_of = getattr(self.agent, "stats", None)
        return stats_of() if callable(stats_of) else {}

    def close(self) -> None:
        """The agent's `close()`, when it has one."""
        close = getattr(self.agent, "close", None)
        if callable(close):
            close()


def _contract(error: TypeError, member: Callable[..., Any], name: str, takes: str,
              write: str) -> TypeError:
    """`error` itself, or SignatureError where the member cannot take one argument at all.

    Only a call that failed before entering the member (no frame of it in the traceback) and
    that its signature refuses is the contract's: a TypeError its own code raised is its own.
    """
    if error.__traceback__ is not None and error.__traceback__.tb_next is not None:
        return error  # raised inside the member's own code
    try:
        inspect.signature(member).bind(None)
        return error
    except TypeError:
        pass
    except ValueError:  # no signature to read (a builtin)
        return error
    code = getattr(getattr(member, "__func__", member), "__code__", None)
    defined_at = None
    if code is not None:
        defined_at = (code.co_filename, code.co_firstlineno, code.co_name)
    try:
        yours = f"def {name}{inspect.signature(getattr(member, '__func__', member))}:"
    except (TypeError, ValueError):
        yours = ""
    return SignatureError(f"{name}() must take {takes}: write `{write}`"
                         + (f" (yours is `{yours}`)" if yours else ""), defined_at)


def seated(agent: object) -> Seated:
    """`agent` with the whole contract: itself when it is Seated, else wrapped in a Seat."""
    return agent if isinstance(agent, Seated) else Seat(agent)


class Elsewhere(ABC):
    """A factory whose agents are built and play in another process (referee.remote)."""

    @abstractmethod
    def make(self, options: dict[str, object], calls: Calls) -> Seated:
        """An agent built with `options` in its own process, guarded by `calls`."""
