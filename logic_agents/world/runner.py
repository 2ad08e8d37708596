"""run_episode: the only step loop in logic-agents.

Concepts: the world is reset with the episode's seed and the agent with a seed derived from it
by a keyed one-way function (world.seeds), so the agent learns nothing of the world's draws;
the agent sees observations only;
each step may be written to a Trace; the result is an EpisodeResult. An agent may expose
`stats() -> dict` (guesses, queries, ...) and `close()`, called when the episode ends however
it ends; a world may expose `summary() -> dict` (lives_left, score). Every call into the agent
goes through a guard (world.calls.Calls; the referee's Clock keeps time): an agent that
raises, returns an action the world refuses (IllegalAction) or runs past a cap ends its
episode with outcome `error` or `timeout`, the
error's one line in `result.error` and the agent's frames in `result.frames`. How the game
ended is the world's typed `outcome` (world.outcomes.ended), never an `info` key; once it has
ended, the agent's later failures (its why on the last move, stats(), close()) are a note in
`result.error` ("after the game ended, ..."), never the outcome: an error can be retried.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from logic_agents.errors import AgentFailed, IllegalAction
from logic_agents.ground.inputs import is_text
from logic_agents.ground.shapes import Record
from logic_agents.world.calls import Calls, PassThrough
from logic_agents.world.core import AnyAgent, AnyWorld, EpisodeResult, Outcome
from logic_agents.world.outcomes import ended, finished, world_summary
from logic_agents.world.seat import Seated, seated
from logic_agents.world.seeds import PUBLIC_KEY
from logic_agents.world.seeds import agent_seed as derived_seed
from logic_agents.world.trace import Trace

MAX_COUNTER = 10**15  # a results file keeps counters below this (see study.rows.read_rows)
MAX_COUNTER_NAME = 100
# what a world's step raises on an action of the wrong shape, when it does not check it itself
MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError)
# what a step's call into the world lets out as it is: the agent's illegal or malformed action
_STEP_PASSES = (IllegalAction, *MALFORMED)


def run_episode(
    world: AnyWorld,
    agent: AnyAgent,
    seed: int | None = None,
    trace: Trace | None = None,
    *,
    game: str = "",
    map_name: str = "",
    on_step: Callable[[Any, Any, float], None] | None = None,  # (the game's obs, action, reward)
    clock: Calls | None = None,
    agent_key: bytes = PUBLIC_KEY,
    agent_seed: int | None = None,
) -> EpisodeResult:
    """Play one episode.

    Every call into the agent goes through `clock` (default: no caps), so an agent that fails
    ends the episode with outcome error or timeout instead of raising.

    Args:
        world: the game's world.
        agent: any agent (reset and act); the optional members are read with their defaults.
        seed: the episode's seed, given to the world's reset; the agent's reset is given
            `seeds.agent_seed(seed, agent_key)`, a stream of its own.
        trace: a Trace to write each step to.
        game: the game's name, for the result.
        map_name: the instance's name, for the result.
        on_step: called with (observation, action, reward) after each step.
        clock: the caps on the agent's calls.
        agent_key: the key the agent's seed is derived with (a study's own, else public).
        agent_seed: the agent's seed itself, given (a study's game played again), instead.

    Returns:
        The EpisodeResult.
    """
    clock = clock or Calls()
    seat = seated(agent)  # the whole contract, its defaults supplied once, here
    clock.agent = seat.name
    clock.start_game()
    start, cpu_start = time.perf_counter(), time.process_time()
    state = _Episode()
    failure: AgentFailed | None = None
    try:
        given = agent_seed if agent_seed is not None else derived_seed(seed, agent_key)
        _play(world, seat, seed, given, trace, game, map_name, on_step, clock, state)
    except AgentFailed as e:
        failure = e
    except PassThrough:  # a framework hook stopped the episode: the agent is still closed
        with contextlib.suppress(AgentFailed):
            clock.call("close", seat.close, step=state.steps, alarm=seat.needs_alarm)
        clock.rest()
        raise
    stats: Record = {}
    # Once the game is over (the world ended it, or the agent gave up), its outcome stands:
    # what the agent does after that (its why on the last move, stats(), close()) is noted
    # on the row, never its outcome. Were it an error, --retry-errors would play it again,
    # and an agent that raised after each hopeless loss would re-roll its losses.
    notes: list[AgentFailed] = [state.late] if state.late is not None else []
    if failure is None:
        try:
            stats = checked_stats(clock.call("stats", seat.stats, step=state.steps,
                                             alarm=seat.needs_alarm), clock)
        except AgentFailed as e:
            notes.append(e)
    try:
        clock.call("close", seat.close, step=state.steps, alarm=seat.needs_alarm)
    except AgentFailed as e:
        if failure is None:
            notes.append(e)
    clock.rest()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    outcome = state.outcome
    if failure is not None:
        outcome = Outcome.TIMEOUT if failure.timeout else Outcome.ERROR
    # the world's figures are the referee's alone: an agent's stats live in their own
    # namespace and never override them
    extra: Record = {}
    try:
        extra = clock.world(lambda: world_summary(world), step=state.steps)
    except AgentFailed as e:
        failure = failure or e
        outcome = Outcome.ERROR
    own = {k: v for k, v in stats.items() if k != "guesses"}
    result = EpisodeResult(
        game=game,
        map=map_name,
        agent=seat.name,
        seed=seed,
        outcome=outcome,
        won=outcome is Outcome.WON,
        steps=state.steps,
        guesses=int(stats.get("guesses", 0)),
        score=state.score,
        time_s=elapsed,
        cpu_s=cpu,
        extra=extra,
        stats=own,
        error=failure.row_error if failure is not None else after_the_game(notes),
        frames=failure.frames if failure is not None else "".join(n.frames for n in notes[:1]),
    )
    if trace is not None:
        trace.end(result)
    return result


AFTER_THE_GAME = "after the game ended, "  # how a note on a finished game's row begins


def after_the_game(notes: list[AgentFailed]) -> str:
    """The note on a finished game's row whose agent failed after the game ended.

    The first failure's words and how many more there were; "" when it did not fail.
    """
    if not notes:
        return ""
    more = f" (and {len(notes) - 1} more)" if len(notes) > 1 else ""
    return f"{AFTER_THE_GAME}{notes[0].row_error}{more}"


def checked_stats(stats: object, clock: Calls) -> Record:
    """An agent's stats() as a results row can keep it: names to numbers that read back."""
    def refuse(message: str) -> AgentFailed:
        return AgentFailed(clock.agent, "stats", "ValueError", message)

    if not isinstance(stats, Mapping):
        raise refuse(f"stats() returned {type(stats).__name__}, not a dict")
    out = {}
    for key, value in stats.items():
        if not isinstance(key, str) or not key.isprintable() or len(key) > MAX_COUNTER_NAME:
            raise refuse(f"stats() names a counter {str(key)[:40]!r}: names are printable "
                         f"strings of at most {MAX_COUNTER_NAME} characters")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue  # not a counter: a results row keeps numbers only
        if isinstance(value, int) and abs(value) >= MAX_COUNTER:
            raise refuse(f"stats() counter {key!r} is {_digits(value)}, past the 10^15 a "
                         "results file keeps")
        if isinstance(value, float) and not (math.isfinite(value) and abs(value) < MAX_COUNTER):
            raise refuse(f"stats() counter {key!r} is {value!r}: a finite number under 10^15")
        if key == "guesses" and (not isinstance(value, int) or value < 0):
            raise refuse(f"stats() counts {value!r} guesses: a count is a whole number, 0 or "
                         "more")
        out[key] = value
    return out


def _digits(value: int) -> str:
    count = len(str(abs(value))) if abs(value) < 10**4000 else "over 4000"
    return f"a number of {count} digits"


class _Episode:
    """How far the episode got (read when the agent fails part-way)."""

    def __init__(self) -> None:
        self.steps = 0
        self.score = 0.0
        self.outcome = Outcome.GAVE_UP
        self.late: AgentFailed | None = None  # the agent's why that failed on the last move


def _play(world: AnyWorld, agent: Seated, seed: int | None, seed_of_agent: int | None,
          trace: Trace | None, game: str, map_name: str,
          on_step: Callable[[Any, Any, float], None] | None, clock: Calls, state: _Episode
          ) -> None:
    observation, info = clock.world(lambda: world.reset(seed=seed), step=0)
    alarm = agent.needs_alarm  # an agent in a player process keeps its own deadlines
    if trace is not None:  # before the agent's reset: a trace whose agent fails there is whole
        trace.begin(game=game, map=map_name, agent=agent.name, seed=seed,
                    observation=observation)
    clock.call("reset", agent.reset, seed_of_agent, alarm=alarm)
    if finished(world):  # by the opening move alone
        state.outcome = ended(world, on_terminated=False)
        return
    while True:
        step = state.steps + 1
        action = clock.call("act", agent.act, observation, step=step, alarm=alarm)
        if action is None:
            state.outcome = Outcome.GAVE_UP
            return
        try:
            observation, reward, terminated, truncated, info = clock.world(
                world.step, action, step=step, passes=_STEP_PASSES)
        except IllegalAction as e:
            raise AgentFailed(clock.agent, "act", "IllegalAction", _short(str(e)),
                              step=step) from None
        except MALFORMED as e:  # a world that does not check its action's types (a plug-in)
            raise AgentFailed(clock.agent, "act", "IllegalAction", _short(
                f"the world cannot read the action {safe_repr(action)}: {type(e).__name__}: {e}"),
                step=step) from None
        state.steps = step
        state.score += reward
        try:
            why = clock.call("why", lambda: agent.why, step=step)
            if isinstance(why, str) and not is_text(why):
                raise AgentFailed(clock.agent, "why", "ValueError", "its why holds text no "
                                  "file can hold (a lone surrogate)", step=step)
        except AgentFailed as e:  # the move was made: the trace keeps it, without its reason
            if not (terminated or truncated):
                if trace is not None:
                    trace.step(action, observation, reward, terminated, truncated, why=None)
                raise
            # the move ended the game: its outcome is the world's, the failure a note
            state.late, why = e, None
        clock.last_why = why  # for on_step: the agent's why is read once, guarded
        if trace is not None:
            trace.step(action, observation, reward, terminated, truncated, why=why)
        if getattr(why, "proved", False) is True:
            _check_claim(world, agent, action, why, clock, step)
        if on_step is not None:
            on_step(observation, action, reward)
        if terminated:
            state.outcome = ended(world)
            return
        if truncated:
            state.outcome = Outcome.TRUNCATED
            return


def _check_claim(world: AnyWorld, agent: Seated, action: object, why: object, clock: Calls,
                 step: int) -> None:
    """A move its agent claims proved, checked against the hidden state the world keeps.

    The board contradicts it: an `UnsoundClaim` of the agent's (its knowledge base is not
    faithful to the rules, whatever a proof checker said of its reasoning), with what the
    agent says the claim rested on (its `explain_claim(action)`: the minimal set of its KB's
    formulas, for satx), or the move's own words.
    """
    contradicts = getattr(world, "contradicts", None)
    if not callable(contradicts):
        return
    refuted = clock.world(lambda: contradicts(action), step=step)
    if refuted is None:
        return
    rested = clock.call("explain_claim", lambda: agent.explain_claim(action), step=step)
    words = str(rested) if isinstance(rested, str) and rested else str(why)
    raise AgentFailed(clock.agent, "act", "UnsoundClaim",
                      _short(f"{refuted}; the claim rested on: {words}"), step=step)


def safe_repr(value: object) -> str:
    """A short repr of what an agent returned, whatever its __repr__ does."""
    try:
        text = repr(value)
    except Exception:
        return f"<{type(value).__name__}>"
    return text if len(text) <= 120 else text[:117] + "..."


def _short(text: str) -> str:
    return text if len(text) <= 300 else text[:297] + "..."
