"""The summary of a `compare` study as a person reads it: a table per the game's objective
(win rates, or scores), the agents' mean counters, and the paired test of every pair. The
command line prints it, and `print(study)` gives the same text.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape

from logic_agents.study.summary import Summary

PAIR_LINES = 40  # paired tests printed on a terminal (a class of 200 has 19,900)


def print_summary(console: Console, summary: Summary, maps: int, runs: int, seed: int | str
                  ) -> None:
    """The study's table, its agents' mean counters and its paired tests, on `console`.

    `seed` is the study's, or "secret" for one drawn at random (never printed).
    """
    from rich.table import Table  # rich's tables: loaded when one is drawn (start-up time)

    scored = summary.scored
    table = Table(title=f"{maps} maps x {runs} runs, seed {seed} (paired)")
    columns: tuple[str, ...] = (
        ("agent", "group", "games", "mean score [95% CI]", "median", "max", "steps",
         "time/game s", "cpu/game s") if scored else
        ("agent", "group", "games", "wins", "win rate % [95% CI]", "steps", "guesses",
         "time/game s", "cpu/game s"))
    # games the agent failed (error / timeout) are counted apart from the game's losses
    failures = any(st.errors or st.timeouts for st in summary.agents.values())
    if failures:
        columns = (*columns, "errors", "timeouts")
    for col in columns:
        table.add_column(col, justify="left" if col in ("agent", "group") else "right")
    for name, stats in summary.agents.items():
        groups = stats.groups or {}
        rows_to_show = [("all", stats), *(groups.items() if len(groups) > 1 else [])]
        for group, st in rows_to_show:
            first = escape(name) if group == "all" else ""
            if st.score is not None:
                sc = st.score
                cells = [f"{sc.mean:.1f} [{sc.ci95[0]:.1f}, {sc.ci95[1]:.1f}]",
                         f"{sc.median:g}", f"{sc.max:g}", f"{st.mean_steps:.1f}",
                         f"{st.mean_time_s:.4f}", f"{st.mean_cpu_s:.4f}"]
            else:
                lo, hi = st.ci95
                cells = [str(st.wins),
                         f"{100 * st.win_rate:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]",
                         f"{st.mean_steps:.1f}", f"{st.mean_guesses:.2f}",
                         f"{st.mean_time_s:.4f}", f"{st.mean_cpu_s:.4f}"]
            if failures:
                cells += [str(st.errors), str(st.timeouts)]
            table.add_row(first, escape(group), str(st.games), *cells)
    console.print(table)
    for name, stats in summary.agents.items():
        counters = ", ".join(f"{k} {v:.1f}" for k, v in stats.mean_stats.items())
        if counters:
            console.print(f"{escape(name)} means per game: {escape(counters)}")
    if summary.chosen:
        n = len(summary.agents)
        console.print(f"{n:,} agents: each is tested against the best, "
                      f"{escape(summary.baseline[0])} ({n * (n - 1) // 2:,} pairs would be "
                      "tested otherwise; --baseline A,B chooses the agents to test against)")
    tied = [p for p in summary.pairs if p.only_a_won == p.only_b_won == 0]
    if tied:
        same = ("scored the same in every paired game" if scored else "never split a game "
                "(every paired game was won by both or lost by both)")
        named = ", ".join(f"{p.a}/{p.b}" for p in tied[:PAIR_LINES])
        console.print(f"{len(tied)} pair(s) of agents {same}: " + escape(named)
                      + (f", and {len(tied) - PAIR_LINES} more" if len(tied) > PAIR_LINES
                         else ""))
    # (by its counts, not `p not in tied`: a list test per pair made 400 agents' summary
    # print for 7 minutes)
    split = [p for p in summary.pairs if p.only_a_won or p.only_b_won]
    # a class: the significant pairs first, and no more than a screen of them
    shown = sorted(split, key=lambda p: not p.significant)[:PAIR_LINES] \
        if len(split) > PAIR_LINES else split
    if len(split) > PAIR_LINES:
        console.print(f"{len(split)} paired tests; the first {PAIR_LINES} shown, significant "
                      "ones first (--json and --html hold them all; --baseline A,B tests "
                      "only the pairs with a baseline agent)")
    for pair in shown:
        verdict = f"{pair.better} is better" if pair.significant else "no significant difference"
        if scored:
            line = (f"{pair.a} vs {pair.b}: {pair.paired_games} paired games; "
                    f"{pair.a} scored more in {pair.only_a_won}, {pair.b} in "
                    f"{pair.only_b_won}; exact sign test p = {pair.p_value:.3g}: {verdict}")
        else:
            line = (f"{pair.a} vs {pair.b}: {pair.paired_games} paired games; only "
                    f"{pair.a} won {pair.only_a_won}, only {pair.b} won "
                    f"{pair.only_b_won}; exact McNemar p = {pair.p_value:.3g}: {verdict}")
        console.print(escape(line))


def summary_text(summary: Summary, maps: int, runs: int, seed: int | str, width: int = 120
                 ) -> str:
    """What print_summary prints, as plain text (`print(study)`)."""
    out = io.StringIO()
    print_summary(Console(file=out, width=width, no_color=True, highlight=False), summary,
                  maps, runs, seed)
    return out.getvalue()
