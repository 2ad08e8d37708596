"""Paired batch comparison of agents, with streamed results and summaries you can trust.

Concepts:
- MapEntry: an instance and its group (its preset, else its folder).
- seed_for(seed, map, run): the seed of run `run` on `map`, the same for every agent (paired).
- Job / Row: one game to play / its result, with the agent's counters (SAT tests, search nodes,
  EA generations); rows serialise to CSV (counters as one JSON cell) or JSONL.
- RowSink: appends each finished row to the --out file and flushes it at once, so an
  interrupted study loses no finished game; read_rows + `resume` skip what is already there.
- compare(): runs the jobs on a backend ("process": a process pool; "ray": a Ray cluster,
  local by default) and returns the rows.
- summarize(): per agent and per group, games, wins, win rate with a 95% Wilson interval,
  means of steps, guesses, time and the agent's counters; for every pair of agents an exact
  McNemar test on the runs where exactly one of them won.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import hashlib
import json
import math
import os
import queue
import signal
import statistics
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic_agents.errors import FormatError, LogicAgentsError, UnknownName
from logic_agents.inputs import int_or_none, is_dir, load_json, read_text
from logic_agents.world.registry import get_game
from logic_agents.world.resolve import MAP_SUFFIXES
from logic_agents.world.runner import run_episode

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

    @property
    def key(self) -> tuple:
        return (self.agent, self.map, self.run, self.seed)


ROW_FIELDS = [f.name for f in dataclasses.fields(Row)]


def seed_for(seed: int, map_name: str, run: int) -> int:
    """hash(S, m, i): stable across processes and Python versions (unlike hash())."""
    digest = hashlib.blake2b(f"{seed}:{map_name}:{run}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def play_job(job: Job) -> Row:
    from logic_agents.world.agents import build_agent, resolve_agent

    spec = get_game(job.game)
    agent = build_agent(resolve_agent(spec, job.agent), dict(job.agent_options))
    world = spec.make_world(job.entry.instance, **dict(job.world_options))
    name = job.entry.instance.name
    result = run_episode(world, agent, job.seed, game=job.game, map_name=name)
    worlds = set(spec.result_keys) | ({"lives_left"} if spec.has_lives else set())
    reported = {k: v for k, v in sorted(result.extra.items()) if k in worlds and _number(v)}
    score = reported.get("score") if spec.objective == "score" else None
    return Row(agent=job.agent, map=name, group=job.entry.group, run=job.run, seed=job.seed,
               outcome=result.outcome.value, won=result.won, steps=result.steps,
               guesses=result.guesses, score=score, time_s=round(result.time_s, 6),
               stats=_counters(result.extra, worlds), extra=reported)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _counters(extra: dict, worlds: set[str]) -> dict:
    """The agent's whole-number counters (timings left out, so rows stay reproducible)."""
    return {k: v for k, v in sorted(extra.items())
            if k not in worlds and isinstance(v, int) and not isinstance(v, bool)}


def play_jobs(jobs: Sequence[Job]) -> list[Row]:
    return [play_job(job) for job in jobs]


def make_jobs(game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int, seed: int,
              agent_options: dict[str, dict] | None = None,
              world_options: dict[str, Any] | None = None) -> list[Job]:
    """Every agent x map x run; run i on map m gets seed_for(seed, m, i) whoever plays it."""
    from logic_agents.world.agents import check_options, resolve_agent

    spec = get_game(game)
    options = agent_options or {}
    for name in agents:
        check_options(resolve_agent(spec, name), options.get(name, {}))
    names = [e.instance.name for e in entries]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise LogicAgentsError(f"two maps share the name {dup[0]!r}; give each map its own name")
    world = tuple(sorted((world_options or {}).items()))
    return [
        Job(game, agent, tuple(sorted(options.get(agent, {}).items())), entry, run,
            seed_for(seed, entry.instance.name, run), world)
        for entry in entries
        for run in range(runs)
        for agent in agents
    ]


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
        return Row(agent=str(d["agent"]), map=str(d["map"]), group=str(d["group"]),
                   run=_count(d["run"], "run"), seed=_count(d["seed"], "seed"),
                   outcome=str(d["outcome"]), won=d["won"] in (True, "True", "true", "1"),
                   steps=_count(d["steps"], "steps"), guesses=_count(d["guesses"], "guesses"),
                   score=score, time_s=time_s, stats=stats, extra=extra)
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
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines = lines[:-1]  # the torn line of an interrupted write
    rows = []
    if kind == "csv":
        if lines and next(csv.reader(lines[:1]), []) != ROW_FIELDS:
            raise FormatError(f"the first line is not the results header "
                              f"({','.join(ROW_FIELDS)})", str(path), 1, 1)
        for lineno, d in enumerate(csv.DictReader(lines), start=2):
            rows.append(_row_from_dict(d, f"{path}:{lineno}"))
    else:
        for lineno, line in enumerate(lines, start=1):
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
        self.writer = csv.DictWriter(self.file, ROW_FIELDS) if self.kind == "csv" else None
        if self.writer is not None and fresh:
            self.writer.writeheader()
            self.file.flush()

    def write(self, row: Row) -> None:
        if self.writer is not None:
            record = dataclasses.asdict(row)
            record["stats"] = json.dumps(row.stats, sort_keys=True)
            record["extra"] = json.dumps(row.extra, sort_keys=True)
            self.writer.writerow(record)
        else:
            self.file.write(json.dumps(dataclasses.asdict(row)) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


# -- backends ------------------------------------------------------------------------------
def _die_with_parent(parent: int) -> None:
    """Make a worker exit when the process that started it dies, even by SIGKILL: Linux's
    parent-death signal where there is one, and a watchdog thread everywhere."""
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _worker(tasks: Any, results: Any, parent: int) -> None:
    """A worker process: play the jobs it is sent, one result message per finished game."""
    # Ctrl-C at a terminal goes to the whole foreground group; the parent alone handles it
    # (a solver interrupted mid-call would only raise), so the worker leaves the group
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    _die_with_parent(parent)
    while True:
        job = tasks.get()
        if job is None:
            return
        try:
            results.put(("row", play_job(job)))
        except BaseException as e:  # a bug in an agent: send it to the parent, which raises it
            results.put(("error", f"{type(e).__name__}: {e}",
                         "".join(traceback.format_exception(e))))
            return


def _stop_workers(workers: list[Any]) -> None:
    for proc in workers:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + 1.0
    for proc in workers:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join()


def _run_process(jobs: Sequence[Job], workers: int, emit: Callable[[Row], None],
                 stop: threading.Event) -> None:
    """Play the jobs on `workers` processes. Each finished game reaches `emit` at once; on
    Ctrl-C (`stop`) the workers are ended within about a second and games still running are
    dropped (a resume plays them again)."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            if stop.is_set():
                return
            emit(play_job(job))
        return
    import multiprocessing

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                          else "spawn")
    tasks, results = context.Queue(), context.Queue()
    workers = min(workers, len(jobs))
    procs = [context.Process(target=_worker, args=(tasks, results, os.getpid()), daemon=True)
             for _ in range(workers)]
    for proc in procs:
        proc.start()
    try:
        for job in jobs:
            tasks.put(job)
        for _ in procs:
            tasks.put(None)
        remaining = len(jobs)
        while remaining and not stop.is_set():
            try:
                kind, *payload = results.get(timeout=0.2)
            except queue.Empty:
                if not any(p.is_alive() for p in procs):
                    raise LogicAgentsError("every worker process ended before the study was "
                                           "done (killed from outside?)") from None
                continue
            if kind == "error":
                raise RuntimeError(f"a game raised {payload[0]}\n{payload[1]}")
            emit(payload[0])
            remaining -= 1
    finally:
        _stop_workers(procs)
        # rows that reached the queue before the stop are finished games: keep them
        with contextlib.suppress(Exception):
            while True:
                kind, *payload = results.get_nowait()
                if kind == "row":
                    emit(payload[0])
        tasks.cancel_join_thread()
        results.cancel_join_thread()


@contextlib.contextmanager
def _interruptible():
    """Turn Ctrl-C into a flag the run loops check, so no lock or half-written row is left;
    KeyboardInterrupt is raised once the finished games are saved."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)
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
    backend: str = "process",
    address: str | None = None,
    agent_options: dict[str, dict] | None = None,
    world_options: dict[str, Any] | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Play every agent on every map `runs` times with paired seeds; returns all rows
    (those read back from `out` when resuming, then the new ones). `game` defaults to the
    game the instances belong to."""
    if game is None:
        from logic_agents.world.registry import game_of_instance

        if not entries:
            raise LogicAgentsError("no instances to play")
        game = game_of_instance(entries[0].instance)
    if backend not in BACKENDS:
        raise UnknownName(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if runs < 1:
        raise LogicAgentsError("runs must be at least 1")
    all_jobs = make_jobs(game, agents, entries, runs, seed, agent_options, world_options)
    wanted = {(j.agent, j.entry.instance.name, j.run, j.seed) for j in all_jobs}
    rows: list[Row] = []
    sink = None
    if out is not None:
        out = Path(out)
        _kind(out)
        if is_dir(out):
            raise FormatError("is a directory, not a results file", str(out), 0, 0)
        study = study_record(game, agents, entries, runs, seed, agent_options, world_options)
        held = out.exists() and out.stat().st_size > 0
        if held and not resume:
            raise LogicAgentsError(f"{out} already holds results; pass --resume to continue it "
                                   "or choose another --out")
        if held:
            check_same_study(out, study)
            # only this study's games count, each once, however the file was written
            unique: dict[tuple, Row] = {}
            for row in read_rows(out):
                if row.key in wanted:
                    unique.setdefault(row.key, row)
            rows = list(unique.values())
        write_study(out, study)
        sink = RowSink(out)
    done_keys = {r.key for r in rows}
    todo = [j for j in all_jobs if (j.agent, j.entry.instance.name, j.run, j.seed) not in done_keys]

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

                run_ray(todo, address, emit, stop)
            else:
                _run_process(todo, jobs or os.cpu_count() or 1, emit, stop)
    finally:
        if sink is not None:
            sink.close()
    return rows


# -- the study a results file belongs to ----------------------------------------------------
def study_path(out: str | Path) -> Path:
    """The sidecar that records a results file's study: runs.csv -> runs.csv.study.json."""
    return Path(f"{out}.study.json")


def study_record(game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int,
                 seed: int, agent_options: dict[str, dict] | None,
                 world_options: dict[str, Any] | None) -> dict:
    """What makes two runs of `compare` the same study (runs aside: a resume may add runs,
    since run i's seed does not depend on how many there are)."""
    from logic_agents import __version__

    options = agent_options or {}
    return {
        "version": __version__, "game": game, "seed": seed, "runs": runs,
        "agents": [{"name": a, "options": {k: _plain(v) for k, v in
                                           sorted(options.get(a, {}).items())}} for a in agents],
        "world_options": {k: _plain(v) for k, v in sorted((world_options or {}).items())},
        "maps": [e.instance.name for e in entries],
    }


def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def check_same_study(out: Path, study: dict) -> None:
    """LogicAgentsError unless the results file was written by this same study."""
    sidecar = study_path(out)
    if not sidecar.exists():
        raise LogicAgentsError(f"{out} has no study record ({sidecar.name}), so a resume "
                               "cannot check it is the same study; choose another --out")
    held = load_json(read_text(sidecar, "study record"), str(sidecar))
    if not isinstance(held, dict):
        raise FormatError("not a study record", str(sidecar), 1, 1)
    for key in ("version", "game", "seed", "agents", "world_options", "maps"):
        if held.get(key) != study[key]:
            raise LogicAgentsError(
                f"{out} holds another study: its {key} is {_brief(held.get(key))}, this one's "
                f"is {_brief(study[key])}; resume with the same settings or choose another --out")


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def write_study(out: Path, study: dict) -> None:
    """Record the study next to its results (written whole, then renamed into place)."""
    sidecar = study_path(out)
    if sidecar.exists():
        with contextlib.suppress(FormatError, OSError):
            held = load_json(read_text(sidecar, "study record"), str(sidecar))
            study = {**study, "runs": max(study["runs"], int(held.get("runs", 0)))}
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
