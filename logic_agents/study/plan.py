"""A study planned once: who plays, on which maps, how many runs, with which seeds.

Concepts:
- Job: one game to play (agent, map, run, seed, options, how it is refereed), made when a
  worker asks for it.
- Jobs: every agent x map x run of a study, made only when asked for (a study of ten million
  games holds none of them); its agents resolved once, by name (`agents_of`), with what each
  was read from (`sources`, the grades' column) and the notes of their naming.
- make_jobs(...): the Jobs of agents named any way an agent is named (names, references,
  classes, factories, globs), each described once.
- StudyPlan: a study decided, frozen: the game, the maps, the settings with the seed drawn
  and the isolation fixed (the results file and its record hidden from players), and the
  Jobs. The command line and the Python API make one with planned() and play it with
  batch.play(); every row, page and record of the study comes from it.
- planned(agents, entries, settings): the plan, made inside the study's watch over shared
  channels (referee.shared_channels: taken stock of before any agent code is read).
- in_turn(jobs, todo): the order a study plays its jobs in: the agents read already at once,
  a class's submissions as soon as a process beside the games has read each (its module's
  verdict travelling with each of its games: referee.reading), never waiting for them all.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from logic_agents.errors import LogicAgentsError, UnknownName, UsageError
from logic_agents.ground.inputs import is_text
from logic_agents.ground.shapes import OptionPairs, Record
from logic_agents.referee.agents import Unread, agent_entries, distinct_names
from logic_agents.referee.clock import DEFAULT_CAPS, Caps
from logic_agents.referee.isolation import DEFAULT_ISOLATION, Isolation
from logic_agents.referee.output import OutputBudget
from logic_agents.referee.plays import Referee
from logic_agents.referee.pool import LATER, Later
from logic_agents.referee.reading import Read, Reading
from logic_agents.referee.remote import SERVERS_PER_WORKER, RemoteFactory
from logic_agents.referee.shared_channels import per_study
from logic_agents.study.entries import MapEntry
from logic_agents.study.grades import source_of
from logic_agents.study.record import study_files
from logic_agents.study.rows import NAME_LIMIT
from logic_agents.study.seeding import plays_isolated, seed_for, study_seed
from logic_agents.study.settings import BACKENDS, StudySettings
from logic_agents.study.submissions import expand_agents, has_glob
from logic_agents.world.agents import check_options
from logic_agents.world.registry import game_of_instance, get_game
from logic_agents.world.seeds import study_key
from logic_agents.world.spec import AgentEntry


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
    # an agent read beside the study (referee.reading): what reading it found
    read: Read | None = None


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
        return self.job(self.agents[agent_index], entry_index, run)

    def job(self, agent: str, entry_index: int, run: int, read: Read | None = None) -> Job:
        """The game of `agent` on the map at `entry_index`, run `run`."""
        entry = self.entries[entry_index]
        return Job(self.game, agent, self.options[agent], entry, run,
                   seed_for(self.seed, entry.instance.name, run), self.world, self.referee,
                   self.keep_trace, read)

    def of_agent(self, agent: str, read: Read | None = None) -> Iterator[Job]:
        """The games of one agent, map by map, run by run."""
        for entry_index in range(len(self.entries)):
            for run in range(self.runs):
                yield self.job(agent, entry_index, run, read)

    @property
    def unread(self) -> dict[str, AgentEntry]:
        """The agents not read yet (referee.agents.Unread), by name: read beside the games."""
        return {name: entry for name, entry in self.agents_of.items()
                if isinstance(entry, AgentEntry) and isinstance(entry.factory, Unread)}

    def __iter__(self) -> Iterator[Job]:
        return (self[i] for i in range(len(self)))


def make_jobs(game: str, agents: Sequence[object], entries: Sequence[MapEntry], runs: int, seed: int,
              agent_options: dict[str, Record] | None = None,
              world_options: Record | None = None,
              isolation: Isolation | None = None, caps: Caps = DEFAULT_CAPS,
              broken_rows: bool = True, later: bool = False) -> Jobs:
    """Every agent x map x run (Jobs: made as they are asked for); run i on map m gets
    seed_for(seed, m, i) whoever plays it. Agents are names, references, classes or
    factories (world.agents.agent_entry); a job carries the agent's name, and `Jobs.agents_of`
    maps each name to its AgentEntry. The agents and the map names are checked now, before the
    first job. Two agents of one name play as NAME and NAME-2 (`Jobs.notes` says so); a
    file agent whose module does not read plays error rows, unless not `broken_rows`. With
    `later` (and broken rows, and no agent given options), named submissions are not read
    here: they are `Jobs.unread`, read beside the first games (in_turn)."""
    spec = get_game(game)
    options = agent_options or {}
    if not agents:
        raise UsageError("a study needs at least one agent")
    isolation = isolation or DEFAULT_ISOLATION
    if any(isinstance(a, str) and has_glob(a) for a in agents):  # a class: fail closed
        isolation.refuse_unsandboxed("a glob of agents")
    agents = expand_agents(agents)  # a glob reference: each match, named by it
    resolved, notes = distinct_names(agent_entries(spec, agents, isolation,
                                                   broken_rows=broken_rows,
                                                   later=later and not options), agents)
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


@dataclass(frozen=True)
class StudyPlan:
    """A study decided once (see the module's words). `settings.seed` is the seed drawn,
    `settings.seed_secret` whether it is kept secret, `settings.seed_asked` whether the user
    gave it, `settings.isolation` the isolation its players get."""

    game: str
    entries: tuple[MapEntry, ...]
    settings: StudySettings
    jobs: Jobs
    isolated: bool  # some agent plays in a player process

    @property
    def agents(self) -> list[str]:
        """The agents' names, as the rows name them."""
        return list(self.jobs.agents)

    @property
    def sources(self) -> dict[str, str]:
        """What each agent was read from (`builtin` for the game's own)."""
        return dict(self.jobs.sources)

    @property
    def notes(self) -> list[str]:
        """What the plan changed on its own (an agent renamed after a name clash)."""
        return list(self.jobs.notes)

    def __len__(self) -> int:
        return len(self.jobs)


@contextlib.contextmanager
def planned(agents: Sequence[object], entries: Sequence[MapEntry],
            settings: StudySettings | None = None,
            on_note: Callable[[str], None] | None = None,
            **changes: object) -> Iterator[StudyPlan]:
    """The plan of a study (batch.compare's words say what each setting does), made and
    played inside the study's watch over the shared channels: without the sandbox, what
    the study's games leave in /dev/shm and System V IPC is removed when the block ends.
    `on_note` hears the plan's notes, and the sweep's."""
    settings = settings or StudySettings()
    if changes:
        settings = settings.replace(**changes)
    game = settings.game
    if game is None:
        if not entries:
            raise LogicAgentsError("no instances to play")
        game = game_of_instance(entries[0].instance)
    if settings.backend not in BACKENDS:
        raise UnknownName(f"unknown backend {settings.backend!r}; choose one of "
                          f"{', '.join(BACKENDS)}")
    if settings.runs < 1:
        raise LogicAgentsError("runs must be at least 1")
    isolation = settings.isolation or DEFAULT_ISOLATION
    out = settings.out
    if out is not None:  # the results, their record and traces: never shown to a player
        isolation = dataclasses.replace(isolation, hide=tuple(dict.fromkeys(
            [*isolation.hide, *(str(p.resolve()) for p in study_files(out))])))
    isolated = plays_isolated(game, agents, isolation)
    with per_study(isolated and isolation.tool() is None, on_note):
        yield _plan(game, agents, entries, settings, isolation, isolated, on_note)


def _plan(game: str, agents: Sequence[object], entries: Sequence[MapEntry],
          settings: StudySettings, isolation: Isolation, isolated: bool,
          on_note: Callable[[str], None] | None) -> StudyPlan:
    """The plan, its settings checked: the seed drawn, the agents read, the names checked."""
    chosen = study_seed(settings.seed, isolated, settings.out, settings.resume)
    secret = chosen.secret or settings.seed_secret
    asked = not secret and (chosen.asked if settings.seed_asked is None else settings.seed_asked)
    jobs = make_jobs(game, agents, entries, settings.runs, chosen.value,
                     dict(settings.agent_options or {}) or None,
                     dict(settings.world_options or {}) or None, isolation, settings.caps,
                     not settings.stop_on_broken, later=settings.backend == "process")
    for note in jobs.notes:
        if on_note is not None:
            on_note(note)
    for name in [*jobs.agents, *(e.instance.name for e in entries), *(e.group for e in entries)]:
        if len(name) > NAME_LIMIT:  # refused now: a results file could not hold its rows
            raise LogicAgentsError(f"the name {name[:40]!r}... is {len(name):,} characters "
                                   f"long; a study keeps names of at most {NAME_LIMIT:,}")
        if not is_text(name):
            raise LogicAgentsError(f"the name {name[:40]!r} is not text a file can hold (a "
                                   "lone surrogate); name it in plain Unicode")
    resolved = settings.replace(game=game, seed=chosen.value, seed_secret=secret,
                                seed_asked=asked, isolation=isolation)
    return StudyPlan(game, tuple(entries), resolved, jobs, isolated)


def in_turn(jobs: Jobs, todo: Callable[[Job], bool]) -> Generator[Job | Later, None, None]:
    """The jobs `todo` keeps, in the order a study plays them: the agents read already at
    once, each agent read beside them (`jobs.unread`, in a Reading of their own) as soon as
    it is read, all its games in a row, each carrying what reading found. LATER while
    nothing is ready but agents are still being read. The Reading ends with the iterator
    (a Ctrl-C's too)."""
    unread = jobs.unread
    wanted = {name: entry for name, entry in unread.items()
              if any(todo(job) for job in jobs.of_agent(name))}  # a resume's finished: no read
    reading = Reading(get_game(jobs.game), wanted) if wanted else None
    read_now = (job for job in jobs if job.agent not in unread and todo(job))
    arrived: list[tuple[str, Read]] = []
    try:
        while True:
            if reading is not None:
                arrived += reading.arrived()
            if arrived:
                name, read = arrived.pop(0)
                yield from (job for job in jobs.of_agent(name, read) if todo(job))
                continue
            job = next(read_now, None)
            if job is not None:
                yield job
            elif reading is None or reading.ended:
                return
            else:
                yield LATER
    finally:
        if reading is not None:
            reading.stop()
