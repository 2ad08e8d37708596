"""The study a results file belongs to, recorded beside it so a resume never mixes two.

Concepts:
- study_path(out): the sidecar, runs.csv -> runs.csv.study.json; study_files(out): all
  that a study writes beside it (the rows, the record, the traces), hidden from players.
- study_record: what defines a study, by what its names meant: each instance's contents (a
  hash) and group, each agent's identity (a file agent's source hash), the options, the seed
  and version. The caps are recorded but may change on a resume.
- check_same_study: a resume whose record differs is refused, naming what changed; with
  --retry-errors an agent's changed file is allowed (check_resumed_study notes it).
- read_study: the sidecar checked as data; write_study writes it whole, then renames it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import hashlib
import inspect
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from logic_agents._version import __version__
from logic_agents.errors import FormatError, LogicAgentsError
from logic_agents.ground.inputs import load_json, read_text
from logic_agents.ground.shapes import Record
from logic_agents.referee.agents import Unreadable
from logic_agents.referee.clock import Caps
from logic_agents.referee.remote import RemoteFactory
from logic_agents.study.entries import MapEntry
from logic_agents.study.traces import traces_path
from logic_agents.world.agents import is_reference, names_a_file
from logic_agents.world.registry import get_game
from logic_agents.world.spec import AgentEntry, GameSpec
from logic_agents.world.values import Instance


def study_path(out: str | Path) -> Path:
    """The sidecar that records a results file's study: runs.csv -> runs.csv.study.json."""
    return Path(f"{out}.study.json")


def study_files(out: str | Path) -> tuple[Path, Path, Path]:
    """What a study whose results are `out` writes: the rows, their record (the seed, the
    seal key) and the kept traces; the referee's alone, hidden from every player."""
    return Path(out), study_path(out), traces_path(out)


def study_record(game: str, agents: Sequence[str], entries: Sequence[MapEntry], runs: int,
                 seed: int, agent_options: dict[str, Record] | None,
                 world_options: Record | None, caps: Caps | None = None,
                 entries_of: Record | None = None) -> Record:
    """What makes two runs of `compare` the same study, by what the names meant, not only the
    names: each instance's contents (a hash) and group, each agent's identity (a file agent's
    source hash), the options. Runs aside: a resume may add runs, since run i's seed does not
    depend on how many there are. The caps are recorded but may change on a resume (to retry
    timeouts with more time)."""

    spec = get_game(game)
    options = agent_options or {}
    record = {
        "version": __version__, "game": game, "seed": seed, "runs": runs,
        "agents": [{"name": a, "source": agent_source(spec, a, (entries_of or {}).get(a)),
                    "options": {k: _plain(v) for k, v in sorted(options.get(a, {}).items())}}
                   for a in agents],
        "world_options": {k: _plain(v) for k, v in sorted((world_options or {}).items())},
        "maps": [e.instance.name for e in entries],
        "instances": [{"name": e.instance.name, "group": e.group,
                       "sha256": instance_hash(spec, e.instance)} for e in entries],
        # each instance as the game writes it (not part of the identity: the hashes are), so
        # `play MAP --study RESULTS` plays any game of the study again, a generated board too
        "texts": [spec.instances.format(e.instance) for e in entries],
    }
    if caps is not None:
        record["caps"] = dataclasses.asdict(caps)
    return record


IDENTITY = ("version", "game", "seed", "agents", "world_options", "maps", "instances")


def instance_hash(spec: GameSpec, instance: Instance) -> str:
    """A hash of an instance's contents: its text as the game writes it (else its repr)."""
    text = spec.instances.format(instance)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def agent_source(spec: GameSpec, reference: str, entry: AgentEntry | None = None) -> str:
    """What an agent name meant: `builtin` for the game's own agents (the version covers
    them), else a hash of the source file of the class a reference names, or of the file
    that defines an agent given as an object (`object` when it has no file: a notebook)."""

    if reference in spec.agents:
        return "builtin"
    factory = entry.factory if entry is not None else None
    if isinstance(factory, (RemoteFactory, Unreadable)):  # in a player process, or unread
        found_file = factory.source_file()
        try:
            return "sha256:" + hashlib.sha256(Path(found_file).read_bytes()).hexdigest()[:16] \
                if found_file else "unknown"
        except OSError:
            return "unknown"
    if not is_reference(reference):  # an agent given as a class or factory
        try:
            found = inspect.getsourcefile(factory) if factory is not None else None
            return ("sha256:" + hashlib.sha256(Path(found).read_bytes()).hexdigest()[:16]
                    if found else "object")
        except (TypeError, OSError):
            return "object"
    module_text = reference.rpartition(":")[0]
    if names_a_file(module_text):
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


def _plain(value: object) -> str | int | float | bool | None:
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def check_same_study(out: Path, study: Record, fixed_ok: bool = False) -> list[Record]:
    """LogicAgentsError unless the results file was written by this same study, naming what
    differs (a map's contents, its group, an agent's file, an option).

    With `fixed_ok` (a resume that retries the failed games) an agent whose source file
    changed is allowed, and nothing else: returns one change record per such agent (its
    name and the file's hash before and after), which the study record keeps.
    """
    held = read_study(out)
    changed = changed_sources(held.get("agents"), study["agents"]) if fixed_ok else []
    for key in IDENTITY:
        if held.get(key) == study[key]:
            continue
        if key == "agents" and changed and _same_but_sources(held["agents"], study["agents"]):
            continue
        hint = ("; --retry-errors replays a changed submission's failed games" if key ==
                "agents" and "source file" in _difference(key, held.get(key), study[key])
                and not fixed_ok else "")
        raise LogicAgentsError(
            f"{out} holds another study: {_difference(key, held.get(key), study[key])}; "
            f"resume with the same maps, agents and settings, or choose another --out{hint}")
    return changed


def check_resumed_study(out: Path, study: Record, fixed_ok: bool = False) -> None:
    """check_same_study; a fixed submission (`fixed_ok`) is noted in `study["changes"]`, with
    the changes the record listed before: which file changed, and when."""
    changed = check_same_study(out, study, fixed_ok)
    held = read_study(out).get("changes")
    earlier = [c for c in held if isinstance(c, dict)] if isinstance(held, list) else []
    made = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    if changed or earlier:
        study["changes"] = [*earlier, *({**c, "at": made} for c in changed)]


def changed_sources(held: object, now: list[Record]) -> list[Record]:
    """{agent, from, to} for each agent of both lists whose source hash differs."""
    if not isinstance(held, list) or len(held) != len(now):
        return []
    return [{"agent": new["name"], "from": old.get("source"), "to": new["source"]}
            for old, new in zip(held, now)
            if isinstance(old, dict) and old.get("name") == new["name"]
            and old.get("source") != new["source"]]


def _same_but_sources(held: list[Record], now: list[Record]) -> bool:
    return [{**a, "source": ""} for a in held] == [{**a, "source": ""} for a in now]


def sealing_key(out: Path) -> str:
    """The key the referee seals this study's rows with (kept in its study record)."""
    key = read_study(out).get("seal")
    if not isinstance(key, str) or len(key) != 32:
        raise LogicAgentsError(f"{out} was written before the referee sealed its rows (an "
                               "older logic-agents), so a resume cannot tell its rows from "
                               "rows anyone appended; choose another --out")
    return key


def recorded_seed(out: Path) -> int:
    """The study's seed as its record keeps it (secret or not).

    Raises:
        FormatError: the record keeps no whole-number seed.
    """
    seed = read_study(out).get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise FormatError(f"the study record keeps no seed (it has {_brief(seed)})",
                          str(study_path(out)), 1, 1)
    return seed


def read_study(out: Path) -> Record:
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


def _brief(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def write_study(out: Path, study: Record) -> None:
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
