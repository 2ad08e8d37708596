"""JSONL traces of episodes, and replay that re-runs a trace and checks that it agrees.

Concepts:
- to_jsonable: observations and actions become JSON via their `to_json()` (or dataclass fields);
- Trace: a writer; one `begin` line (game, map path, world options, seed, first observation),
  one `step` line per action, one `end` line with the EpisodeResult; flushed line by line;
- read_trace / replay: replay rebuilds the world from the registry, feeds it the recorded
  actions and raises TraceMismatch at the first step whose observation, reward or end differs.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import IO, Any

from logic_agents.errors import FormatError, TraceMismatch


def to_jsonable(value: Any) -> Any:
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

    def __init__(self, target: str | Path | IO[str], **header: Any):
        if isinstance(target, (str, Path)):
            try:
                self._file: IO[str] = open(target, "w")  # noqa: SIM115 - closed in close()
            except OSError as e:
                raise FormatError(f"cannot write trace: {e.strerror}", str(target), 0, 0) from None
            self._owned = True
        else:
            self._file, self._owned = target, False
        self.header = header
        self._t = 0

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def begin(self, *, observation: Any, **fields: Any) -> None:
        self._t = 0
        record = {"type": "begin", **fields, **self.header, "observation": to_jsonable(observation)}
        self._write(record)

    def step(self, action: Any, observation: Any, reward: float, terminated: bool, truncated: bool):
        self._t += 1
        self._write(
            {
                "type": "step",
                "t": self._t,
                "action": to_jsonable(action),
                "reward": reward,
                "terminated": terminated,
                "truncated": truncated,
                "observation": to_jsonable(observation),
            }
        )

    def end(self, result: Any) -> None:
        self._write({"type": "end", "result": to_jsonable(result)})

    def close(self) -> None:
        if self._owned:
            self._file.close()

    def __enter__(self) -> Trace:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def read_trace(path: str | Path) -> tuple[dict, list[dict], dict | None]:
    """(begin record, step records, end record or None) of a trace file."""
    path = Path(path)
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise FormatError(f"cannot read trace: {e.strerror}", str(path), 0, 0) from None
    begin, steps, end = None, [], None
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise FormatError(f"not JSON: {e.msg}", str(path), lineno, e.colno) from None
        kind = record.get("type")
        if kind == "begin":
            begin = record
        elif kind == "step":
            steps.append(record)
        elif kind == "end":
            end = record
        else:
            raise FormatError(f"unknown record type {kind!r}", str(path), lineno, 1)
    if begin is None:
        raise FormatError("trace has no 'begin' record", str(path), 1, 1)
    return begin, steps, end


def replay(path: str | Path) -> dict:
    """Re-run a trace through a fresh world and check every step; returns a short report."""
    from logic_agents.world.registry import get_game

    begin, steps, end = read_trace(path)
    spec = get_game(begin["game"])
    instance = spec.load(begin["map_path"])
    world = spec.make_world(instance, **begin.get("world_options", {}))
    observation, _ = world.reset(seed=begin.get("seed"))
    if to_jsonable(observation) != begin["observation"]:
        raise TraceMismatch(f"{path}: the first observation differs from the trace")
    score = 0.0
    for record in steps:
        action = spec.action_from_json(record["action"])
        observation, reward, terminated, truncated, info = world.step(action)
        score += reward
        got = (to_jsonable(observation), reward, terminated, truncated)
        want = (record["observation"], record["reward"], record["terminated"], record["truncated"])
        if got != want:
            raise TraceMismatch(f"{path}: step {record['t']} ({record['action']}) differs on replay")
    if end is not None:
        recorded = end["result"]
        if recorded["steps"] != len(steps) or abs(recorded["score"] - score) > 1e-9:
            raise TraceMismatch(f"{path}: recorded result disagrees with the replayed steps")
    return {"steps": len(steps), "score": score, "outcome": end["result"]["outcome"] if end else None}
