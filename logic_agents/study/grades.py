"""Grades: one line per agent of a study, as a course's spreadsheet takes it.

Concepts:
- grade_rows(summary, rows, sources): per agent, ranked by win rate (a scored game: mean
  score): its source (the file it was read from, `builtin` for the game's own), games, wins,
  win rate and its 95% Wilson interval, mean steps (or score), errors, time-outs and its
  first failure (by map, then run: the same whichever game finished first).
- write_grades(path, grades): the CSV, written whole then renamed into place. Every text
  cell has its control characters escaped, as names are on a terminal, and a cell that a
  spreadsheet would read as a formula (=, +, -, @) is written with a leading apostrophe: a
  student's name or error text is never run as one, nor breaks a line.
- integrity_notes(grades): the integrity hints (study.integrity) as the page's notes.
- read_roster(path) / with_roster(grades, columns, roster): a class roster's columns (an ID,
  an e-mail) joined into the grades by name, for an LMS import (--roster).
- source_of(entry): what an agent's name was read from.
"""

from __future__ import annotations

import csv
import inspect
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import printable, read_table
from logic_agents.ground.output import natural_key, ranked
from logic_agents.ground.shapes import Record
from logic_agents.study.integrity import builtin_copy
from logic_agents.study.rows import Row
from logic_agents.study.summary import Summary
from logic_agents.world.spec import AgentEntry, GameSpec

GRADE_FIELDS = ("rank", "agent", "source", "games", "wins", "win_rate", "ci95_low",
                "ci95_high", "mean_steps", "mean_score", "errors", "timeouts", "first_error",
                "integrity")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def first_failures(rows: Iterable[Row]) -> dict[str, Row]:
    """Each agent's first failed game, by map (natural order) then run."""
    first: dict[str, Row] = {}
    for row in rows:
        if row.failed:
            held = first.get(row.agent)
            if held is None or _order(row) < _order(held):
                first[row.agent] = row
    return first


def _order(row: Row) -> tuple[object, ...]:
    return (natural_key(row.map), row.run, row.group)


def ranks(summary: Summary) -> list[tuple[int, str]]:
    """(rank, agent), best first: by win rate or mean score, then fewer failed games (errors
    and time-outs); ties in both share a rank (1, 2, 2, 4)."""
    def value(name: str) -> float:
        st = summary.agents[name]
        return st.score.mean if summary.scored and st.score is not None else st.win_rate

    def failures(name: str) -> float:
        st = summary.agents[name]
        return st.errors + st.timeouts

    return ranked(summary.agents, value, failures)


def grade_rows(summary: Summary, rows: Sequence[Row], sources: Mapping[str, str]
               ) -> list[Record]:
    """One record per agent (GRADE_FIELDS), best first."""
    first = first_failures(rows)
    out = []
    for rank, name in ranks(summary):
        st = summary.agents[name]
        failed = first.get(name)
        out.append({
            "rank": rank, "agent": name, "source": sources.get(name, ""), "games": st.games,
            "wins": st.wins, "win_rate": round(st.win_rate, 4),
            "ci95_low": round(st.ci95[0], 4), "ci95_high": round(st.ci95[1], 4),
            "mean_steps": round(st.mean_steps, 2),
            "mean_score": round(st.score.mean, 3) if st.score is not None else "",
            "errors": st.errors, "timeouts": st.timeouts,
            "first_error": (f"{failed.map} run {failed.run}: {failed.error or failed.outcome}"
                            if failed is not None else ""),
            "integrity": _hint(sources.get(name, ""))})
    return out


def _hint(source: str) -> str:
    """An integrity hint for a file agent (study.integrity), "" for the game's own."""
    return "" if source in ("", "builtin") else builtin_copy(source)


def integrity_notes(grades: Sequence[Record]) -> list[str]:
    """The integrity hints of the grades, one line each, for the teacher's page."""
    return [f"{g['agent']}: {g['integrity']} (an integrity hint: read the submission)"
            for g in grades if g.get("integrity")]


def _cell(value: object) -> object:
    """A grades cell as names are written anywhere: every text cell (a folder's name, a
    source, an error a forged dump or an agent's exception wrote) with its control
    characters escaped (ground.inputs.printable), then a formula's start made text."""
    if not isinstance(value, str):
        return value
    value = printable(value)
    return "'" + value if value.startswith(FORMULA_START) else value


def read_roster(path: str | os.PathLike[str]) -> tuple[list[str], dict[str, Record]]:
    """A class roster: (its columns but `name`, each name -> its row), from a CSV whose
    `name` column holds the agents' names (the submissions' folder names), so that an ID or
    an e-mail column joins the grades for an LMS import. A bad line: file:line:col."""
    head, rows = read_table(Path(path), "roster")
    lowered = [h.lower() for h in head]
    if "name" not in lowered:
        raise FormatError("a roster's header has a 'name' column (the agents' names) and the "
                          "columns to join (an ID, an e-mail)", str(path), 1, 1)
    at = lowered.index("name")
    columns = [h for k, h in enumerate(head) if k != at]
    clash = [c for c in columns if c in GRADE_FIELDS]
    if clash:
        raise FormatError(f"the column {clash[0]!r} is one the grades have already",
                          str(path), 1, head.index(clash[0]) + 1)
    out: dict[str, Record] = {}
    for line, row in rows:
        if len(row) != len(head):
            raise FormatError(f"{len(row)} column(s), where the header has {len(head)}",
                              str(path), line, 1)
        name = row[at]
        if name in out:
            raise FormatError(f"{name!r} is on an earlier line too", str(path), line, at + 1)
        out[name] = {h: row[k] for k, h in enumerate(head) if k != at}
    return columns, out


def with_roster(grades: Sequence[Record], columns: Sequence[str],
                roster: Mapping[str, Record]) -> tuple[list[Record], list[str]]:
    """The grades with the roster's columns joined by name; and the roster's names that no
    agent has (each agent the roster lacks has empty cells there)."""
    joined = [{**g, **{c: roster.get(str(g["agent"]), {}).get(c, "") for c in columns}}
              for g in grades]
    agents = {str(g["agent"]) for g in grades}
    return joined, [name for name in roster if name not in agents]


def write_grades(path: str | os.PathLike[str], grades: Sequence[Record],
                 extra: Sequence[str] = ()) -> None:
    """The grades as CSV at `path` (written whole, then renamed into place).

    UTF-8 with a byte-order mark: Excel reads `zoë` as it is only with one (Python reads it
    with encoding="utf-8-sig"). The folder is made when it is not there.
    """
    target = Path(path)
    if target.suffix.lower() != ".csv":
        raise FormatError("the grades are CSV; name the file FILE.csv", str(target), 0, 0)
    text = io.StringIO()
    writer = csv.DictWriter(text, [*GRADE_FIELDS, *extra], lineterminator="\n")
    writer.writeheader()
    for grade in grades:
        writer.writerow({k: _cell(v) for k, v in grade.items()})
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text.getvalue(), encoding="utf-8-sig")
        os.replace(tmp, target)
    except OSError as e:
        raise FormatError(f"cannot write the grades: {e.strerror or e}", str(target), 0, 0) \
            from None


def source_of(entry: AgentEntry, spec: GameSpec) -> str:
    """What an agent was read from: `builtin` (the game's own), its file reference, or the
    file of a class given as an object ("" when there is none: a notebook's)."""
    factory = entry.factory
    reference = getattr(factory, "reference", None)
    if entry.name in spec.agents and entry is spec.agents[entry.name] or \
            isinstance(reference, str) and reference in spec.agents:
        return "builtin"
    if isinstance(reference, str):
        return reference
    try:
        return inspect.getsourcefile(factory) or ""
    except TypeError:
        return ""
