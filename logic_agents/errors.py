"""One hierarchy for every error logic-agents raises on purpose.

Concepts: LogicAgentsError (the root the CLI catches), FormatError (carries file:line:col),
SignatureError (an agent's reset or act the contract cannot call, named at its
definition), IllegalAction (a world refused an action), UnknownName (game, agent, solver, map), EncodingError
(a formula the compiler refuses, e.g. the sympy route's size guard), SolverError (misuse of a SAT
solver), UncertifiedClaim (an UNSAT answer whose proof a checker rejected), TraceMismatch
(replay disagrees), DependencyNotInstalled (an optional extra is missing),
UsageError (a command-line or agent option out of range), PluginFault (a plug-in game's code
failed at import, in its sniff or in `games --check`), AgentOptionError (an option an agent does not
take), AgentUnreadable (an agent's module does not read), AgentFailed (an agent's own code
raised, returned a non-action or ran out of time: the
game it played ends in outcome `error` or `timeout`, and the study goes on).
"""

from __future__ import annotations

import re

# a frame of a formatted traceback: its file, line and function, then the line's text
_TRACE_FRAME = re.compile(
    r'^  File "([^"]+)", line (\d+), in (\S+)\n(?:    (?!File ")(.*)\n)?', re.MULTILINE)


def innermost_at(frames: str, callers: bool = False) -> str:
    """The innermost frame of a formatted traceback as `file:line in function: the line's
    text`, and with `callers` the (at most two) calls that led there; "" when it has none."""
    found = [(m.group(1), m.group(2), m.group(3), (m.group(4) or "").strip())
             for m in _TRACE_FRAME.finditer(frames)]
    if not found:
        return ""
    file, line, function, text = found[-1]
    where = f"{file}:{line} in {function}" + (f": {text[:120]}" if text else "")
    if callers and len(found) > 1:
        led = [f"{f}:{n} in {fn}" for f, n, fn, _ in reversed(found[:-1])][:2]
        where += f" (called from {', '.join(led)})"
    return where


class LogicAgentsError(Exception):
    """Root of every error the command line turns into one line and exit code 2."""


class FormatError(LogicAgentsError):
    """Malformed input, located as file:line:col (1-based; col 0 means the whole line)."""

    def __init__(self, message: str, file: str = "<input>", line: int = 0, col: int = 0):
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        super().__init__(f"{file}:{line}:{col}: {message}")

    # pickled whole, so it crosses a process unchanged
    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (type(self), (self.message, self.file, self.line, self.col))


class SignatureError(LogicAgentsError, TypeError):
    """An agent's member that cannot be called as the contract calls it (its signature).

    `defined_at` is (file, line, name) of the member's definition: the one frame a row
    shows, since the call failed before any of the agent's own code ran.
    """

    def __init__(self, message: str, defined_at: tuple[str, int, str] | None = None):
        self.defined_at = defined_at
        super().__init__(message)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (type(self), (str(self), self.defined_at))


class IllegalAction(LogicAgentsError):
    """A world refused an action: off the board, on a finished episode, or against the rules."""


class UnknownName(LogicAgentsError):
    """A name (game, agent, solver, map, encoding) that is not registered."""


class EncodingError(LogicAgentsError):
    """A formula the compiler will not turn into clauses (unsupported shape or too large)."""


class SolverError(LogicAgentsError):
    """A SAT solver asked to do what it cannot (Kissat incrementally, CaDiCaL with a time-out)."""


class UncertifiedClaim(SolverError):
    """A solver's UNSAT answer whose proof a checker rejected (logic.certify): the claim it
    was to certify stands unproved."""


class TraceMismatch(LogicAgentsError):
    """Replaying a trace produced a different observation, reward or outcome."""


class DependencyNotInstalled(LogicAgentsError):
    """An optional extra is needed; the message names the `pip install` that provides it."""


class GenerationError(LogicAgentsError):
    """A map generator asked for the impossible (more daggers than free cells, ...)."""


class UsageError(LogicAgentsError):
    """A command-line mistake argparse itself cannot see, or an agent option out of range."""


class AgentUnreadable(UsageError):
    """An agent's module could not be read: a syntax error, an error its code raised as it was
    read, a name it lacks, or a read past the import cap. `kind` names it (SyntaxError,
    ImportError, Timeout, ...); a study plays such a submission's games as error rows."""

    def __init__(self, message: str, kind: str = "UsageError"):
        self.kind = kind
        super().__init__(message)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (type(self), (str(self), self.kind))


class ContractError(LogicAgentsError):
    """A game (its spec or its world) does not keep logic-agents' contract: see check_game."""


class PluginFault(LogicAgentsError):
    """A plug-in game's own code failed outside a game (its import, its sniff, its world in
    `games --check`): the game is named and left out, and the others work."""


class AgentOptionError(UsageError, TypeError):
    """An agent option that does not fit the agent (a TypeError too, as Python's own for a
    wrong keyword argument is)."""


class AgentFailed(LogicAgentsError):
    """An agent's own code failed: it raised in `where` (``__init__``, ``reset``, ``act``,
    ``why``, ``stats``, ``close``), returned what the world refused, or ran past a time cap
    (`timeout`). `line` is the one line a results row keeps ("ZeroDivisionError: division by
    zero"); `frames` are the agent's own traceback frames (its files, not the framework's)."""

    def __init__(self, agent: str, where: str, kind: str, message: str, *, step: int = 0,
                 frames: str = "", timeout: bool = False):
        self.agent, self.where, self.kind, self.message = agent, where, kind, message
        self.step, self.frames, self.timeout = step, frames, timeout
        super().__init__(f"agent {agent} failed in {self.place}: {self.line}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_rebuild_failure, (self.agent, self.where, self.kind, self.message, self.step,
                                   self.frames, self.timeout))

    @property
    def line(self) -> str:
        return f"{self.kind}: {self.message}" if self.message else self.kind

    @property
    def at(self) -> str:
        """Where in the agent's own code it failed (or was stopped): innermost_at of its
        frames, with the calls that led there for a time-out."""
        return innermost_at(self.frames, callers=self.timeout)

    @property
    def row_error(self) -> str:
        """The one line a results row keeps: what, where in the game, where in the code."""
        at = self.at
        return f"{self.line} (in {self.place})" + (f" at {at}" if at else "")

    @property
    def steps_done(self) -> int:
        """The moves made before the failure (a failing act or why is at step k: k-1 made)."""
        return max(0, self.step - 1) if self.where in ("act", "why") else 0

    @property
    def place(self) -> str:
        if self.where == "world":  # not the agent's code: the game's own, on its move
            return f"the world at step {self.step}"
        if self.where == "import":  # its module did not read: no agent was made
            return "reading its module"
        call = self.where if self.where.startswith("__") else f"{self.where}()"
        return f"{call} at step {self.step}" if self.where in ("act", "why") else call


def _rebuild_failure(agent: str, where: str, kind: str, message: str, step: int, frames: str,
                     timeout: bool) -> AgentFailed:
    return AgentFailed(agent, where, kind, message, step=step, frames=frames, timeout=timeout)
