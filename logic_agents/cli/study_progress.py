"""How far a study is, said as it plays: the live bar's words and a log's line a minute.

Concepts:
- PROGRESS_LINE_S: how often a study whose output is not a terminal says how far it is.
- LIVE_AGENTS: past this many agents the bar counts the failing ones, not each win rate.
- progress_line(done, total, elapsed, failing): one line for a log.
"""

from __future__ import annotations

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
