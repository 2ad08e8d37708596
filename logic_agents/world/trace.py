"""JSONL traces of episodes, and replay that re-runs a trace and checks that it agrees.

Concepts:
- to_jsonable: observations and actions become JSON via their `to_json()` (or dataclass fields);
- Trace: a writer; one `begin` line (game, the instance as text, its map path, world options,
  seed, first observation), one `step` line per action (with the agent's `why` when it gave
  one), one `end` line with the EpisodeResult; flushed line by line;
- read_trace / replay: replay rebuilds the world from the registry, feeds it the recorded
  actions and raises TraceMismatch at the first step whose observation, reward or end differs.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import IO, Any

from logic_agents.errors import FormatError, LogicAgentsError, TraceMismatch
from logic_agents.ground.inputs import MAX_INPUT_BYTES, load_json, read_text
from logic_agents.ground.shapes import Record
from logic_agents.world.core import AnyWorld, EpisodeResult, why_record
from logic_agents.world.registry import get_game
from logic_agents.world.resolve import resolve
from logic_agents.world.spec import GameSpec, Lives
from logic_agents.world.values import Instance


def to_jsonable(value: object) -> Any:  # a JSON value
    """A JSON-ready copy of observations, actions and results."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


class Trace:
    """Write one episode as JSON lines. Use as a context manager or call close()."""

    def __init__(self, target: str | Path | IO[str], **header: object):
        """A trace written to a path (created) or an open stream; `header` goes in `begin`."""
        if isinstance(target, (str, Path)):
            shown = repr(str(target))[1:-1][:200]  # a name printed as text, escapes and all
            try:
                self._file: IO[str] = open(target, "w")  # noqa: SIM115 - closed in close()
            except OSError as e:
                raise FormatError(f"cannot write trace: {e.strerror}", shown, 0, 0) from None
            except UnicodeEncodeError:  # a lone surrogate no file system can encode
                raise FormatError("cannot write trace: the name is not text a file name can "
                                  "hold (a lone surrogate)", shown, 0, 0) from None
            except ValueError:  # a NUL byte: no file system holds such a name
                raise FormatError("cannot write trace: the name holds a NUL byte", shown, 0,
                                  0) from None
            self._owned = True
        else:
            self._file, self._owned = target, False
        self.header = header
        self._t = 0
        self._bytes = 0
        self._name = repr(str(target))[1:-1][:200] if isinstance(target, (str, Path)) \
            else "<trace>"

    def _write(self, record: Record) -> None:
        line = json.dumps(record, separators=(",", ":")) + "\n"
        self._bytes += len(line.encode("utf-8"))
        if self._bytes > MAX_INPUT_BYTES:  # replay and view would refuse the file: stop here
            raise FormatError(f"the trace would pass {MAX_INPUT_BYTES >> 20} MiB, more than "
                              "replay and view read; play without --trace, or a smaller map",
                              self._name, 0, 0)
        try:
            self._file.write(line)
            self._file.flush()
        except OSError as e:  # a full disk, a file that takes no writes (/proc/self/mem)
            raise FormatError(f"cannot write trace: {e.strerror or e}", self._name, 0,
                              0) from None

    def begin(self, *, observation: object, **fields: object) -> None:
        """The `begin` line: the episode's fields, the header and the first observation."""
        self._t = 0
        record = {"type": "begin", **fields, **self.header, "observation": to_jsonable(observation)}
        self._write(record)

    def step(self, action: object, observation: object, reward: float, terminated: bool,
             truncated: bool, why: object = None) -> None:
        """One step; `why` (the agent's reason, a str or a Why) is kept when it says something."""
        self._t += 1
        record = {
            "type": "step",
            "t": self._t,
            "action": to_jsonable(action),
            "reward": reward,
            "terminated": terminated,
            "truncated": truncated,
            "observation": to_jsonable(observation),
        }
        said = why_record(why)
        if said is not None:
            record["why"] = said
        self._write(record)

    def end(self, result: EpisodeResult) -> None:
        """The `end` line: the episode's result."""
        self._write({"type": "end", "result": to_jsonable(result)})

    def close(self) -> None:
        """Close the file it opened (a stream given to it stays open)."""
        if self._owned:
            try:
                self._file.close()
            except OSError as e:  # what was buffered could not be written
                raise FormatError(f"cannot write trace: {e.strerror or e}", self._name, 0,
                                  0) from None

    def __enter__(self) -> Trace:
        """The trace itself; it is closed when the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close it."""
        self.close()


_STEP_KEYS = {"t": int, "action": object, "reward": (int, float), "terminated": bool,
              "truncated": bool, "observation": object}


def trace_header(spec: GameSpec, instance: Instance, map_path: str,
                 world_options: Record) -> Record:
    """What a trace's `begin` line carries besides the episode.

    Its map path, the world options and the instance itself (so it replays anywhere).
    """
    return {"map_path": map_path, "world_options": world_options,
            "instance": spec.instances.format(instance)}


def _check_record(record: object, file: str, lineno: int) -> Record:
    """A trace line's record, checked against its schema (FormatError at file:line)."""
    if not isinstance(record, dict):
        raise FormatError(f"a trace line is a JSON object, got {type(record).__name__}", file,
                          lineno, 1)
    kind = record.get("type")
    wanted: Record = {}
    if kind == "begin":
        wanted = {"game": str, "observation": object}
        if "instance" not in record and "map_path" not in record:
            raise FormatError("the 'begin' record has neither 'instance' nor 'map_path'", file,
                              lineno, 1)
        for key in ("instance", "map_path"):
            if key in record and not isinstance(record[key], str):
                raise FormatError(f"'{key}' must be a string", file, lineno, 1)
        if not isinstance(record.get("world_options", {}), dict):
            raise FormatError("'world_options' must be an object", file, lineno, 1)
        for key in ("map", "agent"):
            if not isinstance(record.get(key, ""), str):
                raise FormatError(f"'{key}' must be a string", file, lineno, 1)
        seed = record.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise FormatError("'seed' must be an integer or null", file, lineno, 1)
    elif kind == "step":
        wanted = _STEP_KEYS
        if "why" in record:
            _check_why(record["why"], file, lineno)
    elif kind == "end":
        result = record.get("result")
        if not isinstance(result, dict):
            raise FormatError("the 'end' record needs a 'result' object", file, lineno, 1)
        for key, kinds in (("steps", int), ("score", (int, float)), ("outcome", str)):
            if not isinstance(result.get(key), kinds) or isinstance(result.get(key), bool):
                raise FormatError(f"the 'end' result needs '{key}'", file, lineno, 1)
    else:
        raise FormatError(f"unknown record type {str(kind)[:40]!r}", file, lineno, 1)
    for key, kinds in wanted.items():
        if key not in record:
            raise FormatError(f"the '{kind}' record has no '{key}'", file, lineno, 1)
        value = record[key]
        if kinds is not object and (not isinstance(value, kinds)
                                    or (kinds in (int, (int, float)) and isinstance(value, bool))):
            raise FormatError(f"'{key}' of the '{kind}' record has the wrong type", file, lineno, 1)
    return record


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9


def _check_why(why: object, file: str, lineno: int) -> None:
    """Check a step's `why` as Why.to_json writes it, or null.

    {"text": str, "cells": [[r, c], ...], "odds": [[r, c, p], ...] with 0 <= p <= 1,
    "guess": bool, "path": bool}.
    """
    def bad(what: str) -> FormatError:
        return FormatError(f"the step's 'why' {what}", file, lineno, 1)

    if why is None:
        return
    if not isinstance(why, dict):
        raise bad(f"must be an object, got {type(why).__name__}")
    if not isinstance(why.get("text", ""), str):
        raise bad("'text' must be a string")
    cells = why.get("cells", [])
    if not isinstance(cells, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(map(_whole, c)) for c in cells):
        raise bad("'cells' must be a list of [row, column] pairs of whole numbers")
    odds = why.get("odds", [])
    if not isinstance(odds, list) or not all(
            isinstance(o, list) and len(o) == 3 and _whole(o[0]) and _whole(o[1])
            and isinstance(o[2], (int, float)) and not isinstance(o[2], bool)
            and 0 <= o[2] <= 1 for o in odds):
        raise bad("'odds' must be a list of [row, column, probability 0-1]")
    if not isinstance(why.get("guess", False), bool):
        raise bad("'guess' must be true or false")
    if not isinstance(why.get("path", False), bool):
        raise bad("'path' must be true or false")




def read_trace(path: str | Path, text: str | None = None
               ) -> tuple[Record, list[Record], Record | None]:
    """(begin record, step records, end record or None) of a trace, each line checked.

    The trace is a file, or `text` (named `path` in errors).
    """
    path = Path(path)
    if text is None:
        text = read_text(path, "trace")
    begin, steps, end = None, [], None
    # every line must be JSON before any is checked against its schema
    decoded = [(lineno, load_json(line, str(path), lineno))
               for lineno, line in enumerate(text.split("\n"), start=1) if line.strip()]
    for lineno, value in decoded:
        record = _check_record(value, str(path), lineno)
        kind = record["type"]
        if kind == "begin":
            if begin is not None:
                raise FormatError("a second 'begin' record", str(path), lineno, 1)
            begin = record
        elif begin is None:
            raise FormatError(f"a '{kind}' record before 'begin'", str(path), lineno, 1)
        elif kind == "step":
            steps.append(record)
        else:
            end = record
    if begin is None:
        raise FormatError("trace has no 'begin' record", str(path), 1, 1)
    return begin, steps, end


def _world_options(options: Record, spec: GameSpec, path: str | Path) -> Record:
    """The trace's world options, checked against what the game's world takes."""
    allowed = ({"lives"} if spec.get(Lives) else set()) | {o.name for o in spec.options}
    for key, value in options.items():
        if key not in allowed:
            raise FormatError(f"world option {key!r} is not one {spec.name} takes "
                              f"({', '.join(sorted(allowed)) or 'none'})", str(path), 1, 1)
        numeric = key in ("lives", "max_ticks")
        if numeric and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise FormatError(f"world option {key!r} must be a positive integer", str(path), 1, 1)
        if not numeric and not isinstance(value, str):
            raise FormatError(f"world option {key!r} must be a string", str(path), 1, 1)
    return options


def _lines(path: Path, text: str | None) -> Iterator[tuple[int, str]]:
    """(line number, text) of a trace, streamed from disk when `text` is None.

    A trace of a million steps is never held whole.
    """
    if text is not None:
        yield from enumerate(text.split("\n"), start=1)
        return
    try:
        f = path.open("rb")
    except FileNotFoundError:
        raise FormatError("cannot read: no such trace", str(path), 0, 0) from None
    except IsADirectoryError:
        raise FormatError("is a directory, not a trace", str(path), 0, 0) from None
    except OSError as e:
        raise FormatError(f"cannot read trace: {e.strerror or e}", str(path), 0, 0) from None
    with f:
        for lineno in itertools.count(1):
            raw = f.readline(MAX_INPUT_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_INPUT_BYTES:
                raise FormatError(f"a line longer than {MAX_INPUT_BYTES // 2**20} MiB",
                                  str(path), lineno, 0)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise FormatError(f"not UTF-8 text (byte 0x{raw[e.start]:02x})", str(path),
                                  lineno, e.start + 1) from None
            yield lineno, line.removeprefix("\ufeff") if lineno == 1 else line


def _records(path: Path, text: str | None) -> Iterator[tuple[int, Record]]:
    """Every record of a trace, checked, in order, streamed.

    First a pass that only checks every line is JSON (so a bad line is found before any
    step is replayed), then the records.
    """
    for lineno, line in _lines(path, text):
        if line.strip():
            load_json(line, str(path), lineno)
    for lineno, line in _lines(path, text):
        if line.strip():
            yield lineno, _check_record(load_json(line, str(path), lineno), str(path), lineno)


def replay(path: str | Path, watch: Any = None, text: str | None = None) -> Record:
    """Re-run a trace through a fresh world and check every step; returns a short report.

    The instance comes from the trace itself when it carries one (so it replays anywhere), else from its
    map path. `watch(spec, observation, record)` sees each observation as the world made it (record None
    for the first); `text` is the trace itself, if not on disk. The trace is streamed: its records are
    checked and replayed one at a time.
    """
    path = Path(path)
    begin: Record | None = None
    end: Record | None = None
    spec: GameSpec | None = None
    world: AnyWorld | None = None
    steps = 0
    score = 0.0
    for lineno, record in _records(path, text):
        kind = record["type"]
        if kind == "begin":
            if begin is not None:
                raise FormatError("a second 'begin' record", str(path), lineno, 1)
            begin = record
            spec = get_game(begin["game"])
            if "instance" in begin:
                instance = spec.instances.parse(begin["instance"], f"{path}: instance")
            else:
                instance = resolve(begin["map_path"], spec)[1][0]
            world = spec.make_world(instance, **_world_options(begin.get("world_options", {}),
                                                               spec, path))
            observation, _ = world.reset(seed=begin.get("seed"))
            if to_jsonable(observation) != begin["observation"]:
                raise TraceMismatch(f"{path}: the first observation differs from the trace")
            if watch is not None:
                watch(spec, observation, None)
            continue
        if begin is None or spec is None or world is None:
            raise FormatError(f"a '{kind}' record before 'begin'", str(path), lineno, 1)
        if kind != "step":
            end = record
            continue
        steps += 1
        action = spec.actions.from_json(record["action"])
        try:
            observation, reward, terminated, truncated, info = world.step(action)
        except LogicAgentsError as e:
            raise TraceMismatch(f"{path}: step {record['t']} is refused on replay: {e}") from None
        score += reward
        got = (to_jsonable(observation), reward, terminated, truncated)
        want = (record["observation"], record["reward"], record["terminated"], record["truncated"])
        if got != want:
            raise TraceMismatch(f"{path}: step {record['t']} ({str(record['action'])[:60]}) "
                                "differs on replay")
        if watch is not None:
            watch(spec, observation, record)
    if begin is None or spec is None:
        raise FormatError("trace has no 'begin' record", str(path), 1, 1)
    if end is not None:
        recorded = end["result"]
        if recorded["steps"] != steps or abs(recorded["score"] - score) > 1e-9:
            raise TraceMismatch(f"{path}: recorded result disagrees with the replayed steps")
    return {"steps": steps, "score": score, "outcome": end["result"]["outcome"] if end else None,
            "game": spec.name, "map": (end or {}).get("result", {}).get("map") or
            Path(str(begin.get("map_path", ""))).stem, "agent": begin.get("agent", ""),
            "seed": begin.get("seed"),
            "error": str((end or {}).get("result", {}).get("error") or "")[:2000]}
