"""Paired batch comparison of agents, with streamed results and summaries you can trust.

Concepts:
- MapEntry: an instance and its group (its preset, else its folder).
- seed_for(seed, map, run): the seed of run `run` on `map`, the same for every agent (paired).
- Job / Row: one game to play / its result, with the agent's counters (SAT tests, search nodes,
  EA generations); rows serialise to CSV (counters as one JSON cell) or JSONL.
- RowSink: appends each finished row to the --out file and flushes it at once, so an
  interrupted study loses no finished game; read_rows + `resume` skip what is already there.
- compare(): runs the jobs on a backend ("process": worker processes, sandbox.Pool; "ray": a
  Ray cluster, local by default) under sandbox.Caps and returns the rows. Jobs are made as
  workers ask for them. A game the agent fails is a row with outcome `error` or `timeout`
  and the failure in `error`; the study goes on, and a resume keeps such rows unless asked
  to retry them.
- summarize(): per agent and per group, games, wins, win rate with a 95% Wilson interval,
  errors and timeouts (counted apart from losses; they are games not won), means of steps,
  guesses, time and the agent's counters; for every pair of agents an exact McNemar test on
  the runs where exactly one of them won.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import hashlib
import io
import json
import math
import os
import signal
import statistics
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic_agents.errors import AgentFailed, FormatError, LogicAgentsError, UnknownName
from logic_agents.inputs import int_or_none, is_dir, load_json, read_text
from logic_agents.world.registry import get_game
from logic_agents.world.resolve import MAP_SUFFIXES
from logic_agents.world.runner import run_episode
from logic_agents.world.sandbox import DEFAULT_CAPS, NO_CAPS, Caps, Clock, Pool

CELL_LIMIT = 1 << 20  # the longest field a results file holds (csv's own default is 128 KiB)
NAME_LIMIT = CELL_LIMIT // 8  # agent, map and group names (a character is up to 4 bytes)

BACKENDS = ("process", "ray")


@dataclass(frozen=True)
class MapEntry:
    instance: Any
    group: str


@dataclass(frozen=True)
class Job:
    game: str
    agent: str
    agent_options: tuple[tuple[str, Any], ...]
    entry: MapEntry
    run: int
    seed: int
    world_options: tuple[tuple[str, Any], ...] = ()


@dataclass
class Row:
    agent: str
    map: str
    group: str
    run: int
    seed: int
    outcome: str
    won: bool
    steps: int
    guesses: int
    score: float | None  # the game's score (games whose objective is a score), else None
    time_s: float
    stats: dict = field(default_factory=dict)  # the agent's counters: generations, nodes, ...
    extra: dict = field(default_factory=dict)  # what the world reports: lives_left, ticks, ...
    error: str = ""  # outcome error/timeout: the exception's type and first line, and where

    @property
    def failed(self) -> bool:
        return self.outcome in FAILED

    @property
    def key(self) -> tuple:
        return (self.agent, self.map, self.run, self.seed)


ROW_FIELDS = [f.name for f in dataclasses.fields(Row)]
OLD_ROW_FIELDS = ROW_FIELDS[:-1]  # results files written before rows kept the agent's error
FAILED = ("error", "timeout")  # outcomes that are the agent's failure, not the game's


def seed_for(seed: int, map_name: str, run: int) -> int:
    """hash(S, m, i): stable across processes and Python versions (unlike hash())."""
    digest = hashlib.blake2b(f"{seed}:{map_name}:{run}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def play_job(job: Job, clock: Clock | None = None) -> Row:
    """Play one game; whatever the agent does (raise, exit, run out of time) is its row's
    outcome, never an exception."""
    from logic_agents.world.agents import build_agent, resolve_agent

    spec = get_game(job.game)
    name = job.entry.instance.name
    clock = clock or Clock()
    clock.start_game()
    try:
        agent = build_agent(resolve_agent(spec, job.agent), dict(job.agent_options), clock)
    except AgentFailed as e:
        return failed_row(job, e)
    except LogicAgentsError as e:  # the agent cannot be had here (a file gone since): its row
        return failed_row(job, AgentFailed(job.agent, "__init__", type(e).__name__, str(e)))
    world = spec.make_world(job.entry.instance, **dict(job.world_options))
    result = run_episode(world, agent, job.seed, game=job.game, map_name=name, clock=clock)
    worlds = set(spec.result_keys) | ({"lives_left"} if spec.has_lives else set())
    reported = {k: v for k, v in sorted(result.extra.items()) if k in worlds and _number(v)}
    score = reported.get("score") if spec.objective == "score" else None
    return Row(agent=job.agent, map=name, group=job.entry.group, run=job.run, seed=job.seed,
               outcome=result.outcome.value, won=result.won, steps=result.steps,
               guesses=result.guesses, score=score, time_s=round(result.time_s, 6),
               stats=_counters(result.extra, worlds), extra=reported, error=result.error)


def failed_row(job: Job, failure: AgentFailed) -> Row:
    """The row of a game the agent failed before it could finish (or whose process was
    killed or died): outcome timeout or error, and where."""
    return Row(agent=job.agent, map=job.entry.instance.name, group=job.entry.group, run=job.run,
               seed=job.seed, outcome="timeout" if failure.timeout else "error", won=False,
               steps=max(0, failure.step - 1) if failure.where in ("act", "why") else 0,
               guesses=0, score=None, time_s=0.0,
               error=f"{failure.line} (in {failure.place})")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _counters(extra: dict, worlds: set[str]) -> dict:
    """The agent's whole-number counters (timings left out, so rows stay reproducible)."""
    return {k: v for k, v in sorted(extra.items())
            if k not in worlds and isinstance(v, int) and not isinstance(v, bool)}


def play_jobs(jobs: Sequence[Job], caps: Caps | None = None) -> list[Row]:
    clock = Clock(caps or NO_CAPS, own_interrupts=True)
    return [play_job(job, clock) for job in jobs]


class Jobs(Sequence[Job]):
    """Every agent x map x run of a study, in that nesting (map, then run, then agent), each
    made only when it is asked for: a study of ten million games holds none of them."""

    def __init__(self, game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int,
                 seed: int, options: dict[str, tuple], world: tuple):
        self.game, self.agents, self.entries, self.runs, self.seed = game, agents, entries, runs, seed
        self.options, self.world = options, world

    def __len__(self) -> int:
        return len(self.entries) * self.runs * len(self.agents)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError("job index out of range")
        index %= len(self)
        position, agent_index = divmod(index, len(self.agents))
        entry_index, run = divmod(position, self.runs)
        entry, agent = self.entries[entry_index], self.agents[agent_index]
        return Job(self.game, agent, self.options[agent], entry, run,
                   seed_for(self.seed, entry.instance.name, run), self.world)

    def __iter__(self) -> Iterator[Job]:
        return (self[i] for i in range(len(self)))


def make_jobs(game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int, seed: int,
              agent_options: dict[str, dict] | None = None,
              world_options: dict[str, Any] | None = None) -> Jobs:
    """Every agent x map x run (Jobs: made as they are asked for); run i on map m gets
    seed_for(seed, m, i) whoever plays it. The agents and the map names are checked now,
    before the first job."""
    from logic_agents.world.agents import check_options, resolve_agent

    spec = get_game(game)
    options = agent_options or {}
    for name in agents:
        check_options(resolve_agent(spec, name), options.get(name, {}))
    names = [e.instance.name for e in entries]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise LogicAgentsError(f"two maps share the name {dup[0]!r}; give each map its own name")
    return Jobs(game, list(agents), list(entries), runs, seed,
                {a: tuple(sorted(options.get(a, {}).items())) for a in agents},
                tuple(sorted((world_options or {}).items())))


# -- streaming rows ----------------------------------------------------------------------
def _stats_field(value: Any) -> dict:
    if value in (None, ""):
        return {}
    if isinstance(value, str):  # CSV keeps the counters as one JSON cell
        value = json.loads(value)
    return dict(value)


def _count(value: Any, what: str) -> int:
    """A whole number of a results row (at most 12 digits), as written by RowSink."""
    number = int_or_none(str(value), signed=False) if not isinstance(value, bool) else None
    if number is None:
        raise ValueError(f"{what} must be a whole number, got {str(value)[:40]!r}")
    return number


def _row_from_dict(d: dict, where: str) -> Row:
    try:
        time_s = float(d["time_s"])
        if not math.isfinite(time_s) or time_s < 0:
            raise ValueError(f"time_s must be a finite number, got {d['time_s']!r}")
        stats = _stats_field(d.get("stats"))
        extra = _stats_field(d.get("extra"))
        if not all(_number(v) and abs(v) < 1e15 for v in [*stats.values(), *extra.values()]):
            raise ValueError("stats and extra must map names to numbers")
        score = None if d.get("score") in (None, "") else float(d["score"])
        if score is not None and not (math.isfinite(score) and abs(score) < 1e15):
            raise ValueError(f"score must be a finite number, got {d['score']!r}")
        error = d.get("error") or ""
        if not isinstance(error, str):
            raise ValueError(f"error must be text, got {str(error)[:40]!r}")
        return Row(agent=str(d["agent"]), map=str(d["map"]), group=str(d["group"]),
                   run=_count(d["run"], "run"), seed=_count(d["seed"], "seed"),
                   outcome=str(d["outcome"]), won=d["won"] in (True, "True", "true", "1"),
                   steps=_count(d["steps"], "steps"), guesses=_count(d["guesses"], "guesses"),
                   score=score, time_s=time_s, stats=stats, extra=extra, error=error)
    except (KeyError, ValueError, TypeError, AttributeError, RecursionError) as e:
        raise FormatError(f"not a result row ({str(e)[:80]})", where) from None


def _kind(path: Path) -> str:
    if path.suffix == ".csv":
        return "csv"
    if path.suffix in (".jsonl", ".json"):
        return "jsonl"
    raise FormatError("results file must end in .csv or .jsonl", str(path), 0, 0)


def read_rows(path: str | Path) -> list[Row]:
    """Rows of a results file; a half-written last line (a crash mid-write) is ignored."""
    path = Path(path)
    if not path.exists():
        return []
    kind = _kind(path)
    text = read_text(path, "results file")
    text = text[: text.rfind("\n") + 1]  # the torn line of an interrupted write
    rows = []
    if kind == "csv":
        # rows are split by the csv module, not by str.splitlines: a name may hold U+2028
        reader = csv.reader(io.StringIO(text, newline=""))
        previous = csv.field_size_limit(CELL_LIMIT)
        try:
            header = next(reader, None)
            if header is not None and header not in (ROW_FIELDS, OLD_ROW_FIELDS):
                raise FormatError(f"the first line is not the results header "
                                  f"({','.join(ROW_FIELDS)})", str(path), 1, 1)
            for cells in reader:
                where = f"{path}:{reader.line_num}"
                if cells and header is not None and len(cells) != len(header):
                    raise FormatError(f"not a result row ({len(cells)} cells, the header has "
                                      f"{len(header)})", where)
                if cells:
                    rows.append(_row_from_dict(dict(zip(header or [], cells)), where))
        except csv.Error as e:
            raise FormatError(f"not a results file ({e})", str(path), reader.line_num, 0) from None
        finally:
            csv.field_size_limit(previous)
    else:
        for lineno, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                d = load_json(line, str(path), lineno)
                if not isinstance(d, dict):
                    raise FormatError("a result row is a JSON object", str(path), lineno, 1)
                rows.append(_row_from_dict(d, f"{path}:{lineno}"))
    return rows


class RowSink:
    """Append rows to a .csv or .jsonl file, one flushed line per finished game."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.kind = _kind(self.path)
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb+") as f:  # drop a torn last line before appending
                data = f.read()
                if data and not data.endswith(b"\n"):
                    f.truncate(data.rfind(b"\n") + 1)
        # a header torn by a crash is gone now too: a CSV starts again with its header
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.file = self.path.open("a", newline="")
        except OSError as e:
            raise FormatError(f"cannot write results: {e.strerror}", str(self.path), 0, 0) from None
        fields = ROW_FIELDS
        if self.kind == "csv" and not fresh:  # a file of an older version keeps its header
            with self.path.open(newline="") as f:
                if next(csv.reader(f), None) == OLD_ROW_FIELDS:
                    fields = OLD_ROW_FIELDS
        self.writer = (csv.DictWriter(self.file, fields, extrasaction="ignore")
                       if self.kind == "csv" else None)
        if self.writer is not None and fresh:
            self.writer.writeheader()
            self.file.flush()

    def write(self, row: Row) -> None:
        """Append `row`; a row that would not read back (a field over CELL_LIMIT) is
        refused before anything of it is written."""
        record = dataclasses.asdict(row)
        if self.writer is not None:
            record["stats"] = json.dumps(row.stats, sort_keys=True)
            record["extra"] = json.dumps(row.extra, sort_keys=True)
            if any(len(str(v)) > CELL_LIMIT for v in record.values()):
                raise FormatError(f"a row of {row.agent[:40]!r} on {row.map[:40]!r} has a field "
                                  f"over {CELL_LIMIT >> 10} KiB, which a results file does not "
                                  "keep", str(self.path))
            self.writer.writerow(record)
        else:
            line = json.dumps(record) + "\n"
            if len(line) > CELL_LIMIT:
                raise FormatError(f"a row of {row.agent[:40]!r} on {row.map[:40]!r} is over "
                                  f"{CELL_LIMIT >> 10} KiB, which a results file does not keep",
                                  str(self.path))
            self.file.write(line)
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


# -- backends ------------------------------------------------------------------------------
def _run_process(jobs: Iterable[Job], workers: int, caps: Caps, emit: Callable[[Row], None],
                 stop: threading.Event) -> None:
    """Play the jobs on `workers` processes (one at --jobs 1 too: an agent that calls
    os._exit or hangs in C must not take the study down). Each finished game reaches `emit`
    at once; on Ctrl-C (`stop`) the workers are ended within about a second and games still
    running are dropped (a resume plays them again)."""
    Pool(workers, caps, play_job, failed_row).run(iter(jobs), emit, stop)


@contextlib.contextmanager
def _interruptible():
    """Turn Ctrl-C into a flag the run loops check, so no lock or half-written row is left;
    KeyboardInterrupt is raised once the finished games are saved."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    # SIGTERM (a scheduler's stop, `kill`) ends a study as Ctrl-C does: its rows are kept
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if stop.is_set():
        raise KeyboardInterrupt


def compare(
    agents: Sequence[str],
    entries: Sequence[MapEntry],
    *,
    runs: int = 10,
    seed: int = 0,
    jobs: int | None = None,
    game: str | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    retry_errors: bool = False,
    backend: str = "process",
    address: str | None = None,
    agent_options: dict[str, dict] | None = None,
    world_options: dict[str, Any] | None = None,
    caps: Caps = DEFAULT_CAPS,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Play every agent on every map `runs` times with paired seeds; returns all rows
    (those read back from `out` when resuming, then the new ones). `game` defaults to the
    game the instances belong to. A game the agent fails is a row with outcome error or
    timeout (see Row.error); a resume keeps such rows unless `retry_errors`."""
    if game is None:
        from logic_agents.world.registry import game_of_instance

        if not entries:
            raise LogicAgentsError("no instances to play")
        game = game_of_instance(entries[0].instance)
    if backend not in BACKENDS:
        raise UnknownName(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if runs < 1:
        raise LogicAgentsError("runs must be at least 1")
    for name in [*agents, *(e.instance.name for e in entries), *(e.group for e in entries)]:
        if len(name) > NAME_LIMIT:  # refused now: a results file could not hold its rows
            raise LogicAgentsError(f"the name {name[:40]!r}... is {len(name):,} characters "
                                   f"long; a study keeps names of at most {NAME_LIMIT:,}")
    all_jobs = make_jobs(game, agents, entries, runs, seed, agent_options, world_options)
    maps, agent_set = {e.instance.name for e in entries}, set(agents)

    def wanted(key: tuple) -> bool:
        agent, name, run, run_seed = key
        return (agent in agent_set and name in maps and run < runs
                and run_seed == seed_for(seed, name, run))

    rows: list[Row] = []
    sink = None
    if out is not None:
        out = Path(out)
        _kind(out)
        if is_dir(out):
            raise FormatError("is a directory, not a results file", str(out), 0, 0)
        study = study_record(game, agents, entries, runs, seed, agent_options, world_options,
                             caps)
        held = out.exists() and out.stat().st_size > 0
        if held and not resume:
            raise LogicAgentsError(f"{out} already holds results; pass --resume to continue it "
                                   "or choose another --out")
        if held:
            check_same_study(out, study)
            rows = list(_latest(r for r in read_rows(out) if wanted(r.key)).values())
            if retry_errors:
                rows = [r for r in rows if not r.failed]
        write_study(out, study)
        sink = RowSink(out)
    done_keys = {r.key for r in rows}
    todo = (j for j in all_jobs if (j.agent, j.entry.instance.name, j.run, j.seed) not in done_keys)

    def emit(row: Row) -> None:
        rows.append(row)
        if sink is not None:
            sink.write(row)
        if on_row is not None:
            on_row(row)

    try:
        with _interruptible() as stop:
            if backend == "ray":
                from logic_agents.ray_backend import run_ray

                run_ray(list(todo), address, caps, emit, stop)
            else:
                _run_process(todo, jobs or os.cpu_count() or 1, caps, emit, stop)
    finally:
        if sink is not None:
            sink.close()
    return rows


def _latest(rows: Iterable[Row]) -> dict[tuple, Row]:
    """One row per game: the first finished one, else the first failed one (a game retried
    with --retry-errors leaves its failed row in the file, before the new one)."""
    unique: dict[tuple, Row] = {}
    for row in rows:
        held = unique.get(row.key)
        if held is None or (held.failed and not row.failed):
            unique[row.key] = row
    return unique


# -- the study a results file belongs to ----------------------------------------------------
def study_path(out: str | Path) -> Path:
    """The sidecar that records a results file's study: runs.csv -> runs.csv.study.json."""
    return Path(f"{out}.study.json")


def study_record(game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int,
                 seed: int, agent_options: dict[str, dict] | None,
                 world_options: dict[str, Any] | None, caps: Caps | None = None) -> dict:
    """What makes two runs of `compare` the same study, by what the names meant, not only the
    names: each instance's contents (a hash) and group, each agent's identity (a file agent's
    source hash), the options. Runs aside: a resume may add runs, since run i's seed does not
    depend on how many there are. The caps are recorded but may change on a resume (to retry
    timeouts with more time)."""
    from logic_agents import __version__

    spec = get_game(game)
    options = agent_options or {}
    record = {
        "version": __version__, "game": game, "seed": seed, "runs": runs,
        "agents": [{"name": a, "source": agent_source(spec, a),
                    "options": {k: _plain(v) for k, v in sorted(options.get(a, {}).items())}}
                   for a in agents],
        "world_options": {k: _plain(v) for k, v in sorted((world_options or {}).items())},
        "maps": [e.instance.name for e in entries],
        "instances": [{"name": e.instance.name, "group": e.group,
                       "sha256": instance_hash(spec, e.instance)} for e in entries],
    }
    if caps is not None:
        record["caps"] = dataclasses.asdict(caps)
    return record


IDENTITY = ("version", "game", "seed", "agents", "world_options", "maps", "instances")


def instance_hash(spec: Any, instance: Any) -> str:
    """A hash of an instance's contents: its text as the game writes it (else its repr)."""
    text = spec.format_instance(instance) if spec.format_instance else repr(instance)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def agent_source(spec: Any, reference: str) -> str:
    """What an agent name meant: `builtin` for the game's own agents (the version covers
    them), else a hash of the source file of the class a reference names."""
    import inspect
    import sys

    from logic_agents.world.agents import is_reference

    if reference in spec.agents or not is_reference(reference):
        return "builtin"
    module_text = reference.rpartition(":")[0]
    if module_text.endswith(".py") or "/" in module_text or "\\" in module_text:
        path: str | None = module_text
    else:
        module = sys.modules.get(module_text)
        try:
            path = inspect.getsourcefile(module) if module is not None else None
        except TypeError:
            path = None
    try:
        return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16] if path \
            else "unknown"
    except OSError:
        return "unknown"


def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def check_same_study(out: Path, study: dict) -> None:
    """LogicAgentsError unless the results file was written by this same study, naming what
    differs (a map's contents, its group, an agent's file, an option)."""
    held = read_study(out)
    for key in IDENTITY:
        if held.get(key) == study[key]:
            continue
        raise LogicAgentsError(
            f"{out} holds another study: {_difference(key, held.get(key), study[key])}; "
            "resume with the same maps, agents and settings, or choose another --out")


def read_study(out: Path) -> dict:
    """The study record beside `out`, checked as data."""
    sidecar = study_path(out)
    if not sidecar.exists():
        raise LogicAgentsError(f"{out} has no study record ({sidecar.name}), so a resume "
                               "cannot check it is the same study; choose another --out")
    held = load_json(read_text(sidecar, "study record"), str(sidecar))
    if not isinstance(held, dict):
        raise FormatError("not a study record (a JSON object)", str(sidecar), 1, 1)
    runs = held.get("runs")
    if isinstance(runs, bool) or not isinstance(runs, int) or not 0 < runs < 10**12:
        raise FormatError(f"the study record's runs must be a whole number, got "
                          f"{_brief(runs)}", str(sidecar), 1, 1)
    return held


def _difference(key: str, held: Any, now: Any) -> str:
    """Words for what differs under `key` of two study records."""
    if key == "instances" and isinstance(held, list) and len(held) == len(now):
        for old, new in zip(held, now):
            if not isinstance(old, dict):
                break
            if old.get("name") != new["name"]:
                return f"its maps are {_brief([h.get('name') for h in held if isinstance(h, dict)])}"
            if old.get("sha256") != new["sha256"]:
                return (f"map {new['name']!r} has other contents than when the study began "
                        "(the same name, another instance)")
            if old.get("group") != new["group"]:
                return (f"map {new['name']!r} was in group {old.get('group')!r}, now in "
                        f"{new['group']!r} (another --group-by or folder)")
    if key == "agents" and isinstance(held, list) and len(held) == len(now):
        for old, new in zip(held, now):
            if isinstance(old, dict) and old.get("name") == new["name"] and \
                    old.get("source") != new["source"]:
                return (f"the source file of agent {new['name']!r} has changed since the study "
                        "began")
    if held is None and key == "instances":
        return ("its record predates the contents check (written by an older logic-agents), "
                "so it cannot be resumed safely")
    return f"its {key} is {_brief(held)}, this one's is {_brief(now)}"


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def write_study(out: Path, study: dict) -> None:
    """Record the study next to its results (written whole, then renamed into place)."""
    sidecar = study_path(out)
    if sidecar.exists():
        with contextlib.suppress(FormatError, LogicAgentsError, OSError):
            study = {**study, "runs": max(study["runs"], read_study(out)["runs"])}
    tmp = sidecar.with_name(sidecar.name + ".tmp")
    try:
        tmp.write_text(json.dumps(study, indent=1) + "\n")
        os.replace(tmp, sidecar)
    except OSError as e:
        raise FormatError(f"cannot write the study record: {e.strerror}", str(sidecar), 0, 0) \
            from None


# -- summaries -----------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: a sign test on the discordant pairs."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2**n)


def score_stats(scores: Sequence[float], z: float = 1.96) -> dict:
    """Mean, median, max and a normal-approximation 95% interval of the mean."""
    n = len(scores)
    if n == 0:
        return {"mean": 0.0, "median": 0.0, "max": 0.0, "ci95": [0.0, 0.0]}
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return {"mean": mean, "median": statistics.median(scores), "max": max(scores),
            "ci95": [mean - half, mean + half]}


def _stats(rows: list[Row], scored: bool = False) -> dict:
    n = len(rows)
    wins = sum(r.won for r in rows)
    lo, hi = wilson(wins, n)
    extra = {"score": score_stats([r.score or 0 for r in rows])} if scored else {}
    return {**extra,
        "games": n,
        "wins": wins,
        "errors": sum(r.outcome == "error" for r in rows),
        "timeouts": sum(r.outcome == "timeout" for r in rows),
        "win_rate": wins / n if n else 0.0,
        "ci95": [lo, hi],
        "mean_steps": sum(r.steps for r in rows) / n if n else 0.0,
        "mean_guesses": sum(r.guesses for r in rows) / n if n else 0.0,
        "mean_time_s": sum(r.time_s for r in rows) / n if n else 0.0,
        "mean_stats": {k: sum(r.stats[k] for r in rows) / n
                       for k in sorted(set.intersection(*[set(r.stats) for r in rows]))} if n else {},
    }


def summarize(rows: Iterable[Row], agents: Sequence[str] | None = None,
              alpha: float = 0.05, groups: Sequence[str] | None = None,
              scored: bool = False) -> dict:
    """{"agents": {name: stats + "groups"}, "pairs": [...]} as `compare --json` prints it.
    Groups come in the order given (else sorted by name). A `scored` game (Ooze) adds score
    statistics, and its pairs are judged on scores: an exact sign test on the paired runs
    where one agent scored more than the other."""
    rows = list(rows)
    names = list(agents) if agents else list(dict.fromkeys(r.agent for r in rows))
    out: dict[str, Any] = {"agents": {}, "pairs": []}
    for name in names:
        mine = [r for r in rows if r.agent == name]
        entry = _stats(mine, scored)
        by_group: dict[str, list[Row]] = {}
        for r in mine:
            by_group.setdefault(r.group, []).append(r)
        order = [g for g in (groups or []) if g in by_group]
        order += sorted(g for g in by_group if g not in order)
        entry["groups"] = {g: _stats(by_group[g], scored) for g in order}
        out["agents"][name] = entry
    by_key = {(r.agent, r.map, r.run, r.seed): ((r.score or 0) if scored else r.won)
              for r in rows}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shared = [(m, run, s) for (ag, m, run, s) in by_key if ag == a and (b, m, run, s) in by_key]
            if scored:  # "won" = scored more in the paired run
                only_a = sum(by_key[(a, *k)] > by_key[(b, *k)] for k in shared)
                only_b = sum(by_key[(b, *k)] > by_key[(a, *k)] for k in shared)
            else:
                only_a = sum(by_key[(a, *k)] and not by_key[(b, *k)] for k in shared)
                only_b = sum(by_key[(b, *k)] and not by_key[(a, *k)] for k in shared)
            p = mcnemar_exact(only_a, only_b)
            significant = p < alpha
            out["pairs"].append({
                "a": a, "b": b, "paired_games": len(shared), "only_a_won": only_a,
                "only_b_won": only_b,
                "test": ("exact sign test on paired scores" if scored
                         else "exact McNemar (sign test on discordant runs)"),
                "p_value": p, "significant": significant,
                "better": (a if only_a > only_b else b) if significant else None,
            })
    return out


GROUP_BY = ("auto", "folder", "file", "map", "preset")


def group_of(instance: Any, file: Path | None, many: bool, group_by: str = "auto") -> str:
    """The group a study reports an instance under: `map` (each its own), `folder`, `file`,
    `preset` (generated maps), or `auto`: the preset, else the file for a file of many
    instances, else the folder; an instance written inline is its own group."""
    preset = getattr(instance, "preset", "") or ""
    name = getattr(instance, "name", "") or "."
    if group_by == "map" or file is None:
        return name
    if group_by == "preset":
        return preset or "(no preset)"
    if group_by == "folder":
        return file.parent.name or "."
    if group_by == "file":
        return file.stem
    return preset or (file.stem if many else file.parent.name) or "."


def entries_from_references(items: Iterable[str], spec: Any,
                            group_by: str = "auto") -> list[MapEntry]:
    """Entries of what a person names on the command line: folders (every instance file the
    game loads under them), files, FILE:K, shipped names and inline instances."""
    from logic_agents.inputs import is_dir
    from logic_agents.world.resolve import resolve

    if group_by not in GROUP_BY:
        raise UnknownName(f"unknown grouping {group_by!r}; choose one of {', '.join(GROUP_BY)}")
    entries = []
    for k, item in enumerate(items, start=1):
        if is_dir(item):
            entries += entries_from_paths([item], spec.load_all or spec.load, group_by)
            continue
        label = f"<argument {k}>"
        source, instances = resolve(item, spec, every=True, label=label)
        base = source.rsplit(":", 1)[0] if ":" in source else source
        path = None if source == label else Path(base)
        many = len(instances) > 1 or spec.load_all is not None
        entries += [MapEntry(i, group_of(i, path, many, group_by)) for i in instances]
    return entries


def entries_from_paths(paths: Iterable[str | Path], load: Callable[[Path], Any],
                       group_by: str = "auto") -> list[MapEntry]:
    """Instance files and folders (searched recursively for *.txt and *.tsv), grouped by
    group_of. `load` may return one instance or a list (a file of many puzzles)."""
    entries = []
    for raw in paths:
        path = Path(raw)
        files = (sorted(p for suffix in MAP_SUFFIXES for p in path.rglob(f"*{suffix}"))
                 if path.is_dir() else [path])
        if path.is_dir() and not files:
            raise FormatError(f"folder holds no {' or '.join(MAP_SUFFIXES)} files", str(path), 0, 0)
        for file in files:
            loaded = load(file)
            many = isinstance(loaded, list)
            entries += [MapEntry(i, group_of(i, file, many, group_by))
                        for i in (loaded if many else [loaded])]
    return entries
