"""The instances a study plays, as a person names them: files, folders, shipped names,
inline instances, each with the group the summary reports it under.

Concepts:
- MapEntry: an instance and its group (its preset, else its folder).
- group_of: the group of an instance by --group-by (auto, folder, file, map, preset).
- entries_from_references / entries_from_paths: what a command line or a call names, as
  entries (a folder means every instance file the game loads under it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from logic_agents.errors import FormatError, UnknownName
from logic_agents.ground.inputs import is_dir
from logic_agents.world.resolve import MAP_SUFFIXES, resolve, shipped_path
from logic_agents.world.spec import GameSpec
from logic_agents.world.values import Instance


@dataclass(frozen=True)
class MapEntry:
    instance: Instance
    group: str
    source: str = ""  # what `play` reads it from: FILE, FILE:K, a shipped name ("" inline)


GROUP_BY = ("auto", "folder", "file", "map", "preset")


@runtime_checkable
class Preset(Protocol):
    """A generated instance that names the preset it was made from (a Daggers map does)."""

    @property
    def preset(self) -> str: ...


def group_of(instance: Instance, file: Path | None, many: bool, group_by: str = "auto") -> str:
    """The group a study reports an instance under: `map` (each its own), `folder`, `file`,
    `preset` (generated maps), or `auto`: the preset, else the file for a file of many
    instances, else the folder; an instance written inline is its own group."""
    preset = (instance.preset if isinstance(instance, Preset) else "") or ""
    name = instance.name or "."
    if group_by == "map" or file is None:
        return name
    if group_by == "preset":
        return preset or "(no preset)"
    if group_by == "folder":
        return file.parent.name or "."
    if group_by == "file":
        return file.stem
    return preset or (file.stem if many else file.parent.name) or "."


def entries_from_references(items: Iterable[str], spec: GameSpec,
                            group_by: str = "auto") -> list[MapEntry]:
    """Entries of what a person names on the command line: folders (every instance file the
    game loads under them), files, FILE:K, shipped names and inline instances."""

    if group_by not in GROUP_BY:
        raise UnknownName(f"unknown grouping {group_by!r}; choose one of {', '.join(GROUP_BY)}")
    entries = []
    for k, item in enumerate(items, start=1):
        folder = item if is_dir(item) else shipped_path(item, spec)
        if folder is not None and is_dir(folder):  # a folder, or a shipped one (2018)
            entries += entries_from_paths([folder], spec.instances.read, group_by,
                                          spec.instances.many)
            continue
        label = f"<argument {k}>"
        source, instances = resolve(item, spec, every=True, label=label)
        base = source.rsplit(":", 1)[0] if ":" in source else source
        path = None if source == label else Path(base)
        many = len(instances) > 1 or spec.instances.many
        entries += [MapEntry(i, group_of(i, path, many, group_by),
                             "" if path is None else f"{base}:{k}" if len(instances) > 1
                             else source)
                    for k, i in enumerate(instances, start=1)]
    return entries


def entries_from_paths(paths: Iterable[str | Path], load: Callable[[Path], Any],
                       group_by: str = "auto", many: bool | None = None) -> list[MapEntry]:
    """Instance files and folders (searched recursively for *.txt and *.tsv), grouped by
    group_of. `load` returns one instance or a list; `many` says whether a file holds many
    puzzles (default: whether `load` returned a list)."""
    entries = []
    for raw in paths:
        path = Path(raw)
        files = (sorted(p for suffix in MAP_SUFFIXES for p in path.rglob(f"*{suffix}"))
                 if path.is_dir() else [path])
        if path.is_dir() and not files:
            raise FormatError(f"folder holds no {' or '.join(MAP_SUFFIXES)} files", str(path), 0, 0)
        for file in files:
            loaded = load(file)
            listed = loaded if isinstance(loaded, list) else [loaded]
            several = isinstance(loaded, list) if many is None else many
            entries += [MapEntry(i, group_of(i, file, several, group_by),
                                 f"{file}:{k}" if len(listed) > 1 else str(file))
                        for k, i in enumerate(listed, start=1)]
    return entries
