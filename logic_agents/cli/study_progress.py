"""How far a study is, said as it plays: the live bar's words and a log's line a minute.

Concepts:
- PROGRESS_LINE_S: how often a study whose output is not a terminal says how far it is.
- LIVE_AGENTS: past this many agents the bar counts the failing ones, not each win rate.
- progress_line(done, total, elapsed, failing): one line for a log.
- StudyBar: compare's bar and log lines, fed a row at a time.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Console

from logic_agents.study.rows import Row

PROGRESS_EVERY_S = 0.1  # how often the live bar of a study is drawn
PROGRESS_LINE_S = 60.0  # how often a study not on a terminal says how far it is
LIVE_AGENTS = 6  # past this many agents, the bar counts the failing ones, not win rates


def progress_line(done: int, total: int, elapsed: float, failing: int) -> str:
    """One line of a study's progress, for a log: games done, the rate, what is left."""
    rate = done / elapsed if elapsed > 0 else 0.0
    left = (total - done) / rate if rate > 0 else 0.0
    return (f"progress: {done:,} of {total:,} games ({100 * done / max(total, 1):.0f}%), "
            f"{rate:.1f} a second, about {_duration(left)} left; {failing} agent(s) failing "
            "so far")


def _duration(seconds: float) -> str:
    """A duration as a person says it: 40 s, 12 min, 1.5 h."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class StudyBar:
    """A study's progress as it plays, said where its person looks.

    On a terminal, a bar (games, time left, and each agent's win rate, or past LIVE_AGENTS
    agents how many fail), drawn ten times a second, not at every row (that cost a study of
    quick games 0.02 ms a game); into a log, progress_line once a PROGRESS_LINE_S. Keeps each
    agent's games and what summarize counts as running totals: a list summed at every row
    made a 20,000-game study quadratic (0.06 ms a row by its end).
    """

    def __init__(self, err: Console, agents: Sequence[str], total: int, scored: bool):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.err, self.total, self.scored = err, total, scored
        self.tally: dict[str, list[float]] = {agent: [0, 0.0] for agent in agents}
        self.failing: set[str] = set()
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                 TimeRemainingColumn(), console=err,
                                 disable=not err.is_terminal)
        self.task = self.progress.add_task("games", total=total)
        self.unshown, self.drawn = 0, 0.0
        self.started = self.said = time.monotonic()

    def __enter__(self) -> StudyBar:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)

    @property
    def done(self) -> int:
        return int(sum(count[0] for count in self.tally.values()))

    def on_row(self, row: Row) -> None:
        count = self.tally[row.agent]
        count[0] += 1
        count[1] += (row.score or 0) if self.scored else row.won  # as summarize counts
        if row.failed:
            self.failing.add(row.agent)
        self.unshown += 1
        now = time.monotonic()
        if now - self.drawn >= PROGRESS_EVERY_S:
            self.show()
        if not self.err.is_terminal and now - self.said >= PROGRESS_LINE_S:
            self.said = now  # a log, not a terminal: a line a minute
            self.err.print(progress_line(self.done, self.total, now - self.started,
                                         len(self.failing)))

    def show(self) -> None:
        if len(self.tally) <= LIVE_AGENTS:
            live = "  ".join(
                f"{a} {won / games:.1f}" if self.scored else f"{a} {100 * won / games:.1f}%"
                for a, (games, won) in self.tally.items() if games)
        else:  # a class: who fails, not 200 win rates
            live = f"{len(self.failing)} of {len(self.tally)} agents failing"
        self.progress.update(self.task, advance=self.unshown, description=live)
        self.unshown, self.drawn = 0, time.monotonic()

    def finish(self) -> None:
        self.show()
        self.progress.update(self.task, completed=self.total)
