"""Feedback a teacher can hand back: one folder per student, their own results only.

`compare --feedback DIR` (and `report --feedback DIR`) writes, for each agent of the study,
a folder named after it holding:

- index.html: the student's own page: their rank among the class (a number, never another
  name), win rate with its 95% interval, errors and time-outs; each failed game with its
  message (at the student's own line, as the row keeps it), the command that plays it again
  and its replay page up to the failure, time-outs included (drawn into the folder from the
  study's own trace of the game, so the folder travels alone); and every game they played.
- results.json: Gradescope's autograder format (`score`, `output`, `visibility`, and a
  `tests` entry per map: the wins out of the games there, or the mean score of a scored
  game), so the folder can be uploaded as it is, or the tournament run inside Gradescope.

Concepts:
- folder_name(agent): a folder name that keeps the student's own letters (`zoë_müller`),
  with path separators, control characters and a leading dot made `_`.
- write_feedback(...): the folders, written whole; returns how many.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.output import file_name, natural_key
from logic_agents.ground.shapes import Record
from logic_agents.study.grades import grade_rows
from logic_agents.study.rows import Row
from logic_agents.study.summary import Summary
from logic_agents.web import CSP_PAGE, _asset, html_page
from logic_agents.web.leaderboard import escaped
from logic_agents.web.study import Lookup, draw_replay


def folder_name(agent: str) -> str:
    """A folder name for `agent` that keeps its own letters (ground.output.file_name)."""
    return file_name(agent)


def write_feedback(folder: str | os.PathLike[str], game: str, summary: Summary,
                   rows: Sequence[Row], sources: Mapping[str, str],
                   again: Callable[[Row], str] | None = None,
                   traces: Lookup | None = None,
                   aliases: Mapping[str, str] | None = None) -> tuple[int, list[str]]:
    """One folder per agent under `folder` (see the module's words); returns how many, and
    notes (a replay page that could not be drawn: the teacher is told, the folder written).

    `again(row)`: the command that plays a game again ("" for none); `traces`: a row's key
    to the trace the study kept of its game (study.traces), from which each failed game's
    replay page is drawn into the agent's folder; `aliases`:
    the name each agent has on the public page (study.aliases), told to it alone.
    """
    root = Path(folder)
    grades = {g["agent"]: g for g in grade_rows(summary, rows, sources)}
    count = len(grades)
    by_agent: dict[str, list[Row]] = {}
    for row in rows:
        by_agent.setdefault(row.agent, []).append(row)
    used: set[str] = set()
    notes: list[str] = []
    try:
        for agent, grade in grades.items():
            name = folder_name(agent)
            while name.lower() in used:  # two names that differ only where a folder cannot
                name += "_"
            used.add(name.lower())
            own = root / name
            own.mkdir(parents=True, exist_ok=True)
            played = sorted(by_agent.get(agent, []),
                            key=lambda r: (r.group, natural_key(r.map), r.run))
            links = _drawn(played, traces, own, notes)
            scored = summary.scored
            shown_as = (aliases or {}).get(agent, agent)
            (own / "index.html").write_text(
                _page(game, agent, grade, count, played, links, again, scored, shown_as),
                encoding="utf-8")
            (own / "results.json").write_text(
                json.dumps(_gradescope(grade, played, scored, again), indent=1) + "\n",
                encoding="utf-8")
    except OSError as e:
        raise FormatError(f"cannot write the feedback: {e.strerror or e}", str(root), 0, 0) \
            from None
    return count, notes


def _drawn(played: Sequence[Row], traces: Lookup | None, own: Path, notes: list[str]
           ) -> dict[tuple[str, str, int, int], str]:
    """Draw each failed game's replay page into the agent's folder, from the trace the
    study kept (a time-out's too: up to the failure); their links there."""
    links: dict[tuple[str, str, int, int], str] = {}
    for index, row in enumerate(played):
        text = traces(row.key) if traces is not None and row.failed else None
        if text is None:
            continue
        try:
            page = draw_replay(row, index, text, own / "replays")
        except OSError:
            raise
        except Exception as e:  # one game's page must not cost the folders: a note
            notes.append(f"{row.agent} on {row.map} run {row.run}: no replay page in its "
                         f"feedback ({type(e).__name__}: {str(e)[:200]})")
            continue
        links[row.key] = f"replays/{page.name}"
    return links


def _figures(grade: Record, scored: bool) -> str:
    """The agent's figures in words: games, wins and rate (or mean score), failures."""
    rate = (f"mean score {grade['mean_score']}" if scored else
            f"win rate {100 * grade['win_rate']:.1f}% [95% CI {100 * grade['ci95_low']:.1f}, "
            f"{100 * grade['ci95_high']:.1f}]")
    return (f"{grade['games']} games, " + ("" if scored else f"{grade['wins']} won, ") + rate
            + f"; {grade['errors']} error(s), {grade['timeouts']} time-out(s)")


def _standing(grade: Record, count: int, scored: bool) -> str:
    """Its rank among the class (a number: no other name), then its figures."""
    return f"rank {grade['rank']} of {count}; {_figures(grade, scored)}"


def _page(game: str, agent: str, grade: Record, count: int, played: Sequence[Row],
          links: Mapping[tuple[str, str, int, int], str], again: Callable[[Row], str] | None,
          scored: bool, shown_as: str) -> str:
    failed = [r for r in played if r.failed]
    body = [f"<h1>{escaped(game)}: {escaped(agent)}</h1>",
            f"<p>{escaped(_standing(grade, count, scored))}</p>"]
    if shown_as != agent:
        body.append(f"<p>On the class's public page you are <b>{escaped(shown_as)}</b>.</p>")
    if failed:
        body.append(f"<h2>Failed games ({len(failed)})</h2><ul>")
        for row in failed:
            command = again(row) if again is not None else ""
            link = links.get(row.key)
            body.append(
                f"<li><b>{escaped(row.map)}</b> run {row.run}: <code class=\"error\">"
                f"{escaped(row.error or row.outcome)}</code>"
                + (f' <a href="{escaped(link)}">replay, up to the failure</a>' if link else "")
                + (f"<br>Play it again: <code>{escaped(command)}</code>" if command else "")
                + "</li>")
        body.append("</ul>")
    head = ["group", "map", "run", "score" if scored else "outcome", "steps", "guesses",
            "error", "replay"]
    body.append("<h2>Every game</h2><div class=\"scroll\"><table><thead><tr>"
                + "".join(f"<th>{escaped(h)}</th>" for h in head) + "</tr></thead><tbody>")
    for row in played:
        link = links.get(row.key)
        value = f"{row.score:g}" if scored and row.score is not None else row.outcome
        cells = [row.group, row.map, str(row.run), value, str(row.steps), str(row.guesses),
                 row.error]
        body.append("<tr>" + "".join(f"<td>{escaped(c)}</td>" for c in cells)
                    + (f'<td><a href="{escaped(link)}">replay</a></td>' if link else "<td></td>")
                    + "</tr>")
    body.append("</tbody></table></div>")
    return html_page(f"{game}: {agent}", _asset("study.css"), "".join(body), CSP_PAGE)


def _gradescope(grade: Record, played: Sequence[Row], scored: bool,
                again: Callable[[Row], str] | None) -> Record:
    """The agent's results in Gradescope's autograder format."""
    tests = []
    by_map: dict[tuple[str, str], list[Row]] = {}
    for row in played:
        by_map.setdefault((row.group, row.map), []).append(row)
    for (group, name), games in by_map.items():
        lines = []
        for row in games:
            line = f"run {row.run}: {row.outcome} in {row.steps} step(s)"
            if row.error:
                line += f": {row.error}"
            command = again(row) if again is not None and row.failed else ""
            lines.append(line + (f"\n  play it again: {command}" if command else ""))
        test: Record = {"name": f"{group}/{name}", "output": "\n".join(lines),
                        "visibility": "visible"}
        if scored:
            scores = [r.score or 0.0 for r in games]
            test["score"] = round(sum(scores) / len(scores), 3)
        else:
            test["score"], test["max_score"] = sum(r.won for r in games), len(games)
        tests.append(test)
    score = grade["mean_score"] if scored else round(100 * grade["win_rate"], 2)
    return {"score": score, "visibility": "visible", "stdout_visibility": "hidden",
            "output": f"{grade['agent']}: {_figures(grade, scored)}"
            + (f"\nfirst failure: {grade['first_error']}" if grade["first_error"] else ""),
            "tests": tests}
