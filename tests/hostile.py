"""A hostile round (issue 39's "done means"): random cases of four kinds, each drawn from one
seed, each judged by what a user would see.

Kinds:
- api: a public function with one odd argument; a result or a LogicAgentsError is fine.
- plugin: a broken copy of Lights Out (tests.broken_lights) under a verb; the verb must end
  with an exit code and no traceback.
- results: a finished study's results file (or its record) edited 1-3 times, then resumed; the
  resume must stop with a LogicAgentsError or end with exactly the true rows.
- files: a shipped instance file of some game, mutated, then read and played by the CLI; any
  exit code but no traceback.

run_case(kind, rng, work) -> one of "ok", "refused", "raw: <kind>", "hang", "silent change".
`python scripts/hostile_round.py --cases 10000` runs a round; tests/test_hostile_round.py runs
a fixed slice of it in every CI run.
"""

from __future__ import annotations

import contextlib
import io
import math
import random
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import logic_agents as la
from logic_agents.cli import main
from logic_agents.errors import LogicAgentsError
from tests.broken_lights import FAULTS, install_fault
from tests.plugins import plugged

KINDS = ("api", "plugin", "results", "files")
CASE_LIMIT_S = 90  # a case that runs longer is a hang


class _Hang(BaseException):
    pass


@contextlib.contextmanager
def _limit(seconds: float) -> Iterator[None]:
    def ring(*_: object) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def judge(call: Callable[[], Any]) -> str:
    """What a user would see of one call."""
    try:
        with _limit(CASE_LIMIT_S), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()) as err:
            outcome = call()
    except _Hang:
        return "hang"
    except LogicAgentsError:
        return "refused"
    except SystemExit as e:
        return "ok" if isinstance(e.code, int) else f"raw: SystemExit {e.code!r}"
    except Exception as e:
        return f"raw: {type(e).__name__}: {str(e)[:80]}"
    if isinstance(outcome, int) and "Traceback" in err.getvalue():
        return "raw: a traceback on stderr"
    return outcome if isinstance(outcome, str) and outcome.startswith("silent") else "ok"


# -- api -------------------------------------------------------------------------------------
def odd_value(rng: random.Random, work: Path) -> Any:
    pool: list[Any] = [
        None, True, False, -1, 0, 1, 2, 10**12, 2**63, -(2**70), 1.5, math.nan, math.inf, -0.0,
        "", "EASY1", "HARD1", "x" * 300, "\udc80", "../../etc/passwd", "4x4de:1", "EASY1:0",
        b"EASY1", [], ["EASY1"], ("spx",), {}, {"lives": 0}, {"spx": None}, {"": 1}, object(),
        iter(["EASY1"]), Path("EASY1"), Path(work), str(work / "x.csv"), "spx", "satx",
        "examples/my_agent.py:MyAgent", "nosuch.py:X", lambda: None, type("T", (), {}),
    ]
    with contextlib.suppress(ImportError):
        import numpy as np

        pool += [np.int64(3), np.float64(2.0), np.array([1])]
    return rng.choice(pool)


API = {
    "play": ("ref", "agent", "game", "seed", "lives", "trace", "node_cap"),
    "view": ("ref", "agent", "seed", "lives", "output"),
    "compare": ("agents", "refs", "runs", "seed", "jobs", "out", "resume", "agent_options",
                "world_options", "progress", "game"),
    "board": ("ref", "seed", "game", "observation", "action"),
    "load": ("ref", "game"),
    "solve": ("ref", "unique", "solver", "game"),
    "make_world": ("instance", "game", "lives", "banana"),
    "make_agent": ("agent", "game", "node_cap"),
}


def api_case(rng: random.Random, work: Path) -> Callable[[], Any]:
    name = rng.choice(sorted(API))
    key = rng.choice(API[name])
    odd = odd_value(rng, work)
    defaults: dict[str, dict[str, Any]] = {
        "play": {"ref": "EASY1"}, "view": {"ref": "EASY1"},
        "compare": {"agents": ["rpx"], "refs": ["EASY1"], "runs": 1, "jobs": 1,
                    "progress": False},
        "board": {"ref": "EASY1"}, "load": {"ref": "EASY1"}, "solve": {"ref": "norvig_easy50:1"},
        "make_world": {"instance": la.load("EASY1"), "game": "daggers"},
        "make_agent": {"agent": "satx", "game": "daggers"},
    }
    kwargs = {**defaults[name], key: odd}
    if name == "compare" and key == "runs" and isinstance(odd, int) and 3 < odd <= 10**6:
        kwargs["runs"] = 3  # a valid count, kept small: the round is about odd values
    if name == "compare" and key == "out" and kwargs.get("out") == str(work / "x.csv"):
        kwargs["out"] = work / f"r{rng.randrange(10**9)}.csv"
    if name in ("play", "view") and key in ("trace", "output") and isinstance(odd, (str, Path)):
        kwargs[key] = work / f"o{rng.randrange(10**9)}.{'jsonl' if key == 'trace' else 'html'}"
    call = getattr(la, name)
    if name in ("make_world", "make_agent"):
        first = [kwargs.pop(p) for p in API[name][:2]]
        return lambda: call(*first, **kwargs)
    return lambda: call(**kwargs)


# -- plug-ins --------------------------------------------------------------------------------
SLOW_FAULTS = {"hangs-at-import", "step-hangs", "step-stuck-in-c", "sniff-sleeps",
               "sleeps-at-import"}


def plugin_case(rng: random.Random, work: Path) -> Callable[[], Any]:
    fault = rng.choice(sorted(set(FAULTS) - SLOW_FAULTS))
    site = install_fault(work / f"site-{rng.randrange(10**9)}", fault)
    game = ["--game", f"broken-{fault}"]
    verb = rng.choice([
        ["games", "--check", f"broken-{fault}", "--json"],
        ["play", "lights-5x5-a", *game, "--game-timeout", "20"],
        ["view", "lights-5x5-a", *game, "-o", str(work / "v.html"), "--force"],
        ["compare", "lights-5x5-a", *game, "--runs", "1", "--jobs", "1", "--json",
         "--game-timeout", "20"],
        ["games", "--json"], ["maps", "--json"], ["play", "EASY1", "--quiet"],
    ])

    def call() -> int:
        with plugged(site):
            return main(verb)

    return call


# -- results files ---------------------------------------------------------------------------
STUDY = dict(runs=3, seed=5, jobs=1, progress=False)
AGENTS = ["rpx", "spx"]
MAPS = ["EASY1", "EASY2"]


def true_study(work: Path) -> Path:
    out = work / "true" / "r.csv"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        la.compare(AGENTS, MAPS, out=out, **STUDY)
    return out


def _signature(rows: list[Any]) -> list[tuple]:
    return sorted((r.key, r.outcome, r.won, r.steps, r.guesses, r.score) for r in rows)


def _edit(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    body = [k for k in range(1, len(lines)) if lines[k]]
    how = rng.choice(["drop", "duplicate", "swap", "char", "field", "cr", "garbage", "truncate",
                      "bom", "header", "empty", "crlf", "forge"])
    if how == "drop" and body:
        del lines[rng.choice(body)]
    elif how == "duplicate" and body:
        k = rng.choice(body)
        lines.insert(rng.randrange(1, len(lines)), lines[k])
    elif how == "swap" and len(body) > 1:
        a, b = rng.sample(body, 2)
        lines[a], lines[b] = lines[b], lines[a]
    elif how == "char" and body:
        k = rng.choice(body)
        line = bytearray(lines[k])
        line[rng.randrange(len(line))] = rng.choice(b"0123456789,.TFabx\"-{}:")
        lines[k] = bytes(line)
    elif how == "field" and body:
        k = rng.choice(body)
        cells = lines[k].split(b",")
        cells[rng.randrange(len(cells))] = rng.choice(
            [b"won", b"True", b"False", b"yes", b"1e308", b"-1", b"nan", b"", b"999", b"banana",
             b"error", b"0", b"3.5"])
        lines[k] = b",".join(cells)
    elif how == "cr":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
    elif how == "crlf":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    elif how == "garbage":
        lines.insert(rng.randrange(len(lines) + 1), bytes(rng.randrange(256)
                                                         for _ in range(rng.randrange(1, 40))))
    elif how == "truncate":
        return data[:rng.randrange(len(data) + 1)]
    elif how == "bom":
        return b"\xef\xbb\xbf" + data
    elif how == "header":
        lines[0] = lines[0].replace(b"won", b"win")
    elif how == "empty":
        return b""
    elif how == "forge" and body:  # a won row placed before the real ones
        cells = lines[rng.choice(body)].split(b",")
        if len(cells) > 6:
            cells[5], cells[6] = b"won", b"True"
        lines.insert(1, b",".join(cells))
    return b"\n".join(lines)


def results_case(rng: random.Random, work: Path) -> Callable[[], Any]:
    truth = true_study(work)
    case = work / f"study-{rng.randrange(10**9)}"
    case.mkdir()
    out = case / "r.csv"
    shutil.copy(truth, out)
    shutil.copy(truth.with_name("r.csv.study.json"), case / "r.csv.study.json")
    target = out if rng.random() < 0.9 else case / "r.csv.study.json"
    data = target.read_bytes()
    for _ in range(rng.randint(1, 3)):
        data = _edit(data, rng)
    target.write_bytes(data)
    expected = _signature(la.compare(AGENTS, MAPS, **STUDY).rows) if not hasattr(
        results_case, "expected") else results_case.expected  # type: ignore[attr-defined]
    results_case.expected = expected  # type: ignore[attr-defined]

    def call() -> str:
        resumed = la.compare(AGENTS, MAPS, out=out, resume=True, **STUDY)
        if _signature(resumed.rows) != expected:
            return "silent change of the rows"
        return "ok"

    return call


# -- odd files -------------------------------------------------------------------------------
SEEDS = ["EASY1", "HARD1", "norvig_easy50", "4x4de", "lights-5x5-a", "akari-7x7-a"]


def files_case(rng: random.Random, work: Path) -> Callable[[], Any]:
    from logic_agents.world.registry import games
    from logic_agents.world.resolve import shipped_path

    name = rng.choice(SEEDS)
    found = [(spec.name, p) for spec in games().values()
             if (p := shipped_path(name, spec)) is not None]
    game, path = found[0] if found else (None, None)
    data = bytearray(path.read_bytes() if path is not None else b"")[:20_000]
    for _ in range(rng.randint(1, 6)):
        how = rng.random()
        at = rng.randrange(len(data) + 1)
        if how < 0.3 and data:
            del data[at:at + rng.randint(1, 30)]
        elif how < 0.6:
            data[at:at] = bytes(rng.choice(b"0123456789 .*#\n\t-:LRGVZ|\xff\x00")
                                for _ in range(rng.randint(1, 30)))
        elif how < 0.7:
            data[at:at] = b"\n" * rng.randint(1, 3000)
        elif how < 0.8:
            data[at:at] = str(rng.choice([10**30, -5, 2**63, 0])).encode()
        elif data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    odd = work / f"odd-{rng.randrange(10**9)}{rng.choice(['.txt', '.tsv', '', '.jsonl'])}"
    odd.write_bytes(bytes(data))
    argv = rng.choice([["play", str(odd), "--quiet", "--game-timeout", "20"],
                       ["maps", str(odd), "--json"], ["solve", str(odd), "--json"],
                       ["replay", str(odd)], ["view", str(odd), "-o", str(work / "o.html"),
                                               "--force", "--game-timeout", "20"]])
    if game is not None and argv[0] != "replay" and rng.random() < 0.5:
        argv += ["--game", game]  # past detection, into the game's own parser
    return lambda: main(argv)


CASES = {"api": api_case, "plugin": plugin_case, "results": results_case, "files": files_case}


def run_case(kind: str, rng: random.Random, work: Path) -> str:
    try:
        call = CASES[kind](rng, work)
    except LogicAgentsError:
        return "refused"
    return judge(call)


def round_of(cases: int, seed: int, work: Path, mix: dict[str, float] | None = None
             ) -> Iterator[tuple[str, str]]:
    """(kind, verdict) of `cases` cases drawn from `seed`."""
    rng = random.Random(seed)
    mix = mix or {"api": 0.55, "plugin": 0.05, "results": 0.2, "files": 0.2}
    kinds, weights = zip(*sorted(mix.items()))
    with plugged(work / "no-site"):  # the registry afresh; a case's site is plugged by itself
        for _ in range(cases):
            kind = rng.choices(kinds, weights)[0]
            yield kind, run_case(kind, random.Random(rng.randrange(2**32)), work)
