"""What a verb says of one episode: its result as a person reads it (or as JSON), and an
agent's failure on stderr with the agent's own frames.

Concepts: EXIT_AGENT_FAILED (3); failed_result (the result of a game the agent failed before
it could end); print_result; report_agent_failure, report_agent_note (a failure after the game ended:
the outcome stays the world's); world_fault (a plug-in world's bug, not
the agent's).
"""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.markup import escape

from logic_agents.cli.common import PROG
from logic_agents.errors import AgentFailed
from logic_agents.ground.inputs import printable
from logic_agents.ground.output import make_console
from logic_agents.ground.shapes import Record
from logic_agents.world.core import EpisodeResult, Outcome
from logic_agents.world.spec import GameSpec, Results
from logic_agents.world.values import Instance

EXIT_AGENT_FAILED = 3  # play: the agent failed; compare: some games errored or timed out


def failed_result(spec: GameSpec, instance: Instance, agent: str, seed: int,
                  failure: AgentFailed) -> EpisodeResult:
    """The EpisodeResult of a game the agent failed before run_episode could end it (its
    constructor raised, or its process was killed past a cap or died)."""

    return EpisodeResult(
        game=spec.name, map=instance.name, agent=agent, seed=seed,
        outcome=Outcome.TIMEOUT if failure.timeout else Outcome.ERROR, won=False,
        steps=failure.steps_done, guesses=0,
        score=0.0, time_s=0.0, error=failure.row_error,
        frames=failure.frames)


CERTIFICATES = ("claims", "certified", "lemmas")  # an agent's counters under --certify (logic.certify)


def print_result(args: argparse.Namespace, spec: GameSpec, result: EpisodeResult,
                 about: Record, console: Console, show: bool) -> int:
    """The result as a person reads it (or one JSON object with --json); an agent's failure
    also goes to stderr with the agent's own frames, and the exit code is 3. The map is the
    result's: the one played last (human play's `n` moves on to another)."""
    failed = report_agent_failure(result)
    # an agent that failed after the game ended (its stats() or close() raised): the outcome
    # is the world's, but the agent has a bug to show, and the exit code says so
    late = not failed and bool(result.error) and report_agent_note(result)
    code = EXIT_AGENT_FAILED if failed or late else 0
    if args.json:
        out = {"game": result.game, "map": result.map, "agent": result.agent, "seed": result.seed,
               "outcome": result.outcome.value, "won": result.won, "steps": result.steps,
               "guesses": result.guesses, "time_s": round(result.time_s, 6),
               "cpu_s": round(result.cpu_s, 6)}
        out.update({k: result.extra.get(k) for k in spec.result_keys()})
        out.update({k: result.stats[k] for k in CERTIFICATES if k in result.stats})
        if result.error:  # the failure, or the note of one after the game ended
            out["error"] = result.error
        print(json.dumps(out))
        return code
    results = spec.get(Results)
    words = (results.words(result) if results is not None and not failed
             else f"{result.steps} steps, {result.guesses} guesses")
    outcome = result.outcome.value.upper()
    if failed:
        colour = "red"
    elif spec.objective == "score":  # a scored game ends, it is not lost
        outcome = "TRUNCATED" if result.outcome.value == "truncated" else "ENDED"
        colour = "cyan"
    else:
        colour = "green" if result.won else "red"
    console.print(("\n" if show else "") + f"[bold {colour}]{outcome}[/bold {colour}] "
                  f"{escape(printable(result.map))} with {escape(printable(result.agent))}: "
                  f"{escape(words)}, {result.time_s:.3f}s")
    if "claims" in result.stats:  # --certify: what the proved moves rested on, checked
        console.print(f"certified: {result.stats.get('certified', 0)} of "
                      f"{result.stats['claims']} UNSAT answers its proved moves rest on "
                      f"(proofs of {result.stats.get('lemmas', 0):,} lemmas)")
    stopped = about.get("stopped", "")
    if stopped and not result.won and not failed:
        console.print(f"{escape(printable(result.agent))} stopped at its {escape(stopped)} "
                      f"after {about.get('nodes', 0):,} nodes")
    return code


def world_fault(error: str) -> bool:
    """Whether a result's error is the world's (a plug-in's bug), not its agent's."""
    return "(in the world at step " in error


def report_agent_note(result: EpisodeResult) -> bool:
    """An agent's failure after its game ended (the result's note), on stderr with its own
    frames; True."""
    err = make_console(stderr=True)
    err.print(f"{PROG}: agent {escape(printable(result.agent))} failed "
              f"{escape(printable(result.error))}")
    if result.frames:
        err.print("the agent's own frames (most recent call last):\n"
                  + escape(result.frames.rstrip()))
    return True


def report_agent_failure(result: EpisodeResult) -> bool:
    """If the agent failed the episode: say so on stderr, with where and the agent's own
    frames (not the framework's), and return True."""

    if result.outcome.value not in ("error", "timeout"):
        return False
    err = make_console(stderr=True)
    who = (f"the game's own code failed, not agent {escape(printable(result.agent))}"
           if world_fault(result.error) else f"agent {escape(printable(result.agent))} failed")
    err.print(f"{PROG}: {who}: {escape(printable(result.error))}")
    if result.frames:
        err.print("the agent's own frames (most recent call last):\n"
                  + escape(result.frames.rstrip()))
    return True
