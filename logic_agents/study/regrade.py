"""Regrading some students of a study: `compare ... --out FILE --resume --only NAME`.

A fix from one student re-played every student's failed games and read all 200 modules
again. `--only NAME` (repeatable) reads the named agents' modules alone and plays their
games alone: all of them when the file changed since the study (its old rows are taken out
of the results file first: they are another file's), else only the missing ones, and with
`--retry-errors` the failed ones. Every other agent's rows stand as they are.

The study record keeps each regrade: the agent, when, its file's hash before and after, and
its figures before and after (games, wins, errors, time-outs).

Concepts:
- Regrade: every agent of the study (the record's order) and the named ones whose file
  changed.
- plan_regrade(out, study, only): the record's agents, with the named ones' new entries;
  refuses a name the study does not have.
- standing(rows, agent): an agent's figures over some rows.
- kept_rows(rows, regrade, only, retry_errors): the rows that stand.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.study.record import changed_sources, read_study
from logic_agents.study.rows import Row


@dataclass(frozen=True)
class Regrade:
    """What a regrade changes: the study's agents, and the named ones whose file changed."""

    agents: tuple[str, ...]
    only: frozenset[str]
    changed: frozenset[str]
    earlier: tuple[Record, ...] = ()  # the regrades the record listed before


def plan_regrade(out: Path, study: Record, only: Sequence[str]) -> Regrade:
    """Put the record's other agents into `study` (this run read the named ones only).

    Raises:
        UsageError: a name the study in `out` does not have (its names are listed).
    """
    held = read_study(out)
    agents = [a for a in held.get("agents") or [] if isinstance(a, dict)]
    names = [str(a.get("name")) for a in agents]
    new = {str(a["name"]): a for a in study["agents"]}
    unknown = [n for n in new if n not in names]
    if unknown:
        listed = ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")
        raise UsageError(f"--only {unknown[0]}: no agent of the study in {out} is named so "
                         f"(it has {listed})")
    merged = [new.get(str(a.get("name")), a) for a in agents]
    changed = {str(c["agent"]) for c in changed_sources(agents, merged)}
    study["agents"] = merged
    references = held.get("references")
    study["references"] = {**(references if isinstance(references, dict) else {}),
                           **study.get("references", {})}
    earlier = held.get("regrades")
    return Regrade(tuple(names), frozenset(new), frozenset(changed),
                   tuple(r for r in earlier if isinstance(r, dict))
                   if isinstance(earlier, list) else ())


def kept_rows(rows: Sequence[Row], regrade: Regrade, retry_errors: bool) -> list[Row]:
    """The rows that stand: every other agent's; a named agent's unless its file changed
    (all its games are played again), and with `retry_errors` unless it failed."""
    return [r for r in rows if r.agent not in regrade.only
            or not (r.agent in regrade.changed or retry_errors and r.failed)]


def standing(rows: Sequence[Row], agent: str) -> Record:
    """An agent's figures over `rows` (the last row of a game retried counts)."""
    last = {r.key: r for r in rows if r.agent == agent}
    games = list(last.values())
    return {"games": len(games), "wins": sum(r.won for r in games),
            "errors": sum(r.outcome == "error" for r in games),
            "timeouts": sum(r.outcome == "timeout" for r in games)}


def regrade_entries(regrade: Regrade, study: Record, before: dict[str, Record],
                    rows: Sequence[Row]) -> list[Record]:
    """The record's regrades: the earlier ones, then one per named agent of this run."""
    made = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    sources = {str(a["name"]): a.get("source") for a in study["agents"]}
    return [*regrade.earlier, *({"agent": name, "at": made, "source": sources.get(name),
                                 "file_changed": name in regrade.changed,
                                 "before": before.get(name, {}),
                                 "after": standing(rows, name)}
                                for name in sorted(regrade.only))]
