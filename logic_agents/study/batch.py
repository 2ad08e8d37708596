"""Paired batch comparison of agents, with streamed results and summaries you can trust.

Concepts:
- MapEntry (entries.py): an instance and its group (its preset, else its folder).
- seed_for(seed, map, run) (seeding.py): the world's seed in run `run` on `map`, the same for
  every agent (paired); the agents' reset gets a seed derived from it under the study's key
  (world.seeds.study_key), so it tells them nothing of the world's draws. study_seed: a
  secret seed by default when any agent plays isolated.
- Job / Row: one game to play / its result (rows.py: Row, RowSink, read_rows; the study
  record beside a results file is study.py's, the summaries summary.py's; all three are
  re-exported here).
- compare(): runs the jobs on a backend ("process": worker processes, sandbox.Pool; "ray": a
  Ray cluster, local by default) under sandbox.Caps and returns the rows. Jobs are made as
  workers ask for them. A game the agent fails is a row with outcome `error` or `timeout`
  and the failure in `error`; the study goes on, and a resume keeps such rows unless asked
  to retry them.
- The instances and their groups are entries.py's (MapEntry, entries_from_references),
  re-exported here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import overload

from logic_agents._version import __version__
from logic_agents.errors import AgentFailed, FormatError, LogicAgentsError, UnknownName, UsageError
from logic_agents.ground.inputs import is_dir, is_text
from logic_agents.ground.processes import fork_context, handling
from logic_agents.ground.shapes import OptionPairs, Record
from logic_agents.referee.agents import agent_entries, distinct_names
from logic_agents.referee.clock import DEFAULT_CAPS, NO_CAPS, Caps, Clock
from logic_agents.referee.isolation import DEFAULT_ISOLATION, Isolation
from logic_agents.referee.output import OutputBudget
from logic_agents.referee.plays import Referee
from logic_agents.referee.pool import Pool
from logic_agents.referee.remote import SERVERS_PER_WORKER, RemoteFactory
from logic_agents.referee.shared_channels import per_study
from logic_agents.study.entries import MapEntry
from logic_agents.study.grades import source_of
from logic_agents.study.record import (
    check_resumed_study,
    sealing_key,
    study_path,
    study_record,
    write_study,
)
from logic_agents.study.regrade import Regrade, kept_rows, plan_regrade, regrade_entries, standing
from logic_agents.study.resume import keep_only_referee_rows, resumed_rows, rewrite_rows
from logic_agents.study.rows import (
    NAME_LIMIT,
    Row,
    RowKey,
    RowSink,
    is_number,
    read_rows,
    results_kind,
)
from logic_agents.study.seeding import plays_isolated, seed_for, study_seed
from logic_agents.study.settings import BACKENDS, StudySettings
from logic_agents.study.submissions import expand_agents, has_glob
from logic_agents.study.traces import Traces, kept, traces_path
from logic_agents.world.agents import check_options, is_reference
from logic_agents.world.calls import world_failure
from logic_agents.world.registry import game_of_instance, get_game
from logic_agents.world.seeds import study_key
from logic_agents.world.trace import Trace, trace_header


@dataclass(frozen=True)
class Job:
    game: str
    agent: str
    agent_options: OptionPairs
    entry: MapEntry
    run: int
    seed: int
    world_options: OptionPairs = ()
    # who plays in a player process and how, the caps, the key of the agents' seeds
    referee: Referee = Referee()
    keep_trace: str = "none"  # which games send their trace back (study.traces.KEEP)


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
    try:
        result = job.referee.play(spec, (agents or {}).get(job.agent) or job.agent,
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
    keeps = buffer is not None and kept(job.keep_trace, row.outcome)
    return Played(row, buffer.getvalue() if keeps and buffer is not None else "")


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


class Jobs(Sequence[Job]):
    """Every agent x map x run of a study, each made only when it is asked for: a study of ten
    million games holds none of them.

    In the nesting map, then run, then agent; with `agent_major` (a class: more agents in
    player processes than a worker keeps servers for, referee.remote.SERVERS_PER_WORKER),
    agent, then map, then run, so a worker plays one agent's games in a row and keeps a
    server or two, not one per agent.
    """

    def __init__(self, game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int,
                 seed: int, options: dict[str, OptionPairs], world: OptionPairs,
                 isolation: Isolation = DEFAULT_ISOLATION, caps: Caps = DEFAULT_CAPS):
        self.game, self.agents, self.entries, self.runs, self.seed = game, agents, entries, runs, seed
        self.options, self.world = options, world
        # every job's agent seed is derived with the study's key (world.seeds)
        self.referee = Referee(isolation, caps, study_key(seed))
        self.agents_of: Record = {}  # name -> AgentEntry (make_jobs fills it)
        self.notes: list[str] = []  # agents renamed after a clash (make_jobs)
        self.sources: dict[str, str] = {}  # what each agent was read from (the grades')
        self.agent_major = False
        self.keep_trace = "none"  # which games send their trace back (study.traces.KEEP)

    def __len__(self) -> int:
        return len(self.entries) * self.runs * len(self.agents)

    @overload
    def __getitem__(self, index: int) -> Job: ...

    @overload
    def __getitem__(self, index: slice) -> list[Job]: ...

    def __getitem__(self, index: int | slice) -> Job | list[Job]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError("job index out of range")
        index %= len(self)
        if self.agent_major:
            agent_index, position = divmod(index, len(self.entries) * self.runs)
        else:
            position, agent_index = divmod(index, len(self.agents))
        entry_index, run = divmod(position, self.runs)
        entry, agent = self.entries[entry_index], self.agents[agent_index]
        return Job(self.game, agent, self.options[agent], entry, run,
                   seed_for(self.seed, entry.instance.name, run), self.world, self.referee,
                   self.keep_trace)

    def __iter__(self) -> Iterator[Job]:
        return (self[i] for i in range(len(self)))


def make_jobs(game: str, agents: Sequence[object], entries: Sequence[MapEntry], runs: int, seed: int,
              agent_options: dict[str, Record] | None = None,
              world_options: Record | None = None,
              isolation: Isolation | None = None, caps: Caps = DEFAULT_CAPS,
              broken_rows: bool = True) -> Jobs:
    """Every agent x map x run (Jobs: made as they are asked for); run i on map m gets
    seed_for(seed, m, i) whoever plays it. Agents are names, references, classes or
    factories (world.agents.agent_entry); a job carries the agent's name, and `Jobs.agents_of`
    maps each name to its AgentEntry. The agents and the map names are checked now, before the
    first job. Two agents of one name play as NAME and NAME-2 (`Jobs.notes` says so); a
    file agent whose module does not read plays error rows, unless not `broken_rows`."""
    spec = get_game(game)
    options = agent_options or {}
    if not agents:
        raise UsageError("a study needs at least one agent")
    isolation = isolation or DEFAULT_ISOLATION
    if any(isinstance(a, str) and has_glob(a) for a in agents):  # a class: fail closed
        isolation.refuse_unsandboxed("a glob of agents")
    agents = expand_agents(agents)  # a glob reference: each match, named by it
    resolved, notes = distinct_names(agent_entries(spec, agents, isolation,
                                                   broken_rows=broken_rows), agents)
    labels = [e.name for e in resolved]
    # options are given by what named the agent (a file reference) or by its name
    options = {e.name: options.get(a, options.get(e.name, {})) if isinstance(a, str)
               else options.get(e.name, {}) for a, e in zip(agents, resolved)}
    for entry in resolved:
        check_options(entry, options.get(entry.name, {}))
    names = [e.instance.name for e in entries]
    if len(set(names)) != len(names):
        shared = sorted({n for n in names if names.count(n) > 1})
        raise LogicAgentsError(f"two maps share the name {shared[0]!r}; give each map its own name")
    jobs = Jobs(game, labels, list(entries), runs, seed,
                {a: tuple(sorted(options.get(a, {}).items())) for a in labels},
                tuple(sorted((world_options or {}).items())), isolation, caps)
    jobs.agents_of = dict(zip(labels, resolved))
    jobs.notes = notes
    jobs.sources = {name: source_of(entry, spec) for name, entry in jobs.agents_of.items()}
    jobs.agent_major = sum(isinstance(e.factory, RemoteFactory)
                           for e in resolved) > SERVERS_PER_WORKER
    shown = OutputBudget("study").study  # what all agents' prints may show, counted together
    for entry in resolved:
        if isinstance(entry.factory, RemoteFactory) and entry.factory.output is not None:
            entry.factory.output.study = shown
    return jobs


# -- backends ------------------------------------------------------------------------------
def _run_process(jobs: Iterable[Job], workers: int, referee: Referee,
                 emit: Callable[[Played], None], stop: threading.Event,
                 agents: Record | None = None) -> None:
    """Play the jobs on `workers` processes (one at --jobs 1 too: an agent that calls
    os._exit or hangs in C must not take the study down). Each finished game reaches `emit`
    at once; on Ctrl-C (`stop`) the workers are ended within about a second and games still
    running are dropped (a resume plays them again)."""
    # forked workers inherit `agents` (classes, factories): only the jobs, names, are sent
    play = functools.partial(_play_traced, agents=agents or {})
    referee.pool(workers, play, lost_game).run(iter(jobs), emit, stop)


def _play_with(job: Job, clock: Clock, agents: Record) -> Row:
    return play_job(job, clock, agents)


def _play_traced(job: Job, clock: Clock, agents: Record) -> Played:
    return play_game(job, clock, agents)


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
    with `settings.out`, in a file beside it too."""
    settings = settings or StudySettings()
    if changes:
        settings = settings.replace(**changes)
    game, runs, out, backend = settings.game, settings.runs, settings.out, settings.backend
    if game is None:
        if not entries:
            raise LogicAgentsError("no instances to play")
        game = game_of_instance(entries[0].instance)
    if backend not in BACKENDS:
        raise UnknownName(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if runs < 1:
        raise LogicAgentsError("runs must be at least 1")
    isolation = settings.isolation or DEFAULT_ISOLATION
    if out is not None:  # the results and the record's seal key: never shown to a player
        isolation = dataclasses.replace(isolation, hide=tuple(dict.fromkeys(
            [*isolation.hide, str(Path(out).resolve()), str(study_path(out).resolve()),
             str(traces_path(out).resolve())])))
    isolated = plays_isolated(game, agents, isolation)
    # without the sandbox, /dev/shm and System V IPC are the user's: what the study's games
    # leave there is removed at its end (taken stock of before any agent code is read)
    with per_study(isolated and isolation.tool() is None, on_note):
        return _play_study(game, agents, entries, settings, isolation, isolated, on_row,
                           on_note, traces)


def _play_study(game: str, agents: Sequence[object], entries: Sequence[MapEntry],
                settings: StudySettings, isolation: Isolation, isolated: bool,
                on_row: Callable[[Row], None] | None,
                on_note: Callable[[str], None] | None, traces: Traces | None) -> list[Row]:
    """compare()'s study, its settings checked: describe, play, write."""
    runs, out, backend, caps = settings.runs, settings.out, settings.backend, settings.caps
    agent_options = dict(settings.agent_options or {}) or None  # None given: the old keyword's
    world_options = dict(settings.world_options or {}) or None
    chosen = study_seed(settings.seed, isolated, out, settings.resume)
    seed, secret = chosen.value, chosen.secret or settings.seed_secret
    asked = not secret and (chosen.asked if settings.seed_asked is None else settings.seed_asked)
    all_jobs = make_jobs(game, agents, entries, runs, seed, agent_options,
                         world_options, isolation, caps, not settings.stop_on_broken)
    all_jobs.keep_trace = traces.keep if traces is not None else "none"
    for note in all_jobs.notes:
        if on_note is not None:
            on_note(note)
    agents = all_jobs.agents  # by name from here on
    for name in [*agents, *(e.instance.name for e in entries), *(e.group for e in entries)]:
        if len(name) > NAME_LIMIT:  # refused now: a results file could not hold its rows
            raise LogicAgentsError(f"the name {name[:40]!r}... is {len(name):,} characters "
                                   f"long; a study keeps names of at most {NAME_LIMIT:,}")
        if not is_text(name):
            raise LogicAgentsError(f"the name {name[:40]!r} is not text a file can hold (a "
                                   "lone surrogate); name it in plain Unicode")
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
    todo = (j for j in all_jobs if (j.agent, j.entry.instance.name, j.run, j.seed) not in done_keys)

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
                run_ray(list(todo), settings.address, caps, lambda row: emit(Played(row)),
                        stop, play_chunk, objects)
            else:
                _run_process(todo, settings.jobs or os.cpu_count() or 1, all_jobs.referee, emit,
                             stop, all_jobs.agents_of)
    finally:
        if traces is not None:
            traces.close()
        if sink is not None:
            sink.close()
            keep_only_referee_rows(sink.path, key, [*held, *rows[kept:]], sink)
    if regrade is not None and out is not None:  # the record keeps each regrade, its figures
        write_study(out, {**study, "seal": key,
                          "regrades": regrade_entries(regrade, study, before, rows)})
    return rows
