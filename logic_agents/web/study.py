"""The study page of `compare --html`: summary table, bars, paired tests, and one link per
game to its replay page (written beside it, in FILE_replays/).

Concepts: bars_svg draws win rates (or mean scores) per agent and group with their 95%
intervals as inline SVG; study_page puts the page together (no script, no network); replay
pages are made by re-playing each game from its seed (a seed gives one trajectory), with the
agents' explanations on, and are checked against the study's row.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from logic_agents.errors import AgentFailed
from logic_agents.web import CSP_STUDY, _asset, _fill, html_page
from logic_agents.world.sandbox import NO_CAPS, Clock

COLOURS = ("#4a7bd1", "#e8590c", "#2e8b3a", "#8e44ad", "#c0392b", "#117a65", "#7b241c")


def _e(value: Any) -> str:
    return html.escape(str(value))


def bars_svg(summary: dict) -> str:
    """Win rates (or mean scores) per group, one bar per agent, with 95% intervals."""
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
    bar, gap, height, left = 18, 14, 180, 44
    width = max(left + len(groups) * (len(agents) * bar + gap) + 10, left + 90 * len(agents))
    out = [f'<svg class="bars" width="{width}" height="{height + 60}" role="img" '
           f'viewBox="0 0 {width} {height + 60}">']
    for k in range(5):
        y = 10 + height * k / 4
        value = top * (1 - k / 4)
        label = f"{100 * value:.0f}%" if not scored else f"{value:.0f}"
        out.append(f'<line x1="{left}" x2="{width}" y1="{y}" y2="{y}" stroke="#ddd"/>'
                   f'<text x="{left - 4}" y="{y + 4}" text-anchor="end" font-size="10">{label}</text>')
    for gi, group in enumerate(groups):
        x0 = left + gi * (len(agents) * bar + gap) + gap / 2
        for ai, agent in enumerate(agents):
            mid, lo, hi = stat(agent, group)
            x = x0 + ai * bar
            y = 10 + height * (1 - mid / top)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar - 3}" '
                       f'height="{10 + height - y:.1f}" fill="{COLOURS[ai % len(COLOURS)]}">'
                       f'<title>{_e(agent)} {_e(group)}: {mid:.3f} [{lo:.3f}, {hi:.3f}]</title></rect>')
            cx = x + (bar - 3) / 2
            y_lo, y_hi = 10 + height * (1 - lo / top), 10 + height * (1 - hi / top)
            out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y_lo:.1f}" y2="{y_hi:.1f}" '
                       'stroke="#222" stroke-width="1.2"/>')
        out.append(f'<text x="{x0 + len(agents) * bar / 2:.1f}" y="{height + 26}" '
                   f'text-anchor="middle" font-size="11">{_e(group)[:18]}</text>')
    for ai, agent in enumerate(agents):
        out.append(f'<rect x="{left + ai * 90}" y="{height + 40}" width="10" height="10" '
                   f'fill="{COLOURS[ai % len(COLOURS)]}"/><text x="{left + ai * 90 + 14}" '
                   f'y="{height + 49}" font-size="11">{_e(agent)}</text>')
    out.append("</svg>")
    return "".join(out)


def study_page(title: str, summary: dict, rows: Sequence[Any], links: dict[tuple, str],
               notes: Sequence[str] = ()) -> str:
    """The whole page; `links` maps a row's key to its replay page (relative path)."""
    scored = summary.get("objective") == "score"
    head = (["agent", "group", "games", "mean score [95% CI]", "steps", "time/game s"] if scored
            else ["agent", "group", "games", "wins", "win rate % [95% CI]", "steps", "guesses",
                  "time/game s"])
    body = []
    for name, st in summary["agents"].items():
        for group, g in [("all", st), *(st["groups"].items() if len(st["groups"]) > 1 else [])]:
            if scored:
                sc = g["score"]
                cells = [g["games"], f"{sc['mean']:.1f} [{sc['ci95'][0]:.1f}, {sc['ci95'][1]:.1f}]",
                         f"{g['mean_steps']:.1f}", f"{g['mean_time_s']:.4f}"]
            else:
                lo, hi = g["ci95"]
                cells = [g["games"], g["wins"],
                         f"{100 * g['win_rate']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]",
                         f"{g['mean_steps']:.1f}", f"{g['mean_guesses']:.2f}",
                         f"{g['mean_time_s']:.4f}"]
            body.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in
                                         [name if group == "all" else "", group, *cells]) + "</tr>")
    pairs = []
    for p in summary["pairs"]:
        verdict = f"{p['better']} is better" if p["significant"] else "no significant difference"
        pairs.append(f"<li>{_e(p['a'])} vs {_e(p['b'])}: {p['paired_games']} paired games; "
                     f"only {_e(p['a'])} {'scored more' if scored else 'won'} {p['only_a_won']}, "
                     f"only {_e(p['b'])} {p['only_b_won']}; {_e(p['test'])} p = "
                     f"{p['p_value']:.3g}: <b>{_e(verdict)}</b></li>")
    games = []
    order = {name: k for k, name in enumerate(summary["agents"])}
    for r in sorted(rows, key=lambda r: (r.group, r.map, r.run, order.get(r.agent, 0))):
        link = links.get(r.key)
        cell = f'<a href="{_e(link)}">replay</a>' if link else ""
        value = f"{r.score:g}" if scored and r.score is not None else r.outcome
        games.append(f"<tr><td>{_e(r.agent)}</td><td>{_e(r.group)}</td><td>{_e(r.map)}</td>"
                     f"<td>{r.run}</td><td>{r.seed}</td><td class=\"o-{_e(r.outcome)}\">"
                     f"{_e(value)}</td><td>{r.steps}</td><td>{r.guesses}</td><td>{cell}</td></tr>")
    page = _fill(_asset("study.html"), {
        "title": _e(title), "head": "".join(f"<th>{_e(h)}</th>" for h in head),
        "summary": "".join(body), "bars": bars_svg(summary),
        "pairs": "".join(pairs) or "<li>one agent: no pairs</li>",
        "notes": "".join(f"<p class=\"note\">{_e(n)}</p>" for n in notes),
        "games": "".join(games)})
    return html_page(title, _asset("study.css"), page, CSP_STUDY)


def replay_name(index: int, row: Any) -> str:
    """A replay page's file name: a readable ASCII stem of at most 60 characters and a short
    hash of the whole (agent, group, map, run), so any names give a file name well under the
    255 bytes a file system allows, and no two games share one."""
    import hashlib

    whole = f"{row.agent}-{row.group}-{row.map}-run{row.run}"
    stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_"
                   for ch in whole)[:60]
    digest = hashlib.blake2b(whole.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    return f"{index:05d}-{stem}-{digest}.html"


def write_study(path: str, spec: Any, summary: dict, rows: Sequence[Any], entries: Sequence[Any],
                agent_options: dict[str, dict], world_options: dict, title: str,
                progress: Any = None, caps: Any = None) -> tuple[int, list[str]]:
    """Write the study page at `path` and a replay page per game in `<stem>_replays/`;
    returns (replays written, notes). Each game is re-played from its seed with the agents'
    explanations on, under the study's caps, and checked against its row. A game the agent
    failed (error, timeout) gets no replay page: its row says what happened."""
    from pathlib import Path

    from logic_agents.web import episode_data, game_page, record_episode
    from logic_agents.world.agents import build_agent, explaining, resolve_agent

    page = Path(path)
    folder = page.with_name(page.stem + "_replays")
    folder.mkdir(parents=True, exist_ok=True)
    instances = {(e.group, e.instance.name): e.instance for e in entries}
    links: dict[tuple, str] = {}
    notes: list[str] = []
    failed = 0
    for k, row in enumerate(rows):
        instance = instances.get((row.group, row.map))
        if instance is None:  # a resumed row whose map is no longer in the study
            continue
        if row.failed:
            failed += 1
            continue
        entry = resolve_agent(spec, row.agent)
        options = explaining(entry, agent_options.get(row.agent, {}))
        world = spec.make_world(instance, **world_options)
        clock = Clock(caps or NO_CAPS)
        try:
            agent = build_agent(entry, options, clock)
        except AgentFailed as e:
            notes.append(f"{row.agent} on {row.map} run {row.run}: no replay ({e})")
            continue
        result, text = record_episode(spec, world, agent, row.seed, instance, row.map,
                                      world_options, clock)
        if (result.outcome.value, result.steps) != (row.outcome, row.steps):
            notes.append(f"{row.agent} on {row.map} run {row.run}: the replay ended "
                         f"{result.outcome.value} in {result.steps} steps, the study's game "
                         f"{row.outcome} in {row.steps}")
        target = folder / replay_name(k, row)
        target.write_text(game_page(episode_data(target, text=text)), encoding="utf-8")
        links[row.key] = f"{folder.name}/{target.name}"
        if progress is not None:
            progress(k + 1, len(rows))
    if failed:
        notes.append(f"{failed} game(s) ended in error or timeout; they have no replay page")
    page.write_text(study_page(title, summary, rows, links, notes), encoding="utf-8")
    return len(links), notes
