"""The parts of a study page that serve a class: the leaderboard and what each agent failed.

Concepts:
- leaderboard(summary): one row per agent, ranked (rank, agent, games, wins, win rate or mean
  score with its 95% interval, drawn as a small bar with its interval, errors, time-outs);
  the page's tables sort by any column. Each bar is labelled by its row, so nothing rests on
  colour, past 10 agents or 200.
- failures(rows, ...): a section per agent whose games failed: its errors by kind, its first
  failure (map, run, message, and the command that plays that game again) and a link to its
  replay up to the failure. `public` leaves out every message and command: counts only.
- cell, escaped: a sortable table's cell and HTML text (the study page's tables too).
- PUBLIC_LEAVES_OUT: what the public form of a page leaves out, in words for its header.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from logic_agents.ground.output import natural_key, ranked
from logic_agents.ground.shapes import Record

PUBLIC_LEAVES_OUT = ("the command, hidden paths, seeds, error messages and replays are left "
                     "out of this public page")
BAR_WIDTH = 120  # px of the inline bar of a rate


class FailedRow(Protocol):
    """What the section reads of a row (study.rows.Row)."""

    agent: str
    map: str
    run: int
    seed: int
    outcome: str
    error: str

    @property
    def failed(self) -> bool: ...
    @property
    def key(self) -> tuple[str, str, int, int]: ...


def escaped(value: object) -> str:
    """A value as HTML text."""
    return html.escape(str(value))


def cell(value: object, sort: float | str | None = None, cls: str = "") -> str:
    """A table cell; `sort` is the value the sortable table orders it by (its text if None)."""
    key = "" if sort is None else f' data-v="{escaped(sort)}"'
    klass = f' class="{cls}"' if cls else ""
    return f"<td{key}{klass}>{escaped(value)}</td>"


def rate_bar(mid: float, lo: float, hi: float, top: float = 1.0) -> str:
    """A rate (or score) as an inline bar with its interval: read beside its row's label."""
    def x(value: float) -> float:
        return max(0.0, min(1.0, value / top if top else 0.0)) * BAR_WIDTH

    return (f'<svg class="rate" width="{BAR_WIDTH + 2}" height="14" role="img" '
            f'aria-label="{mid:.3f} [{lo:.3f}, {hi:.3f}]">'
            f'<rect x="0" y="2" width="{BAR_WIDTH}" height="10" fill="#ece8dd"/>'
            f'<rect x="0" y="2" width="{x(mid):.1f}" height="10" fill="#4a7bd1"/>'
            f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="7" y2="7" stroke="#222" '
            'stroke-width="1.5"/></svg>')


def leaderboard(summary: Record) -> tuple[list[str], list[str]]:
    """(header names, row HTML), best first (then fewer failed games); ties share a rank."""
    scored = summary.get("objective") == "score"
    agents: dict[str, Record] = summary["agents"]

    def value(name: str) -> float:
        st = agents[name]
        return float(st["score"]["mean"]) if scored else float(st["win_rate"])

    top = max([float(st["score"]["ci95"][1]) for st in agents.values()] + [1.0]) if scored \
        else 1.0
    head = ["rank", "agent", "games",
            *(["mean score [95% CI]"] if scored else ["wins", "win rate % [95% CI]"]),
            "", "errors", "time-outs"]
    body = []
    for rank, name in ranked(agents, value,
                             lambda name: agents[name]["errors"] + agents[name]["timeouts"]):
        st = agents[name]
        if scored:
            sc = st["score"]
            lo, hi = sc["ci95"]
            shown = [cell(f"{sc['mean']:.1f} [{lo:.1f}, {hi:.1f}]", sc["mean"])]
            bar = rate_bar(sc["mean"], lo, hi, top)
        else:
            lo, hi = st["ci95"]
            shown = [cell(st["wins"], st["wins"]),
                     cell(f"{100 * st['win_rate']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]",
                           st["win_rate"])]
            bar = rate_bar(st["win_rate"], lo, hi)
        body.append("<tr>" + "".join([
            cell(rank, rank), cell(name), cell(st["games"], st["games"]), *shown,
            f'<td data-v="{value(name)}">{bar}</td>',
            *(cell(st[k], st[k], "fail" if st[k] else "") for k in ("errors", "timeouts"))])
            + "</tr>")
    return head, body


def _kind(error: str, outcome: str) -> str:
    """An error's kind: the word before its first colon (IndexError), else the outcome."""
    head = error.split(":", 1)[0].strip()
    return head if head and head.replace("_", "").isalnum() else outcome


def failures(rows: Sequence[FailedRow], links: Mapping[tuple[str, str, int, int], str],
             public: bool, again: Callable[[FailedRow], str] | None = None) -> str:
    """The section of what each agent failed (see the module's words); "" when none did."""
    by_agent: dict[str, list[FailedRow]] = {}
    for row in rows:
        if row.failed:
            by_agent.setdefault(row.agent, []).append(row)
    if not by_agent:
        return ""
    out = ['<h2 id="failures">Failures, by agent</h2>',
           '<p class="hint">Games an agent failed (an error its code raised, an action the '
           "world refused, a time-out) are counted apart from its losses."
           + ("" if public else " Each message names where in the agent's code it failed; "
              "a time-out names where the agent was when it was stopped.") + "</p>"]
    for agent in sorted(by_agent, key=natural_key):
        failed = sorted(by_agent[agent], key=lambda r: (natural_key(r.map), r.run))
        kinds: dict[str, int] = {}
        for row in failed:
            kind = _kind(row.error, row.outcome)
            kinds[kind] = kinds.get(kind, 0) + 1
        counted = ", ".join(f"{k} &times;{n}" for k, n in
                            sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        out.append(f'<details class="agent-failures"><summary><b>{escaped(agent)}</b>: '
                   f"{len(failed)} failed game(s): {counted}</summary>")
        if not public:
            first = failed[0]
            link = links.get(first.key)
            out.append(f"<p>First, on <b>{escaped(first.map)}</b> run {first.run}: "
                       f"<code class=\"error\">{escaped(first.error or first.outcome)}</code></p>")
            if link:
                out.append(f'<p><a href="{escaped(link)}">its replay, up to the failure</a></p>')
            command = again(first) if again is not None else ""
            if command:  # none for a map that only a study's record keeps, without one
                out.append(f"<p>Play it again: <code>{escaped(command)}</code></p>")
        out.append("</details>")
    return "".join(out)
