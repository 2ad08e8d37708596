"""Paired batch comparison of agents, with streamed results and summaries you can trust.

Concepts:
- MapEntry (entries.py): an instance and its group (its preset, else its folder).
- seed_for(seed, map, run) (seeding.py): the world's seed in run `run` on `map`, the same for
  every agent (paired); the agents' reset gets a seed derived from it under the study's key
  (world.seeds.study_key), so it tells them nothing of the world's draws. study_seed: a
  secret seed by default when any agent plays isolated.
- Job, Jobs, StudyPlan (plan.py): the study decided once (the agents read, the seed drawn,
  every game made when a worker asks for it); re-exported here.
- Played / Row: a finished game (its row, and its trace when the study keeps it) / its
  result (rows.py: Row, RowSink, read_rows; the study record beside a results file is
  record.py's, the summaries summary.py's, the traces traces.py's).
- play(plan): runs the plan's jobs on a backend ("process": worker processes, sandbox.Pool;
  "ray": a Ray cluster, local by default) under sandbox.Caps, and returns the rows. A game
  the agent fails is a row with outcome `error` or `timeout` and the failure in `error`; the
  study goes on, and a resume keeps such rows unless asked to retry them.
- compare(): planned, then played: the whole study in one call.
- The instances and their groups are entries.py's (MapEntry, entries_from_references),
  re-exported here.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from logic_agents._version import __version__
from logic_agents.errors import AgentFailed, FormatError, LogicAgentsError, UsageError
from logic_agents.ground.inputs import is_dir
from logic_agents.ground.processes import fork_context, handling
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import NO_CAPS, Caps, Clock
from logic_agents.referee.plays import Referee
from logic_agents.referee.pool import Later, Pool
from logic_agents.referee.reading import read_entry
from logic_agents.study.entries import MapEntry
from logic_agents.study.plan import Job, Jobs, StudyPlan, in_turn, make_jobs, planned
from logic_agents.study.record import (
    check_resumed_study,
    sealing_key,
    study_record,
    write_study,
)
from logic_agents.study.regrade import Regrade, kept_rows, plan_regrade, regrade_entries, standing
from logic_agents.study.resume import keep_only_referee_rows, resumed_rows, rewrite_rows
from logic_agents.study.rows import (
    Row,
    RowKey,
    RowSink,
    is_number,
    read_rows,
    results_kind,
)
from logic_agents.study.seeding import seed_for
from logic_agents.study.settings import StudySettings
from logic_agents.study.traces import Traces, kept, traces_path
from logic_agents.world.agents import is_reference
from logic_agents.world.calls import world_failure
from logic_agents.world.registry import get_game
from logic_agents.world.spec import AgentEntry
from logic_agents.world.trace import Trace, trace_header

__all__ = ["Job", "Jobs", "MapEntry", "Played", "Row", "StudyPlan", "compare", "make_jobs",
           "planned", "play", "play_game", "play_job", "read_rows"]


@dataclass(frozen=True)
class Played:
    """A finished game: its row and, when its job keeps it, its trace (else "")."""

    row: Row
    trace: str = ""


def play_job(job: Job, clock: Clock | None = None, agents: Record | None = None) -> Row:
    """Play one game; whatever the agent does (raise, exit, run out of time) is its row's
    outcome, never an exception. `agents` maps the study's agent names to their AgentEntry
    (agents given as objects have no name to look up); other names are resolved."""
    return play_game(job, clock, agents).row


def play_game(job: Job, clock: Clock | None = None, agents: Record | None = None) -> Played:
    """play_job's game with its trace, when `job.keep_trace` keeps it (study.traces): the
    moves as they were played, up to the end or the failure, for the study's replay pages."""
    spec = get_game(job.game)
    name = job.entry.instance.name
    buffer = io.StringIO() if job.keep_trace != "none" else None
    trace = None if buffer is None else Trace(buffer, **trace_header(
        spec, job.entry.instance, name, dict(job.world_options)))
    agent = (agents or {}).get(job.agent) or job.agent
    if job.read is not None and isinstance(agent, AgentEntry):  # read beside the study
        agent = read_entry(agent, job.read)
    try:
        result = job.referee.play(spec, agent,
                                  dict(job.agent_options), job.entry.instance,
                                  dict(job.world_options), job.seed, clock or Clock(),
                                  map_name=name, trace=trace)
    except AgentFailed as e:  # the agent or the world failed before the first move: its row
        return Played(failed_row(job, e))
    worlds = set(spec.result_keys())
    reported = {k: v for k, v in sorted(result.extra.items()) if k in worlds and is_number(v)}
    score = reported.get("score") if spec.objective == "score" else None
    row = Row(agent=job.agent, map=name, group=job.entry.group, run=job.run, seed=job.seed,
              outcome=result.outcome.value, won=result.won, steps=result.steps,
              guesses=result.guesses, score=score, time_s=round(result.time_s, 6),
              stats=_counters(result.stats, worlds), extra=reported, error=result.error,
              cpu_s=round(result.cpu_s, 6))
    keeps = kept(job.keep_trace, row.outcome)
    return Played(row, buffer.getvalue() if buffer is not None and keeps else "")


def lost_game(job: Job, failure: AgentFailed) -> Played:
    """The Played of a game whose process was killed or died: its row, no trace."""
    return Played(failed_row(job, failure))


def failed_row(job: Job, failure: AgentFailed) -> Row:
    """The row of a game the agent failed before it could finish (or whose process was
    killed or died): outcome timeout or error, and where."""
    return Row(agent=job.agent, map=job.entry.instance.name, group=job.entry.group, run=job.run,
               seed=job.seed, outcome="timeout" if failure.timeout else "error", won=False,
               steps=failure.steps_done,
               guesses=0, score=None, time_s=0.0,
               error=failure.row_error)


def _counters(extra: Record, worlds: set[str]) -> Record:
    """The agent's whole-number counters (timings left out, so rows stay reproducible)."""
    return {k: v for k, v in sorted(extra.items())
            if k not in worlds and isinstance(v, int) and not isinstance(v, bool)}


def play_jobs(jobs: Sequence[Job], caps: Caps | None = None,
              agents: Record | None = None) -> list[Row]:
    """The jobs of a Ray task, one row each, whatever a game raises (as a Pool worker does)."""
    clock = Clock(caps or NO_CAPS, own_interrupts=True)
    rows = []
    for job in jobs:
        try:
            rows.append(play_job(job, clock, agents))
        except Exception as e:
            rows.append(failed_row(job, world_failure(e)))
    return rows


# -- backends ------------------------------------------------------------------------------
def _run_process(jobs: Iterable[Job | Later], workers: int, referee: Referee,
                 emit: Callable[[Played], None], stop: threading.Event,
                 agents: Record | None = None) -> None:
    """Play the jobs on `workers` processes (one at --jobs 1 too: an agent that calls
    os._exit or hangs in C must not take the study down). Each finished game reaches `emit`
    at once; on Ctrl-C (`stop`) the workers are ended within about a second and games still
    running are dropped (a resume plays them again)."""
    # forked workers inherit `agents` (classes, factories): only the jobs, names, are sent
    play = functools.partial(play_game, agents=agents or {})
    referee.pool(workers, play, lost_game).run(iter(jobs), emit, stop)


def _play_with(job: Job, clock: Clock, agents: Record) -> Row:
    return play_job(job, clock, agents)


def play_chunk(jobs: Sequence[Job], caps: Caps | None = None,
               agents: Record | None = None) -> tuple[str, list[Row]]:
    """Run on a Ray worker: the games of one task and the worker's logic-agents version. The
    games are played in a process of their own, as on --jobs (sandbox.Pool), so an agent stuck
    in C past a cap is killed there and the Ray worker carries on; where the platform cannot
    fork, in the Ray worker itself (the alarm then stops only code that runs Python)."""
    if caps is None or fork_context().get_start_method() != "fork":
        return __version__, play_jobs(jobs, caps, agents)
    rows: list[Row] = []
    play = functools.partial(_play_with, agents=agents or {})
    # a Ray node runs many such pools side by side: none of them pins itself to a core
    Pool(1, caps, play, failed_row, spread=False).run(iter(jobs), rows.append,
                                                      threading.Event())
    return __version__, rows


@contextlib.contextmanager
def _interruptible() -> Iterator[threading.Event]:
    """Turn Ctrl-C into a flag the run loops check, so no lock or half-written row is left;
    KeyboardInterrupt is raised once the finished games are saved."""
    stop = threading.Event()
    # SIGTERM (a scheduler's stop, `kill`) ends a study as Ctrl-C does: its rows are kept
    with handling((signal.SIGINT, signal.SIGTERM), lambda *_: stop.set()):
        yield stop
    if stop.is_set():
        raise KeyboardInterrupt


def compare(agents: Sequence[object], entries: Sequence[MapEntry],
            settings: StudySettings | None = None, *,
            on_row: Callable[[Row], None] | None = None,
            on_note: Callable[[str], None] | None = None, traces: Traces | None = None,
            **changes: object) -> list[Row]:
    """Play every agent on every map `settings.runs` times with paired seeds; returns all
    rows (those read back from `settings.out` when resuming, then the new ones). Agents are
    registered names, `file.py:Class` references, classes or factories; rows name them by
    their own `name` (else the class's). The game defaults to the one the instances belong
    to. A game the agent fails is a row with outcome error or timeout (see Row.error); a
    resume keeps such rows unless `retry_errors`. Keywords (`runs=3, seed=1`) change the
    settings' fields of those names, for a short call. `on_note` hears what the study changed
    on its own (an agent renamed after a name clash). Agents named by a glob
    (`students/*/agent.py:Agent`) are each match, named by it (study.submissions); a file
    agent that does not read plays error rows unless `settings.stop_on_broken`. `traces`
    keeps the traces of the games its `keep` names (study.traces), for the replay pages;
    with `settings.out`, in a file beside it too. It is plan.planned, then play."""
    with planned(agents, entries, settings, on_note, **changes) as plan:
        return play(plan, on_row, traces)


def play(plan: StudyPlan, on_row: Callable[[Row], None] | None = None,
         traces: Traces | None = None) -> list[Row]:
    """Play a planned study (its rows, resumed ones first) and write its results, record and
    traces; see compare."""
    settings, game, entries = plan.settings, plan.game, plan.entries
    runs, out, backend, caps = settings.runs, settings.out, settings.backend, settings.caps
    seed, secret, asked = int(settings.seed or 0), settings.seed_secret, settings.seed_asked
    agent_options = dict(settings.agent_options or {}) or None  # None given: the old keyword's
    world_options = dict(settings.world_options or {}) or None
    all_jobs = copy.copy(plan.jobs)  # the plan stays as it was made
    all_jobs.keep_trace = traces.keep if traces is not None else "none"
    agents = all_jobs.agents  # by name from here on
    maps, agent_set = {e.instance.name for e in entries}, set(agents)

    def wanted(key: RowKey) -> bool:
        agent, name, run, run_seed = key
        return (agent in agent_set and name in maps and run < runs
                and run_seed == seed_for(seed, name, run))

    rows: list[Row] = []
    held: list[Row] = []  # what a resumed results file held when the study began
    regrade: Regrade | None = None  # --only: the named agents alone are read and played
    before: dict[str, Record] = {}
    sink = None
    key = ""
    if out is not None:
        out = Path(out)
        results_kind(out)
        if is_dir(out):
            raise FormatError("is a directory, not a results file", str(out), 0, 0)
        study = study_record(game, agents, entries, runs, seed, agent_options, world_options,
                             caps, all_jobs.agents_of)
        study["seed_secret"] = secret
        study["seed_asked"] = asked  # a resume refuses a public seed nobody asked for
        study["references"] = all_jobs.sources  # the grades' source column
        # the players' limits beside the caps: `play --study` stops where this study did
        limits = settings.isolation
        if limits is not None:
            study["limits"] = {"import_timeout": limits.import_timeout,
                               "max_processes": limits.max_processes}
        holds = out.exists() and out.stat().st_size > 0
        if holds and not settings.resume:
            raise LogicAgentsError(f"{out} already holds results; pass --resume to continue it "
                                   "or choose another --out")
        key = secrets.token_hex(16)  # the referee's seal on its rows (rows.seal_of)
        try:  # `--out results/runs.csv`: the folder is made, as --html's is
            out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FormatError(f"cannot make the results' folder: {e.strerror or e}",
                              str(out.parent), 0, 0) from None
        if settings.only and not holds:
            raise UsageError(f"--only regrades agents of a study: {out} holds none yet")
        if settings.only:  # the others' entries, as the record keeps them: not read again
            regrade = plan_regrade(out, study, settings.only)
            agent_set.update(regrade.agents)
        if holds:
            check_resumed_study(out, study,
                                fixed_ok=settings.retry_errors or bool(settings.only))
            key = sealing_key(out)
            held = read_rows(out, key)
            stands = held
            if regrade is not None:
                before = {name: standing(held, name) for name in regrade.only}
                stands = kept_rows(held, regrade, settings.retry_errors)
                standing_ids = {id(r) for r in stands}
                if any(not r.failed for r in held if id(r) not in standing_ids):  # a changed
                    rewrite_rows(out, key, stands)  # file's games are played again: out first
                    held = stands  # (a failed row may stay: its game's new row follows it)
            rows = resumed_rows(stands, wanted, runs, get_game(game).objective, str(out))
            if settings.retry_errors:  # with --only, the named agents' failures alone
                rows = [r for r in rows if not r.failed
                        or regrade is not None and r.agent not in regrade.only]
        write_study(out, {**study, "seal": key})
        if traces is not None:  # the replay pages' games, beside the rows (report's too)
            traces.attach(traces_path(out), resume=holds)
        sink = RowSink(out, key)
    kept = len(rows)  # the rows the study began with: the ones it makes follow
    done_keys = {r.key for r in rows}
    # the agents read already play at once; a class's submissions as each is read
    todo = in_turn(all_jobs, lambda j: (j.agent, j.entry.instance.name, j.run, j.seed)
                   not in done_keys)

    def emit(played: Played) -> None:
        row = played.row
        if played.trace and traces is not None:  # before its row: a row always has its trace
            traces.add(row.key, played.trace)
        rows.append(row)
        if sink is not None:
            sink.write(row)
        if on_row is not None:
            on_row(row)

    try:
        with _interruptible() as stop:
            if backend == "ray":
                from logic_agents.study.ray_backend import run_ray

                registered = get_game(game).agents
                objects = {k: e for k, e in all_jobs.agents_of.items()
                           if k not in registered and not is_reference(k)}
                run_ray([j for j in todo if isinstance(j, Job)], settings.address, caps,
                        lambda row: emit(Played(row)),
                        stop, play_chunk, objects)
            else:
                _run_process(todo, settings.jobs or os.cpu_count() or 1, all_jobs.referee, emit,
                             stop, all_jobs.agents_of)
    finally:
        todo.close()  # the agents still being read: their reading ends with the study
        if traces is not None:
            traces.close()
        if sink is not None:
            sink.close()
            keep_only_referee_rows(sink.path, key, [*held, *rows[kept:]], sink)
    if regrade is not None and out is not None:  # the record keeps each regrade, its figures
        write_study(out, {**study, "seal": key,
                          "regrades": regrade_entries(regrade, study, before, rows)})
    return rows
