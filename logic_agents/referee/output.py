"""What an isolated agent prints: bounded data, escaped and attributed, never raw bytes.

Concepts:
- A player's standard output and error (an agent's prints, its tracebacks) come to the referee
  on one pipe. `relay` reads it in chunks of CHUNK bytes, so a line of any length costs the
  referee at most LINE_LIMIT characters of memory; what a line holds past that is dropped.
- Each line reaches the terminal as `[agent] text`, its control characters escaped as names are
  (ground.inputs.printable): an agent cannot set the window's title, clear the screen or write
  the clipboard (OSC 52).
- OutputBudget: how much of an agent's output is shown, per agent (AGENT_LIMIT) and per study
  (STUDY_LIMIT), counted in shared memory across the workers of a study; past either, one
  line says so and the rest is read and dropped (the agent's time pays for it).
- `--agent-output DIR` keeps every agent's output in DIR/<agent>.txt (escaped, up to
  FILE_LIMIT per agent), shown or not.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from pathlib import Path
from typing import IO, Any, Protocol, TextIO

from logic_agents.ground.inputs import printable
from logic_agents.ground.output import file_name

CHUNK = 1 << 16
LINE_LIMIT = 2000  # characters of one line shown; the rest of the line is dropped
AGENT_LIMIT = 64 << 10  # characters of an agent's output shown on the terminal, per study
STUDY_LIMIT = 1 << 20  # characters of all agents' output shown, per study
FILE_LIMIT = 16 << 20  # bytes kept of an agent's output in --agent-output DIR


class Count(Protocol):
    """A count (a shared ctypes value, or this process's own)."""

    value: int


class _Count:
    """A count of this process's alone (where there is no shared memory)."""

    value = 0


def _counter() -> Count:
    """A count shared with the processes forked from here (a study's workers)."""
    try:
        # multiprocessing's shared memory (and ctypes under it) loads when a study counts:
        # a player process never holds it
        from multiprocessing.sharedctypes import RawValue

        shared: Count = RawValue("q", 0)
        return shared
    except (ImportError, OSError):
        return _Count()


class OutputBudget:
    """How much one agent's output the terminal may still show, across a study's workers."""

    def __init__(self, agent: str, study: Count | None = None, folder: str | None = None):
        """A budget for `agent`, the name shown before each line.

        `study`: a counter shared by every agent of the study (None: its own); `folder`:
        where the whole output is kept.
        """
        self.agent = printable(agent)[:80]
        self.shown = _counter()
        self.study = study if study is not None else _counter()
        self.folder = folder
        self.lock = threading.Lock()

    def __getstate__(self) -> dict[str, object]:
        """Pickled (to a Ray worker) with counters of its own: shared memory stays here."""
        return {"agent": self.agent, "folder": self.folder}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Fresh counters where it is unpickled."""
        self.__init__(state["agent"], None, state["folder"])  # type: ignore[misc]

    def file(self) -> Path | None:
        """DIR/<agent>.txt, where the agent's output is kept (None: not kept)."""
        if self.folder is None:
            return None
        return Path(self.folder) / f"{file_name(self.agent, 80)}.txt"

    def show(self, line: str, out: TextIO) -> None:
        """Write one line (already escaped) to `out`, if the budget allows."""
        with self.lock:
            agent_used, study_used = self.shown.value, self.study.value
            if agent_used < 0 or study_used < 0:  # said already that the rest is dropped
                return
            size = len(line) + len(self.agent) + 4
            if agent_used + size > AGENT_LIMIT or study_used + size > STUDY_LIMIT:
                whose = ("its" if agent_used + size > AGENT_LIMIT else "the study's")
                limit = AGENT_LIMIT if whose == "its" else STUDY_LIMIT
                text = (f"[{self.agent}] ... (its output past {whose} "
                        f"{f'{limit >> 10} KiB' if limit >= 1024 else f'{limit} characters'} "
                        "is not shown" + ("; --agent-output DIR keeps it" if self.folder is None
                                   else f"; it is kept in {self.file()}") + ")\n")
                self.shown.value = -1
                _write(out, text)
                return
            self.shown.value = agent_used + size
            self.study.value = study_used + size
        _write(out, f"[{self.agent}] {line}\n")


def _write(out: TextIO, text: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # a closed stream must not end the relay
        out.write(text)
        out.flush()


def relay(stream: IO[bytes], budget: OutputBudget, out: TextIO | None = None) -> None:
    """Read a player's output from `stream` until its end, in chunks; show and keep its lines.

    The stream is closed at its end (the thread that reads it owns it).
    """
    target = out if out is not None else sys.stderr
    fd = stream.fileno()
    kept = _Kept(budget.file())
    pending = bytearray()
    cut = False  # the line in progress went past LINE_LIMIT: the rest of it is dropped
    while True:
        try:
            chunk = os.read(fd, CHUNK)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
        except OSError:
            break
        if not chunk:
            break
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if not cut:
                pending += piece[:max(0, LINE_LIMIT * 4 - len(pending))]
                if len(pending) >= LINE_LIMIT * 4 and end < 0:
                    cut = True
            if end < 0:
                break
            _line(pending, cut, budget, target, kept)
            pending.clear()
            cut = False
            start = end + 1
    if pending or cut:
        _line(pending, cut, budget, target, kept)
    kept.close()
    with contextlib.suppress(OSError):
        stream.close()


def _line(raw: bytearray, cut: bool, budget: OutputBudget, out: TextIO, kept: _Kept) -> None:
    text = bytes(raw).decode("utf-8", "replace")
    if len(text) > LINE_LIMIT or cut:
        text = text[:LINE_LIMIT] + " ... (the rest of this line is not shown)"
    line = printable(text, "\t")
    kept.write(line)
    budget.show(line, out)


class _Kept:
    """An agent's output file (--agent-output), appended to up to FILE_LIMIT bytes.

    It is made at its first line: an agent that printed nothing has no file.
    """

    def __init__(self, path: Path | None):
        self.path = path
        self.file: TextIO | None = None

    def write(self, line: str) -> None:
        if self.file is None and self.path is not None:
            with contextlib.suppress(OSError):
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.file = self.path.open("a", encoding="utf-8", errors="replace")
            self.path = None  # opened, or not to be: tried once
        if self.file is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if self.file.tell() + len(line) >= FILE_LIMIT:
                self.file.write("... (the rest of the output is not kept)\n")
                self.close()
                return
            self.file.write(line + "\n")

    def close(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None
