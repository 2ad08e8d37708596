"""Consoles for the command line's output, right on a terminal and in a pipe.

Concepts: make_console(stderr) is a rich Console that, when its stream is not a terminal,
neither wraps nor truncates (a table keeps its natural width, a line stays one line), that
raises BrokenPipeError when a reader such as `head` closes the pipe, so the command line
can end quietly (rich itself would exit with code 1), and that prints every text with its
control characters escaped (printable): a map or agent name cannot drive the terminal.
file_name(text) is a file or folder name that keeps a person's own letters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment

from logic_agents.ground.inputs import printable

NOT_IN_A_FILE_NAME = '/\\:*?"<>|'  # what no file name may hold on some system


def file_name(text: str, most: int = 120) -> str:
    """A file or folder name that keeps a person's own letters (`zoë_müller`): path
    separators, characters no system allows, control characters and a leading dot made
    `_`, at most `most` characters ("_" for nothing)."""
    name = "".join(c if c.isprintable() and c not in NOT_IN_A_FILE_NAME else "_" for c in text)
    name = name.strip(" ")
    if name.startswith("."):
        name = "_" + name[1:]
    return name[:most] or "_"


def natural_key(text: str) -> list[tuple[int, int | str]]:
    """A sort key that puts EASY2 before EASY10: digits compare as numbers."""
    return [(0, int(t)) if t.isdigit() else (1, t) for t in re.split(r"(\d+)", text)]

def ranked(names: Iterable[str], value: Callable[[str], float],
           failures: Callable[[str], float] | None = None) -> list[tuple[int, str]]:
    """(rank, name), best (highest `value`) first; among equal values, fewer `failures`
    first (an agent that played and never won above one that never ran); then by name in
    natural order. Agents equal in both share a rank and the next rank counts them (1, 2, 2,
    4): a leaderboard's order."""
    def key(name: str) -> tuple[float, float]:
        return (-value(name), failures(name) if failures is not None else 0.0)

    order = sorted(names, key=lambda n: (key(n), natural_key(n)))
    out: list[tuple[int, str]] = []
    for k, name in enumerate(order):
        tied = bool(out) and key(out[-1][1]) == key(name)
        out.append((out[-1][0] if tied else k + 1, name))
    return out


PIPE_WIDTH = 100_000  # wide enough that no table cell or explanation line is ever cut


class _Console(Console):
    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError

    def _render_buffer(self, buffer: Any) -> str:
        """Text is escaped of control characters before it is styled; rich's own control
        segments (cursor moves of a live display) pass as they are."""
        return super()._render_buffer(
            Segment(printable(text, "\n\t"), style, control) if not control and text else
            Segment(text, style, control) for text, style, control in buffer)


def make_console(stderr: bool = False, **options: Any) -> Console:
    """A Console for stdout (or stderr) that never wraps or cuts data when piped."""
    # emoji=False: a name such as `agent.py:Banana:` stays text, not a picture
    console = _Console(highlight=False, emoji=False, stderr=stderr, **options)
    if not console.is_terminal:
        console = _Console(highlight=False, emoji=False, stderr=stderr, width=PIPE_WIDTH,
                           soft_wrap=True, **options)
    return console


def names_table(title: str, columns: list[str], rows: list[list[str]], names: tuple[str, ...],
                width: int) -> Any:
    """A rich Table that never cuts a name a person must type: the `names` columns keep
    every word whole (a list of names wraps between names), the other columns fold; when the
    console is too narrow even so, the other columns are dropped from the right."""
    from rich.table import Table

    def longest_word(col: int) -> int:
        return max((len(word) for row in rows for word in row[col].split()), default=0)

    shown = list(range(len(columns)))
    while True:
        need = 1 + sum(max(longest_word(i), len(columns[i])) + 3 for i in shown)
        droppable = [i for i in shown if columns[i] not in names]
        if need <= width or not droppable:
            break
        shown.remove(droppable[-1])
    table = Table(title=title)
    for i in shown:
        if columns[i] in names:
            table.add_column(columns[i], min_width=max(longest_word(i), len(columns[i])),
                             overflow="fold")
        else:
            table.add_column(columns[i], overflow="fold")
    for row in rows:
        table.add_row(*[row[i] for i in shown])
    return table
