"""The study page of `compare --html`: summary table, bars, paired tests, and one link per game to
its replay page (written beside it, in FILE_replays/).

Concepts: bars_svg draws win rates (or mean scores) per agent and group with their 95% intervals
as inline SVG; study_page puts the page together: the command, version and seed that made it,
the summary, the bars, the paired differences with their intervals and McNemar p, a per-map
table with intervals (score and time for scored games), and the games; every table sorts by its
header (inline script, no network); replay pages are drawn from the traces the study kept of
its own games (study.traces): what a page shows is the game that was graded, and no page plays
one again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from logic_agents.ground.output import natural_key
from logic_agents.ground.shapes import Record
from logic_agents.web import CSP_PAGE, _asset, _fill, episode_data, game_page, html_page
from logic_agents.web.leaderboard import PUBLIC_LEAVES_OUT, cell, escaped, failures, leaderboard


class GameRow(Protocol):
    """What the page reads of a study's row (study.rows.Row, which sits above the pages)."""

    agent: str
    map: str
    group: str
    run: int
    seed: int
    outcome: str
    steps: int
    guesses: int
    score: float | None
    error: str

    @property
    def failed(self) -> bool: ...
    @property
    def key(self) -> tuple[str, str, int, int]: ...


PUBLIC_META = ("version", "runs", "made")  # what a public page keeps of the study's meta
COLOURS = ("#4a7bd1", "#e8590c", "#2e8b3a", "#8e44ad", "#c0392b", "#117a65", "#7b241c")


def bars_svg(summary: Record) -> str:
    """Win rates (or mean scores) per group, one bar per agent, with 95% intervals; drawn
    at a size a reader can read (12 px labels, 30 px bars), as wide as the groups need."""
    scored = summary.get("objective") == "score"
    agents = list(summary["agents"])
    groups = list(dict.fromkeys(g for st in summary["agents"].values() for g in st["groups"]))
    if len(groups) > 1:
        groups = ["all", *groups]

    def stat(agent: str, group: str) -> tuple[float, float, float]:
        st = summary["agents"][agent] if group == "all" else summary["agents"][agent]["groups"].get(group)
        if st is None:
            return 0.0, 0.0, 0.0
        if scored:
            sc = st["score"]
            return sc["mean"], sc["ci95"][0], sc["ci95"][1]
        return st["win_rate"], st["ci95"][0], st["ci95"][1]

    top = 1.0 if not scored else max([stat(a, g)[2] for a in agents for g in groups] + [1.0])
    bar, gap, height, left, legend = 30, 24, 300, 56, 130
    width = max(left + len(groups) * (len(agents) * bar + gap) + 10, left + legend * len(agents))
    out = [f'<svg class="bars" width="{width}" height="{height + 80}" role="img" '
           f'viewBox="0 0 {width} {height + 80}">']
    for k in range(5):
        y = 10 + height * k / 4
        value = top * (1 - k / 4)
        label = f"{100 * value:.0f}%" if not scored else f"{value:.0f}"
        out.append(f'<line x1="{left}" x2="{width}" y1="{y}" y2="{y}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y + 4}" text-anchor="end" font-size="12">{label}</text>')
    for gi, group in enumerate(groups):
        x0 = left + gi * (len(agents) * bar + gap) + gap / 2
        for ai, agent in enumerate(agents):
            mid, lo, hi = stat(agent, group)
            x = x0 + ai * bar
            y = 10 + height * (1 - mid / top)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar - 4}" '
                       f'height="{10 + height - y:.1f}" fill="{COLOURS[ai % len(COLOURS)]}">'
                       f'<title>{escaped(agent)} {escaped(group)}: {mid:.3f} '
                       f'[{lo:.3f}, {hi:.3f}]</title></rect>')
            cx = x + (bar - 4) / 2
            y_lo, y_hi = 10 + height * (1 - lo / top), 10 + height * (1 - hi / top)
            out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y_lo:.1f}" y2="{y_hi:.1f}" '
                       'stroke="#222" stroke-width="1.5"/>'
                       f'<line x1="{cx - 5:.1f}" x2="{cx + 5:.1f}" y1="{y_lo:.1f}" y2="{y_lo:.1f}" '
                       'stroke="#222" stroke-width="1.5"/>'
                       f'<line x1="{cx - 5:.1f}" x2="{cx + 5:.1f}" y1="{y_hi:.1f}" y2="{y_hi:.1f}" '
                       'stroke="#222" stroke-width="1.5"/>')
        out.append(f'<text x="{x0 + len(agents) * bar / 2:.1f}" y="{height + 32}" '
                   f'text-anchor="middle" font-size="13">{escaped(group)[:24]}</text>')
    for ai, agent in enumerate(agents):
        out.append(f'<rect x="{left + ai * legend}" y="{height + 52}" width="14" height="14" '
                   f'fill="{COLOURS[ai % len(COLOURS)]}"/><text x="{left + ai * legend + 19}" '
                   f'y="{height + 64}" font-size="13">{escaped(agent)[:16]}</text>')
    out.append("</svg>")
    return "".join(out)


def _rate(st: Record) -> str:
    lo, hi = st["ci95"]
    return f"{100 * st['win_rate']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _score(st: Record) -> str:
    sc = st["score"]
    return f"{sc['mean']:.1f} [{sc['ci95'][0]:.1f}, {sc['ci95'][1]:.1f}]"


def _cpu_cell(stats: Record) -> str:
    cpu = stats.get("mean_cpu_s", 0.0)  # a summary of rows from before CPU time was kept
    return cell(f"{cpu:.4f}", cpu)


def _summary_rows(summary: Record, scored: bool) -> list[str]:
    body = []
    for name, st in summary["agents"].items():
        for group, g in [("all", st), *(st["groups"].items() if len(st["groups"]) > 1 else [])]:
            first = [cell(name), cell(group), cell(g["games"], g["games"])]
            failed = [cell(g["errors"], g["errors"]), cell(g["timeouts"], g["timeouts"])]
            if scored:
                cells = [cell(_score(g), g["score"]["mean"]),
                         cell(f"{g['mean_steps']:.1f}", g["mean_steps"]),
                         cell(f"{g['mean_time_s']:.4f}", g["mean_time_s"]),
                         _cpu_cell(g)]
            else:
                cells = [cell(g["wins"], g["wins"]), cell(_rate(g), g["win_rate"]),
                         cell(f"{g['mean_steps']:.1f}", g["mean_steps"]),
                         cell(f"{g['mean_guesses']:.2f}", g["mean_guesses"]),
                         cell(f"{g['mean_time_s']:.4f}", g["mean_time_s"]), _cpu_cell(g)]
            body.append("<tr>" + "".join(first + cells + failed) + "</tr>")
    return body


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error over all the pairs), in order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda k: p_values[k])
    adjusted, running = [0.0] * m, 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted


MAX_PAGE_PAIRS = 300  # pairs a page lists; past that, the significant ones (a class of 200)


def _pair_rows(summary: Record, scored: bool) -> list[str]:
    body = []
    unit = 1 if scored else 100
    pairs = list(summary["pairs"])
    family = holm([p["p_value"] for p in pairs])
    listed = list(zip(pairs, family, strict=True))
    if len(listed) > MAX_PAGE_PAIRS:
        listed = [(p, h) for p, h in listed if p["significant"]][:MAX_PAGE_PAIRS]
    for p, p_holm in listed:
        verdict = f"{p['better']} is better" if p["significant"] else "no significant difference"
        lo, hi = p.get("difference_ci95", [0.0, 0.0])
        diff = p.get("difference", 0.0)
        body.append("<tr>" + "".join([
            cell(p["a"]), cell(p["b"]), cell(p["paired_games"], p["paired_games"]),
            cell(p["only_a_won"], p["only_a_won"]), cell(p["only_b_won"], p["only_b_won"]),
            cell(f"{unit * diff:+.1f} [{unit * lo:+.1f}, {unit * hi:+.1f}]", diff),
            cell(f"{p['p_value']:.3g}", p["p_value"]), cell(f"{p_holm:.3g}", p_holm),
            cell(verdict, cls="sig" if p["significant"] else "")]) + "</tr>")
    return body


def _map_rows(maps: Sequence[Record], agents: Sequence[str], scored: bool) -> list[str]:
    body = []
    for rank, entry in enumerate(maps):  # maps come in natural order (EASY2 before EASY10)
        cells = [cell(entry["group"]), cell(entry["map"], rank)]
        for agent in agents:
            st = entry["agents"].get(agent)
            if st is None:
                cells += [cell("", -1)] * (2 if scored else 1)
            elif scored:
                cells += [cell(_score(st), st["score"]["mean"]),
                          cell(f"{st['mean_time_s']:.4f}", st["mean_time_s"])]
            else:
                cells.append(cell(f"{st['wins']}/{st['games']}  {_rate(st)}", st["win_rate"]))
        body.append("<tr>" + "".join(cells) + "</tr>")
    return body


def _meta(meta: dict[str, str]) -> str:
    """The study's exact command, version and seed, so a reader can run it again."""
    return "".join(f"<dt>{escaped(k)}</dt><dd><code>{escaped(v)}</code></dd>" for k, v in meta.items())


def study_page(title: str, summary: Record, rows: Sequence[GameRow],
               links: dict[tuple[str, str, int, int], str], notes: Sequence[str] = (),
               meta: dict[str, str] | None = None,
               window: int | None = None, maps: Sequence[Record] = (),
               public: bool = False, again: Callable[[Any], str] | None = None) -> str:
    """The whole page; `links` maps a row's key to its replay page (relative path); `meta`
    (command, version, seed, ...) is printed at the top. Every table sorts by a click on its
    header (a few lines of inline script; the page loads nothing). `window`: at most that
    many rows of the per-map and per-game tables (a notebook's view of a big study), with a
    note of how many there are. `maps`: the per-map figures (study.summary.per_map), which
    the study computes: the pages draw, they do not count. `public`: the form to publish,
    without the command, seeds, error messages or replays (web.leaderboard); `again(row)`:
    the command that plays a failed game again, shown in each agent's failures."""
    scored = summary.get("objective") == "score"
    agents = list(summary["agents"])
    if public:
        meta = {k: v for k, v in (meta or {}).items() if k in PUBLIC_META}
        meta["public"] = PUBLIC_LEAVES_OUT
        links, notes, again = {}, [], None
    head = (["agent", "group", "games", "mean score [95% CI]", "steps", "time/game s",
             "cpu/game s"] if scored
            else ["agent", "group", "games", "wins", "win rate % [95% CI]", "steps", "guesses",
                  "time/game s", "cpu/game s"]) + ["errors", "time-outs"]
    board_head, board = leaderboard(summary)
    pairs_listed = len(summary["pairs"])
    if summary.get("baseline_chosen") and summary.get("baseline"):
        count = len(summary["agents"])
        notes = [*notes, f"{count:,} agents: each was tested against the best, "
                 f"{summary['baseline'][0]} ({count * (count - 1) // 2:,} pairs would be tested "
                 "otherwise; --baseline A,B chooses the agents to test against)"]
    if pairs_listed > MAX_PAGE_PAIRS:
        notes = [*notes, f"{pairs_listed:,} pairs were tested; the table lists the significant "
                 "ones (--baseline A,B tests only the pairs with a baseline agent)"]
    map_head = ["group", "map"]
    for agent in agents:
        map_head += ([f"{agent} score [95% CI]", f"{agent} time/game s"] if scored
                     else [f"{agent} wins, % [95% CI]"])
    pair_head = ["A", "B", "paired games", "only A " + ("scored more" if scored else "won"),
                 "only B " + ("scored more" if scored else "won"),
                 "A − B, " + ("mean score" if scored else "points of win rate") + " [95% CI]",
                 "p", "p, Holm", "verdict"]
    games = []
    order = {name: k for k, name in enumerate(agents)}
    ordered = sorted(rows, key=lambda r: (r.group, natural_key(r.map), r.run,
                                          order.get(r.agent, 0)))
    map_rank = {name: k for k, name in enumerate(sorted({r.map for r in rows}, key=natural_key))}
    map_rows = _map_rows(maps, agents, scored)
    if window is not None and (len(ordered) > window or len(map_rows) > window):
        notes = [*notes, f"Shown: the first {min(window, len(map_rows)):,} of {len(map_rows):,} "
                 f"maps and {min(window, len(ordered)):,} of {len(ordered):,} games; "
                 "study.to_html() (or compare --html) writes them all."]
        ordered, map_rows = ordered[:window], map_rows[:window]
    for r in ordered:
        link = links.get(r.key)
        link_cell = f'<td><a href="{escaped(link)}">replay</a></td>' if link else "<td></td>"
        value = f"{r.score:g}" if scored and r.score is not None else r.outcome
        error = "" if public else r.error
        games.append("<tr>" + "".join([
            cell(r.agent), cell(r.group), cell(r.map, map_rank[r.map]), cell(r.run, r.run),
            cell("", "") if public else cell(r.seed, r.seed),
            cell(value, r.score if scored else None, f"o-{r.outcome}"),
            cell(r.steps, r.steps), cell(r.guesses, r.guesses), cell(error)]) + link_cell
            + "</tr>")

    def header(names: Sequence[str]) -> str:
        return "".join(f'<th title="sort">{escaped(h)}</th>' for h in names)

    page = _fill(_asset("study.html"), {
        "title": escaped(title), "meta": _meta(meta or {}), "head": header(head),
        "summary": "".join(_summary_rows(summary, scored)),
        "bars": ('<h2>By group, with 95% intervals</h2><div class="scroll">'
                 + bars_svg(summary) + "</div>"
                 if len(agents) <= len(COLOURS) else ""),  # past that, the leaderboard's bars
        "board_head": header(board_head), "board": "".join(board),
        "board_kind": "scored" if scored else "won",
        "failures": failures(rows, links, public, again),
        "pair_head": header(pair_head),
        "pairs": "".join(_pair_rows(summary, scored))
        or f'<tr><td colspan="{len(pair_head)}">one agent: no pairs</td></tr>',
        "map_head": header(map_head), "maps": "".join(map_rows),
        "notes": "".join(f"<p class=\"note\">{escaped(n)}</p>" for n in notes),
        "games": "".join(games), "script": _asset("study.js")})
    return html_page(title, _asset("study.css"), page, CSP_PAGE)


REPLAYS = ("all", "lost", "none")  # which games of a study get a replay page


def replay_name(index: int, row: GameRow) -> str:
    """A replay page's file name: a readable ASCII stem of at most 60 characters and a short
    hash of the whole (agent, group, map, run), so any names give a file name well under the
    255 bytes a file system allows, and no two games share one."""
    whole = f"{row.agent}-{row.group}-{row.map}-run{row.run}"
    stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_"
                   for ch in whole)[:60]
    digest = hashlib.blake2b(whole.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    return f"{index:05d}-{stem}-{digest}.html"


def draw_replay(row: GameRow, k: int, text: str, folder: Path) -> Path:
    """One game's replay page in `folder` (made), drawn from the trace the study kept of it."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / replay_name(k, row)
    target.write_text(game_page(episode_data(target, text=text)), encoding="utf-8")
    return target


Lookup = Callable[[tuple[str, str, int, int]], "str | None"]  # a row's key -> its trace


def write_study(path: str, summary: Record, rows: Sequence[GameRow], title: str,
                traces: Lookup, progress: Callable[[int, int], object] | None = None,
                meta: dict[str, str] | None = None, maps: Sequence[Record] = (),
                replays: str = "all", public: bool = False,
                again: Callable[[Any], str] | None = None, hints: Sequence[str] = ()
                ) -> tuple[dict[tuple[str, str, int, int], str], list[str]]:
    """Write the study page at `path` and a replay page per game in `<stem>_replays/`;
    returns (each drawn row's key -> its page, relative to the study page; notes).

    A replay page is drawn from the trace the study kept of its game (`traces`, by row key):
    no game is played again, a failed game (a time-out too) shows its moves up to the
    failure, and a game whose agent never began (its module did not read) has none. A page
    that cannot be drawn, whatever a student's game met, is a note on the study's page,
    never its end. `public`: the page to publish (study_page), no replays. `hints`: lines the
    page's notes begin with (the study's integrity hints). `replays`: "all" games get a page,
    "lost" only those not won, "none" none (REPLAYS)."""

    if replays not in REPLAYS:
        raise ValueError(f"replays: one of {', '.join(REPLAYS)}, not {replays!r}")
    if public:  # a replay shows the maps, which may be the course's hidden ones
        replays = "none"
    page = Path(path)
    folder = page.with_name(page.stem + "_replays")
    folder.mkdir(parents=True, exist_ok=True)
    links: dict[tuple[str, str, int, int], str] = {}
    notes: list[str] = list(hints)
    unread = untraced = 0
    for k, row in enumerate(rows):
        if replays == "none" or replays == "lost" and row.outcome == "won":
            continue
        if row.failed and "(in reading its module)" in row.error:
            unread += 1  # no game began: nothing to draw
            continue
        text = traces(row.key)
        if text is None:  # a game whose trace was not kept (its worker was ended, ...)
            untraced += 1
            continue
        try:
            drawn = draw_replay(row, k, text, folder)
            link: str | None = f"{folder.name}/{drawn.name}"
        except Exception as e:  # one student's page must not cost the study's: a note
            notes.append(f"{row.agent} on {row.map} run {row.run}: no replay page "
                         f"({type(e).__name__}: {str(e)[:200]})")
            link = None
        if link is not None:
            links[row.key] = link
        if progress is not None:
            progress(k + 1, len(rows))
    if unread:
        notes.append(f"{unread} game(s) had no agent to play (its module did not read): no "
                     "replay page")
    if untraced:
        notes.append(f"{untraced} game(s) have no replay page: the study kept no trace of "
                     "them (a worker ended with its game, a Ray study, or a results file "
                     "from before traces were kept)")
    page.write_text(study_page(title, summary, rows, links, notes, meta, maps=maps,
                               public=public, again=again), encoding="utf-8")
    return links, notes
