"""A study's progress, shown where someone is watching and nowhere else.

Concepts: where_watched says where a person watches this process: a Jupyter kernel
("notebook"), a terminal on stderr ("terminal"), or nobody (None: a script piped to a file,
CI, a worker); StudyProgress counts finished games and shows them there: in a notebook one
HTML line updated in place (a display handle: no widget library needed), on a terminal
rich's progress bar on stderr; with nobody watching it draws nothing.
"""

from __future__ import annotations

import html
import sys
import time
from types import TracebackType
from typing import Any

from rich.console import Console


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (IPython is imported only if already loaded)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()  # type: ignore[attr-defined, unused-ignore]
    return shell is not None and hasattr(shell, "kernel")


def where_watched() -> str | None:
    if in_notebook():
        return "notebook"
    stream = sys.stderr
    if stream is not None and stream.isatty():
        return "terminal"
    return None


class StudyProgress:
    """`with StudyProgress(total) as progress: ... progress.advance(row)`; `show` is True
    (show it where watched, the terminal if nowhere better), False (never) or None (only
    where a person watches)."""

    def __init__(self, total: int, show: bool | None = None, label: str = "games",
                 scored: bool = False) -> None:
        where = where_watched()
        self.where = (where or "terminal") if show else (where if show is None else None)
        self.total, self.done, self.label, self.scored = total, 0, label, scored
        self.wins: dict[str, list[float]] = {}
        self._handle: Any = None
        self._bar: Any = None
        self._task: Any = None
        self._shown_at = 0.0

    def __enter__(self) -> StudyProgress:
        if self.where == "notebook":
            from IPython.display import display  # the notebook's own IPython

            self._handle = display(self._rich_html(), display_id=True)  # type: ignore[no-untyped-call, unused-ignore]
        elif self.where == "terminal":
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=False)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def advance(self, row: Any = None) -> None:
        self.done += 1
        if row is not None:
            value = (row.score or 0) if self.scored else row.won
            self.wins.setdefault(row.agent, []).append(float(value))
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, description=self._words())
        elif self._handle is not None:
            now = time.monotonic()
            if now - self._shown_at > 0.2 or self.done == self.total:  # a kernel message each
                self._shown_at = now                                    # game would be noise
                self._handle.update(self._rich_html())

    def _rich_html(self) -> object:
        """The bar as IPython HTML (IPython is untyped: its calls are ignored here only)."""
        from IPython.display import HTML  # the notebook's own IPython, loaded only in a kernel

        return HTML(self._html())  # type: ignore[no-untyped-call, unused-ignore]

    def _words(self) -> str:
        rates = "  ".join(f"{agent} {sum(v) / len(v):.1f}" if self.scored
                          else f"{agent} {100 * sum(v) / len(v):.1f}%"
                          for agent, v in self.wins.items())
        return rates or self.label

    def _html(self) -> str:
        return (f'<div style="font: 13px system-ui, sans-serif"><progress value="{self.done}" '
                f'max="{max(self.total, 1)}" style="width: 18em"></progress> '
                f"{self.done}/{self.total} {html.escape(self.label)} "
                f'<span style="color: #555">{html.escape(self._words() if self.wins else "")}'
                "</span></div>")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._handle is not None:
            self._handle.update(self._rich_html())
        if self._bar is not None:
            self._bar.__exit__(kind, error, trace)
