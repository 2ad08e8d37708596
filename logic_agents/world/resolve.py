"""Where an instance comes from: one resolver for every verb and for `logic_agents.load`.

Concepts:
- A reference is what a person types: FILE; FILE:K (the K-th puzzle of a file, from 1); a
  shipped map's name (HARD1, 2018/HARD1, 7x7dn:3); or a puzzle written inline (a Sudoku
  line, an Undead game ID), for games that parse text.
- Shipped instances: package data, a game's `maps` folder (`shipped_maps(package, folder)`
  reads it through importlib.resources, so a wheel installed anywhere has them).
- split_index(text): (FILE, K) for FILE:K, else (text, None).
- shipped_path(name, spec): the one shipped file (or folder) of that name, else None.
- detect_game(items, default): a file that says its game (`game:` header) or sits in a folder
  named after a game, else the best score of the games' `sniff` capability, else `default`.
- resolve(text, spec, every): (source, instances); `every` keeps every puzzle of a file.
Long arguments (a 25x25 Sudoku line, a 20x20 Undead ID) are never handed to the OS as file
names it would refuse.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from logic_agents.errors import FormatError, LogicAgentsError, PluginFault, UsageError
from logic_agents.ground.inputs import (
    ascii_int,
    is_ascii_digits,
    is_dir,
    is_file,
    path_exists,
    read_text,
    shorten,
)
from logic_agents.ground.shapes import Record
from logic_agents.world.guard import SNIFF_LIMIT_S, limit_of, plugin_code
from logic_agents.world.registry import games, origin, warn_once
from logic_agents.world.spec import Detection, GameSpec, Inline, Shipped
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


def shipped_path(name: str, spec: GameSpec) -> Path | None:
    """The shipped file a name names (HARD1, 2018/HARD1, 7x7dn), else the folder, else None.

    A folder is named like 2018 or daggers/2018.
    """
    if len(name) > 200 or not _SHIPPED_NAME.fullmatch(name) or Path(name).suffix in MAP_SUFFIXES:
        return None
    root = maps_folder(spec)
    if root is None:
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


def locate(text: str, spec: GameSpec) -> Path | None:
    """The file a reference names (as given, else shipped), without its :K; else None."""
    if path_exists(text):
        return Path(text)
    base, _ = split_index(text)
    if path_exists(base):
        return Path(base)
    return shipped_path(base, spec)


def _load_many(spec: GameSpec, path: Path) -> list[Any]:
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
        return text, (_load_many(spec, Path(text)) if every else _load_many(spec, Path(text))[:1])
    base, k = split_index(text)
    path = Path(base) if is_file(base) else shipped_path(base, spec)
    if path is not None and is_dir(path):
        raise FormatError(f"is a shipped folder, not a {spec.name} file (`compare` plays a "
                          "folder)", text, 0, 0)
    if path is not None:
        if k is None:
            return str(path), (_load_many(spec, path) if every else _load_many(spec, path)[:1])
        return f"{path}:{k}", [pick(_load_many(spec, path), k, str(path))]
    inline = spec.get(Inline)
    if inline is not None and not _looks_like_path(text):
        return label, list(inline.parse(text, label))
    # a missing file has no position: the words name it (a FormatError's file:line:col is
    # for what is wrong inside a file)
    raise UsageError(f"{shorten(text, 80)}: no such map file, nor a shipped {spec.name} map"
                     + did_you_mean(text, {spec.name: spec}))


def _looks_like_path(text: str) -> bool:
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


def detect_game(items: list[str], default: str | None = None) -> str:
    """The game of some references.

    A `game:` header, a folder named after a game, a shipped name of exactly one game, else
    the best `sniff` score; else `default`.

    Raises:
        UsageError: no game claims them; it asks for --game.
    """
    registered = games()
    for item in items:
        path = locate_any(item, registered)
        if path is None:
            found = _best(sniff_scores(registered, item, None), shorten(item, 60),
                          functools.partial(_parses_inline_of, registered, item))
            if found is not None:
                return found
            continue
        parts = path.resolve().parts
        for part in reversed(parts):
            if part in registered:
                return part
        # a folder is judged by the first few map files in it
        files = (sorted(p for p in path.iterdir() if p.suffix in (".txt", ".tsv"))[:5]
                 if is_dir(path) else [path])
        for file in files:
            found = _detect_file(file, registered)
            if found is not None:
                return found
    if default is not None:
        return default
    raise _undetected(items, registered)


def _detect_file(path: Path, registered: Record) -> str | None:
    """The game a file says it is (`game:` header), else the one whose sniff scores best."""
    try:
        text = read_text(path)
    except FormatError:
        return None
    said = declared_game(text)
    if said in registered:
        return said
    return _best(sniff_scores(registered, text, str(path)), shorten(str(path), 60),
                 lambda name: _reads(registered[name], path))


def sniff_scores(registered: dict[str, GameSpec], text: str, file: str | None
                 ) -> dict[str, int]:
    """Each game's `sniff` score of a text.

    A plug-in's sniff runs under the plug-in guard and a time limit; one that raises, hangs or answers
    other than 0, 1 or 2 is warned of (once) and counts as 0.
    """
    scores: dict[str, int] = {}
    for name, spec in registered.items():
        detection = spec.get(Detection)
        if detection is None:
            continue
        try:
            with plugin_code(f"{name}'s sniff", limit_of(origin(name), SNIFF_LIMIT_S)):
                score = detection.sniff(text, file)
        except PluginFault as e:
            warn_once(f"game {name!r}'s sniff is left out of detection: {e}")
            continue
        if type(score) is not int or not 0 <= score <= 2:
            warn_once(f"game {name!r}'s sniff is left out of detection: it returned "
                      f"{shorten(repr(score), 40)}, not 0, 1 or 2")
            continue
        scores[name] = score
    return scores


def _reads(spec: GameSpec, path: Path) -> bool:
    """Whether a game's reader takes the file (a sniff's claim, checked)."""
    try:
        with plugin_code(f"{spec.name}'s reader", limit_of(origin(spec.name), SNIFF_LIMIT_S)):
            _load_many(spec, path)
    except LogicAgentsError:
        return False
    return True


def _parses_inline_of(registered: dict[str, GameSpec], text: str, name: str) -> bool:
    return _parses_inline(registered[name], text)


def _parses_inline(spec: GameSpec, text: str) -> bool:
    inline = spec.get(Inline)
    if inline is None:
        return False

    try:
        with plugin_code(f"{spec.name}'s inline parser",
                         limit_of(origin(spec.name), SNIFF_LIMIT_S)):
            return bool(inline.parse(text, "<argument>"))
    except LogicAgentsError:
        return False


def _best(scores: dict[str, int], what: str, reads: Callable[[str], bool]) -> str | None:
    """The one game that claims an input most strongly and can read it; None when none does.

    Two that claim it alike and both read it are a usage error (a plug-in never silently
    takes another game's file). A claim is checked by reading, unless it is a built-in
    game's alone: a sniff that claims every file cannot take a map from the game it belongs
    to.
    """
    for best in sorted(set(scores.values()) - {0}, reverse=True):
        claimed = [name for name, score in scores.items() if score == best]
        if len(claimed) == 1 and origin(claimed[0]) == "builtin":
            return claimed[0]
        claimed = [name for name in claimed if reads(name)]
        if len(claimed) > 1:
            raise UsageError(f"{what} reads as {' and as '.join(claimed)}; give --game NAME")
        if claimed:
            return claimed[0]
    return None


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


def _undetected(items: list[str], registered: Record) -> LogicAgentsError:
    """Why no game was found: a missing file, or what each game says of the file."""
    if not items:
        return UsageError("no map given")
    item = items[0]
    path = locate_any(item, registered)
    if path is None:
        if _looks_like_path(item) or not any(s.get(Inline) for s in registered.values()):
            return UsageError(f"{shorten(item, 80)}: no such map file, nor a shipped map of any "
                              "game" + did_you_mean(item, registered))
        near = did_you_mean(item, registered)
        if near:
            return UsageError(f"{shorten(item, 60)!r}: no such map file or shipped map{near}")
        return UsageError(f"{shorten(item, 60)!r}: no such map file, shipped map or instance "
                          f"of any game; give --game NAME (one of {', '.join(registered)})")
    said = []
    for name, spec in registered.items():
        try:
            _load_many(spec, path)
        except LogicAgentsError as e:
            said.append(f"as {name}: {e}")
    return UsageError(f"cannot tell which game {shorten(str(path), 60)} is ("
                      + "; ".join(said)[:600] + "); give --game NAME")


def locate_any(item: str, registered: Record) -> Path | None:
    """The file or folder a reference names, as given or as the shipped map of one game."""
    if path_exists(item):
        return Path(item)
    base, _ = split_index(item)
    if path_exists(base):
        return Path(base)
    hits = {p for spec in registered.values() if (p := shipped_path(base, spec)) is not None}
    return hits.pop() if len(hits) == 1 else None
