"""Which game a reference is: the built-in games first, a plug-in only when none is sure.

Concepts:
- detect_game(items, default): a file that says its game (`game:` header) or sits in a folder
  named after a game, a shipped name of exactly one game, else the best score of the games'
  `sniff` capability, else `default`. The built-in games (and the games already loaded) are
  asked first; a plug-in's entry point is loaded only when none of them is sure, so a command
  about a built-in game's map never pays for a plug-in's import.
- A shipped name of a built-in game (`play EASY1`) is found in the package's maps folders
  before any game is imported: the answer the full search would give, at a fifth of a
  command's start-up less (tests/world/test_detect_shipped.py).
- sniff_scores: each game's sniff of a text, a plug-in's under the plug-in guard; a game
  sniffs a text once per detect_game (Sniffed), though it is asked in both rounds.
- A claim is checked by reading: a sniff that claims every file cannot take another game's
  map; two games that claim and read a file alike are a usage error that asks for --game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from logic_agents.errors import FormatError, LogicAgentsError, PluginFault, UsageError
from logic_agents.ground.inputs import is_dir, read_text, shorten
from logic_agents.ground.shapes import Record
from logic_agents.world.examples import example_plugin_hint
from logic_agents.world.guard import SNIFF_LIMIT_S, limit_of, plugin_code
from logic_agents.world.registry import (
    builtin_names,
    game_names,
    games,
    games_at_hand,
    get_game,
    loaded_names,
    origin,
    warn_once,
)
from logic_agents.world.resolve import (
    builtin_maps_folder,
    declared_game,
    did_you_mean,
    given_path,
    load_many,
    looks_like_path,
    shipped_in,
    shipped_path,
    split_index,
)
from logic_agents.world.spec import Detection, GameSpec, Inline

# detect_game's memo: (game, file or None for an argument, text) -> that game's sniff score.
# The built-in games are asked twice when none is sure (once alone, once beside the
# plug-ins); a sniff that parses a 400-puzzle file then cost a parse more per command.
Sniffed = dict[tuple[str, str | None, str], int]


def detect_game(items: list[str], default: str | None = None) -> str:
    """The game of some references.

    A `game:` header, a folder named after a game, a shipped name of exactly one game, else
    the best `sniff` score; else `default`. The built-in games answer first, and a plug-in's
    entry point is loaded only when none of them is sure (a shipped name, a header or a
    folder naming a game, a sniff of 2): `play EASY1` never pays for a plug-in's import.

    Raises:
        UsageError: no game claims them; it asks for --game.
    """
    named = set(game_names())
    found = _builtin_shipped(items, named)
    if found is not None:
        return found
    sniffed: Sniffed = {}  # a game's sniff of a text, kept for the second round
    found = _detect(items, games_at_hand(), named, sure=True, sniffed=sniffed)
    if found is None:
        registered = games()
        found = _detect(items, registered, named, sure=False, sniffed=sniffed)
        if found is None and default is None:
            raise _undetected(items, registered)
    return found if found is not None else str(default)


def _builtin_shipped(items: list[str], named: set[str]) -> str | None:
    """What _detect answers for a shipped map of a built-in game, without importing a game.

    The built-in games keep their maps in the package's maps/<game> (their Shipped folder,
    tests/world/test_detect_shipped.py), and a path's nearest folder named after a game is
    its game. None whenever the full search could answer otherwise: a path that exists, a
    game other than the built-ins loaded (it may ship a map of that name), a name two games
    ship or one game ships twice, or a folder named after a plug-in.
    """
    builtin = builtin_names()
    if not items or not loaded_names() <= set(builtin) or given_path(items[0]) is not None:
        return None
    base, _ = split_index(items[0])
    hits = set()
    for name in builtin:
        root = builtin_maps_folder(name)
        try:
            found = shipped_in(base, root) if root is not None else None
        except UsageError:
            return None  # ambiguous: the full search says so, in its words
        if found is not None:
            hits.add(found)
    if len(hits) != 1:
        return None
    for part in reversed(hits.pop().resolve().parts):
        if part in builtin:
            return part
        if part in named:
            return None
    return None


def _detect(items: list[str], registered: Record, named: set[str], *, sure: bool,
            sniffed: Sniffed | None = None) -> str | None:
    """detect_game over some games; `sure` takes only a claim no other game can outbid.

    `sniffed` keeps the sniffs' scores for another call.
    """
    for item in items:
        path = locate_any(item, registered)
        if path is None:
            scores = sniff_scores(registered, item, None, sniffed)
            found = _best(_claims(scores, sure),
                          shorten(item, 60), functools.partial(_parses_inline_of, registered, item))
            if found is not None:
                return found
            continue
        parts = path.resolve().parts
        for part in reversed(parts):
            if _names_a_game(part, registered, named):
                return part
        # a folder is judged by the first few map files in it
        files = (sorted(p for p in path.iterdir() if p.suffix in (".txt", ".tsv"))[:5]
                 if is_dir(path) else [path])
        for file in files:
            found = _detect_file(file, registered, named, sure=sure, sniffed=sniffed)
            if found is not None:
                return found
    return None


def _claims(scores: dict[str, int], sure: bool) -> dict[str, int]:
    """The sniff scores detection weighs: all of them, or only the sure ones (2)."""
    return {name: score for name, score in scores.items() if score == 2 or not sure}


def _names_a_game(name: str | None, registered: Record, named: set[str]) -> bool:
    """Whether a game of that name is registered or installed and loads (it is loaded)."""
    if name is None or name in registered:
        return name is not None
    if name not in named:
        return False
    try:
        get_game(name)
    except LogicAgentsError:
        return False
    return True


def _detect_file(path: Path, registered: Record, named: set[str], *, sure: bool,
                 sniffed: Sniffed | None = None) -> str | None:
    """The game a file says it is (`game:` header), else the one whose sniff scores best."""
    try:
        text = read_text(path)
    except FormatError:
        return None
    said = declared_game(text)
    if _names_a_game(said, registered, named):
        return said
    scores = sniff_scores(registered, text, str(path), sniffed)
    return _best(_claims(scores, sure),
                 shorten(str(path), 60), lambda name: _reads(registered[name], path))


def sniff_scores(registered: dict[str, GameSpec], text: str, file: str | None,
                 sniffed: Sniffed | None = None) -> dict[str, int]:
    """Each game's `sniff` score of a text.

    A plug-in's sniff runs under the plug-in guard and a time limit; one that raises, hangs or answers
    other than 0, 1 or 2 is warned of (once) and counts as 0. A score in `sniffed` (the same
    game, file and text) is taken from it, and a new one is kept there.
    """
    scores: dict[str, int] = {}
    for name, spec in registered.items():
        detection = spec.get(Detection)
        if detection is None:
            continue
        key = (name, file, text)
        if sniffed is not None and key in sniffed:
            scores[name] = sniffed[key]
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
        if sniffed is not None:
            sniffed[key] = score
    return scores


def _reads(spec: GameSpec, path: Path) -> bool:
    """Whether a game's reader takes the file (a sniff's claim, checked)."""
    try:
        with plugin_code(f"{spec.name}'s reader", limit_of(origin(spec.name), SNIFF_LIMIT_S)):
            load_many(spec, path)
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


def _undetected(items: list[str], registered: Record) -> LogicAgentsError:
    """Why no game was found: a missing file, or what each game says of the file."""
    if not items:
        return UsageError("no map given")
    item = items[0]
    path = locate_any(item, registered)
    if path is None:
        example = example_plugin_hint(item)
        if looks_like_path(item) or not any(s.get(Inline) for s in registered.values()):
            return UsageError(f"{shorten(item, 80)}: no such map file, nor a shipped map of any "
                              "game" + (example or did_you_mean(item, registered)))
        near = example or did_you_mean(item, registered)
        if near:
            return UsageError(f"{shorten(item, 60)!r}: no such map file or shipped map{near}")
        return UsageError(f"{shorten(item, 60)!r}: no such map file, shipped map or instance "
                          f"of any game; give --game NAME (one of {', '.join(registered)})")
    said = []
    for name, spec in registered.items():
        try:
            load_many(spec, path)
        except LogicAgentsError as e:
            said.append(f"as {name}: {e}")
    return UsageError(f"cannot tell which game {shorten(str(path), 60)} is ("
                      + "; ".join(said)[:600] + "); give --game NAME")


def locate_any(item: str, registered: Record) -> Path | None:
    """The file or folder a reference names, as given or as the shipped map of one game."""
    given = given_path(item)
    if given is not None:
        return given
    base, _ = split_index(item)
    hits = {p for spec in registered.values() if (p := shipped_path(base, spec)) is not None}
    return hits.pop() if len(hits) == 1 else None
