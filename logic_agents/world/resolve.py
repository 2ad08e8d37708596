"""Where an instance comes from: one resolver for every verb and for `logic_agents.load`.

Concepts:
- A reference is what a person types: FILE; FILE:K (the K-th puzzle of a file, from 1); a
  shipped map's name (HARD1, 2018/HARD1, 7x7dn:3); or a puzzle written inline (a Sudoku
  line, an Undead game ID), for games that parse text.
- Shipped instances: package data, a game's `maps` folder (`shipped_maps(package, folder)`
  reads it through importlib.resources, so a wheel installed anywhere has them).
- split_index(text): (FILE, K) for FILE:K, else (text, None).
- shipped_path(name, spec): the one shipped file (or folder) of that name, else None.
- detect_game (world.detect): which game a reference is.
- resolve(text, spec, every): (source, instances); `every` keeps every puzzle of a file.
Long arguments (a 25x25 Sudoku line, a 20x20 Undead ID) are never handed to the OS as file
names it would refuse.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path, PurePath
from typing import Any, TypeVar

from logic_agents.errors import FormatError, LogicAgentsError, UsageError
from logic_agents.ground.inputs import (
    ascii_int,
    is_ascii_digits,
    is_dir,
    is_file,
    path_exists,
    shorten,
)
from logic_agents.ground.shapes import Record
from logic_agents.world.spec import GameSpec, Inline, Shipped
from logic_agents.world.values import Instance

MAP_SUFFIXES = (".txt", ".tsv")
_SHIPPED_NAME = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")
# horizontal space only ([ \t], not \s): a \s* at a line's start also spans the blank lines
# below it, and two of them in a row made detection cubic in the blank lines (issue 39)
_GAME_HEADER = re.compile(r"^[ \t]*#?[ \t]*game[ \t]*:[ \t]*([A-Za-z0-9_-]+)[ \t\r]*$", re.MULTILINE)


def split_index(text: str) -> tuple[str, int | None]:
    """("FILE", K) for "FILE:K" (K in ASCII digits) unless the whole text is a file."""
    base, sep, index = text.rpartition(":")
    if sep and base and is_ascii_digits(index) and not path_exists(text):
        return base, ascii_int(index, "the puzzle number after ':'", text)
    return text, None


Item = TypeVar("Item")


def pick(instances: list[Item], k: int, source: str) -> Item:
    """The K-th (from 1) of the instances of a file."""
    if not 1 <= k <= len(instances):
        raise FormatError(f"puzzle {k} asked, the file holds {len(instances)}", source, 0, 0)
    return instances[k - 1]


def load_indexed(path: str | Path, load_all: Callable[[str], list[Item]]) -> Item:
    """A game loader's FILE or FILE:K: the first, or the K-th, instance of the file."""
    base, k = split_index(str(path))
    return pick(load_all(base), k or 1, base)


def shipped_maps(package: str, *folder: str) -> Path:
    """A folder of a package's data: `shipped_maps("logic_agents", "maps", "daggers")`.

    It is read through importlib.resources: where the package is installed, not where it was
    built.
    """
    root = resources.files(package).joinpath(*folder)
    if not isinstance(root, Path):  # a zipped package: the data has no folder of its own
        raise LogicAgentsError(f"the data of {package} is not on disk ({root}); install the "
                               "package unzipped")
    return root


def maps_folder(spec: GameSpec) -> Path | None:
    """Where a game's shipped instances lie (its Shipped capability), None when it ships none."""
    shipped = spec.get(Shipped)
    return Path(shipped.folder) if shipped is not None and is_dir(shipped.folder) else None


def builtin_maps_folder(game: str) -> Path | None:
    """The package's maps/<game>, where a built-in game ships its maps (None: no such folder)."""
    root = shipped_maps("logic_agents", "maps", game)
    return root if is_dir(root) else None


SHIPPED_PREFIX = "maps"  # the checkout's maps/ (a link to logic_agents/maps) as docs name it


def under_shipped(text: str) -> Path | None:
    """The shipped file or folder a checkout's path under maps/ names, else None.

    `maps/daggers/2018/HARD1.txt` names the package's own copy wherever it is installed (a
    wheel has no maps/ beside the user). Only for a relative path that starts with maps/.
    """
    if len(text) > 500 or "\0" in text:
        return None
    parts = PurePath(text).parts
    if len(parts) < 2 or parts[0] != SHIPPED_PREFIX or ".." in parts:
        return None
    try:
        candidate = shipped_maps("logic_agents", SHIPPED_PREFIX, *parts[1:])
    except LogicAgentsError:
        return None
    return candidate if path_exists(candidate) else None


def shipped_path(name: str, spec: GameSpec) -> Path | None:
    """The shipped file a name names (HARD1, 2018/HARD1, 7x7dn, maps/...), else None.

    Else the folder it names: 2018, daggers/2018 or maps/daggers/2018.
    """
    if not path_exists(name) and (found := under_shipped(name)) is not None:
        return found
    if len(name) > 200 or not _SHIPPED_NAME.fullmatch(name) or Path(name).suffix in MAP_SUFFIXES:
        return None
    root = maps_folder(spec)
    return None if root is None else shipped_in(name, root)


def shipped_in(name: str, root: Path) -> Path | None:
    """The file (else the folder) a shipped name names under one game's maps folder `root`.

    shipped_path's search, once the name is known to be no path; None when none matches.

    Raises:
        UsageError: the name is ambiguous there.
    """
    if len(name) > 200 or not _SHIPPED_NAME.fullmatch(name) or Path(name).suffix in MAP_SUFFIXES:
        return None
    hits = sorted(p for suffix in MAP_SUFFIXES for p in root.rglob(f"{Path(name).name}{suffix}")
                  if str(p).endswith(f"{name}{suffix}"))
    if not hits:
        relative = name.removeprefix(f"{root.name}/")
        hits = sorted(p for p in [root, *root.rglob(Path(name).name)]
                      if p.is_dir() and (p == root and name == root.name
                                         or str(p).endswith(f"/{relative}")))
    if len(hits) > 1:
        raise UsageError(f"map name {name!r} is ambiguous: {', '.join(map(str, hits))}")
    return hits[0] if hits else None


def given_path(text: str) -> Path | None:
    """The file or folder a reference names as given (with or without its :K), else None."""
    if path_exists(text):
        return Path(text)
    base, _ = split_index(text)
    return Path(base) if path_exists(base) else under_shipped(base)


def locate(text: str, spec: GameSpec) -> Path | None:
    """The file a reference names (as given, else shipped), without its :K; else None."""
    return given_path(text) or shipped_path(split_index(text)[0], spec)


def load_many(spec: GameSpec, path: Path) -> list[Any]:
    """Every instance of a file, read by the game; a FormatError when it holds none."""
    instances = list(spec.instances.read(path))
    if not instances:
        raise FormatError(f"holds no {spec.name} instance", str(path), 0, 0)
    return instances


def resolve(text: str, spec: GameSpec, *, every: bool = False,
            label: str = "<argument>") -> tuple[str, list[Instance]]:
    """(source, instances) of a reference.

    `source` is the path (with :K) or `label` for an inline puzzle; `every` returns all puzzles of a file,
    else its first (or K-th).
    """
    if is_dir(text):
        raise FormatError(f"is a directory, not a {spec.name} file", text, 0, 0)
    if is_file(text):
        return text, (load_many(spec, Path(text)) if every else load_many(spec, Path(text))[:1])
    base, k = split_index(text)
    path = Path(base) if is_file(base) else shipped_path(base, spec)
    if path is not None and is_dir(path):
        raise FormatError(f"is a shipped folder, not a {spec.name} file (`compare` plays a "
                          "folder)", text, 0, 0)
    if path is not None:
        if k is None:
            return str(path), (load_many(spec, path) if every else load_many(spec, path)[:1])
        return f"{path}:{k}", [pick(load_many(spec, path), k, str(path))]
    inline = spec.get(Inline)
    if inline is not None and not looks_like_path(text):
        return label, list(inline.parse(text, label))
    # a missing file has no position: the words name it (a FormatError's file:line:col is
    # for what is wrong inside a file)
    raise UsageError(f"{shorten(text, 80)}: no such map file, nor a shipped {spec.name} map"
                     + did_you_mean(text, {spec.name: spec}))


def looks_like_path(text: str) -> bool:
    """Whether a reference was meant as a file (a '/', or a map's or a result's suffix)."""
    return "/" in text or Path(text[:200]).suffix in MAP_SUFFIXES + (".cnf", ".jsonl", ".csv")


def sniffer(parse: Any, game: str) -> Any:
    """The Detection `sniff(text, file)` of a game whose files are known by parsing.

    It scores 2 for a file that names the game (a `game: NAME` line, bare or in a `#`
    comment), 1 for one that parses, else 0; 0 for a command-line argument (`file` None).
    """
    says = re.compile(rf"^[ \t]*#?[ \t]*game[ \t]*:[ \t]*{re.escape(game)}\b",
                      re.MULTILINE | re.IGNORECASE)  # [ \t]: linear (see _GAME_HEADER)
    parsed = parses(parse)

    def sniff(text: str, file: str | None = None) -> int:
        if file is None:
            return 0
        return 2 if says.search(text[:4096]) else parsed(text, file)

    return sniff


def parses(parse: Any) -> Any:
    """A `sniff` capability for a game whose files are known by parsing.

    It scores 1 if `parse(text, file)` accepts the text, else 0.
    """

    def sniff(text: str, file: str = "<input>") -> int:
        try:
            parse(text, file)
        except FormatError:
            return 0
        return 1

    return sniff


def declared_game(text: str) -> str | None:
    """The game a file names in a `game: NAME` header line, if any."""
    match = _GAME_HEADER.search(text[:4096])
    return match.group(1) if match else None


def shipped_names(registered: Record) -> list[str]:
    """The names of every game's shipped files (HARD1, norvig_top95, 4x4de, ...)."""
    names: set[str] = set()
    for spec in registered.values():
        folder = maps_folder(spec)
        if folder is not None:
            names |= {p.stem for suffix in MAP_SUFFIXES for p in folder.rglob(f"*{suffix}")}
    return sorted(names)


def did_you_mean(text: str, registered: Record) -> str:
    """"; did you mean HARD1?" for a name near a shipped one (another case, a typo), else ""."""
    if len(text) > 200 or "/" in text:
        return ""
    base = split_index(text)[0]
    names = shipped_names(registered)
    same = [n for n in names if n.lower() == base.lower()]
    near = same or difflib.get_close_matches(base, names, n=3, cutoff=0.75)
    return f"; did you mean {' or '.join(near)}?" if near else ""
