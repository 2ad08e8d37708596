"""The names a public page shows: aliases for the students, the built-in agents as they are.

A course's folder names carry full names and student IDs (Moodle's do). The page a teacher
publishes (`--public`) therefore names each agent that is not one of the game's own by an
alias: stable for the study (derived from its secret key, so the same student has the same
alias on every page of the study, and nobody without the key can tell who is who), or the
teacher's own (`--aliases FILE.csv`), or the real names when asked (`--real-names`).

Concepts:
- alias(name, key): `student-` and six hex digits of a keyed hash of the name.
- read_aliases(path): the teacher's aliases, a CSV with the columns `name` and `alias`;
  a bad line is a FormatError at its file:line:col.
- public_names(names, builtin, key, chosen): each name -> what the public page shows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_table

PREFIX = "student-"


def alias(name: str, key: bytes, digits: int = 6) -> str:
    """`student-` and `digits` hex digits of the name's hash under the study's key."""
    digest = hashlib.blake2b(name.encode("utf-8", "surrogatepass"), key=key[:64],
                             digest_size=16).hexdigest()
    return PREFIX + digest[:digits]


def read_aliases(path: str | Path) -> dict[str, str]:
    """The teacher's aliases: name -> alias, from a CSV with a `name` and an `alias` column."""
    head, rows = read_table(Path(path), "aliases file")
    if not head:
        raise FormatError("an aliases file has a header: name,alias", str(path), 1, 1)
    head = [h.lower() for h in head]
    if "name" not in head or "alias" not in head:
        raise FormatError(f"the header names no 'name' and 'alias' columns (it has "
                          f"{', '.join(head) or 'none'})", str(path), 1, 1)
    name_at, alias_at = head.index("name"), head.index("alias")
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for line, row in rows:
        if len(row) <= max(name_at, alias_at):
            raise FormatError(f"{len(row)} column(s), where the header has {len(head)}",
                              str(path), line, 1)
        name, chosen = row[name_at], row[alias_at]
        if not name or not chosen:
            raise FormatError("an empty name or alias", str(path), line,
                              1 if not name else alias_at + 1)
        if chosen in seen:
            raise FormatError(f"the alias {chosen!r} is given on line {seen[chosen]} too",
                              str(path), line, alias_at + 1)
        seen[chosen] = line
        out[name] = chosen
    return out


def public_names(names: Iterable[str], builtin: Iterable[str], key: bytes,
                 chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """What the public page calls each agent: the game's own by its name, a student by the
    teacher's alias where one is chosen, else by the study's; distinct, whatever happens."""
    own = set(builtin)
    out: dict[str, str] = {}
    taken = set(own)
    for name in names:
        if name in own:
            out[name] = name
            continue
        shown = (chosen or {}).get(name)
        digits = 6
        while shown is None or shown in taken:  # another's alias: a longer hash
            shown = alias(name, key, digits)
            digits += 2
            if digits > 32:
                shown = f"{PREFIX}{len(out)}"
                break
        taken.add(shown)
        out[name] = shown
    return out
