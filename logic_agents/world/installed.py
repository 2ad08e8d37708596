"""The games' entry points, read from the installed distributions' files.

Every command asks which games are installed, and importlib.metadata answers by importing
about thirty modules (its email parser among them) and reading every distribution's metadata:
about 40 ms of a 0.3 s command. The folders on the import path hold the same facts in plain
files, so they are read here directly, the way importlib.metadata finds them.

Concepts:
- Installed: one entry point of a group (its name, its `module:attribute` value and its
  distribution's name). `load()` imports it: a module of this package directly, a plug-in's
  through importlib.metadata's own EntryPoint, so a plug-in's faults read as they always did.
- entry_points(group): every Installed of the group. The folders of sys.path are read in
  order (`''` is the working folder); each `NAME-VERSION.dist-info` or `.egg-info` folder is a
  distribution, and of two with one normalised name the first found wins, as in
  importlib.metadata's `entry_points()`. A distribution's name is its METADATA's (or
  PKG-INFO's) `Name:`.
- Where the path holds what only importlib.metadata reads (a zip file, an `.egg`, or a
  finder on sys.meta_path that finds distributions itself), it is asked instead.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from importlib.machinery import PathFinder

PACKAGE = "logic_agents"  # its own entry points are imported directly (no importlib.metadata)


class Installed:
    """One entry point of a group: `name = value` in a distribution's entry_points.txt."""

    __slots__ = ("name", "value", "group", "distribution")

    def __init__(self, name: str, value: str, group: str, distribution: str):
        """An entry point `name = value` of `group`, listed by `distribution`."""
        self.name, self.value, self.group, self.distribution = name, value, group, distribution

    def __repr__(self) -> str:
        """Its name, value and distribution."""
        return f"Installed({self.name!r}, {self.value!r}, {self.distribution!r})"

    @property
    def module(self) -> str:
        """The module part of the value (before the colon)."""
        return self.value.partition(":")[0].strip()

    def load(self) -> object:
        """The object the entry point names (importing its module)."""
        module, _, attribute = self.value.partition(":")
        if self.module.partition(".")[0] == PACKAGE and re.fullmatch(
                r"[\w.]+", module.strip()) and re.fullmatch(r"[\w.]*", attribute.strip()):
            found: object = importlib.import_module(module.strip())
            for part in filter(None, attribute.strip().split(".")):
                found = getattr(found, part)
            return found
        from importlib import metadata  # a plug-in's: its faults worded as they always were

        return metadata.EntryPoint(self.name, self.value, self.group).load()


def entry_points(group: str) -> list[Installed]:
    """Every entry point of `group` on the import path (see the module's docstring)."""
    if _needs_importlib():
        return _from_importlib(group)
    found: list[Installed] = []
    seen: set[str] = set()
    for folder in sys.path:
        try:
            children = os.listdir(folder or ".")
        except OSError:  # not a folder (a missing one, an import hook's name)
            continue
        for child in children:
            low = child.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            normalised = re.sub(r"[-_.]+", "_", low.rpartition(".")[0].partition("-")[0])
            if normalised in seen:
                continue
            seen.add(normalised)
            info = os.path.join(folder or ".", child)
            pairs = _group_of(os.path.join(info, "entry_points.txt"), group)
            if pairs:
                distribution = _name_of(info)
                found += [Installed(name, value, group, distribution) for name, value in pairs]
    return found


def _needs_importlib() -> bool:
    """Whether the path holds distributions only importlib.metadata reads."""
    for folder in sys.path:
        if folder.lower().endswith(".egg") or os.path.isfile(folder):
            return True
    return any(hasattr(finder, "find_distributions") and finder is not PathFinder
               for finder in sys.meta_path)


def _from_importlib(group: str) -> list[Installed]:
    from importlib import metadata

    return [Installed(ep.name, ep.value, group,
                      str(ep.dist.name) if ep.dist is not None else "?")
            for ep in metadata.entry_points(group=group)]


def _group_of(path: str, group: str) -> list[tuple[str, str]]:
    """The `name = value` lines of one section of an entry_points.txt (none if it has none)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return []
    pairs: list[tuple[str, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line.strip("[]") == group
        elif inside:
            name, equals, value = line.partition("=")
            if equals:
                pairs.append((name.strip(), value.strip()))
    return pairs


def _name_of(info: str) -> str:
    """A distribution's name: the `Name:` header of its METADATA (PKG-INFO for an egg-info)."""
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info, file), encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        break
                    key, colon, value = line.partition(":")
                    if colon and key.strip().lower() == "name":
                        return value.strip()
        except (OSError, UnicodeDecodeError):
            continue
    return "?"
