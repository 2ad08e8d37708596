"""Writing generated instances so that Ctrl-C loses nothing and a re-run finishes the job.

Concepts:
- item k: the k-th instance of a `generate` run. Every generator makes item k from (its
  parameters, seed, k) alone, so a resumed run makes exactly the items an uninterrupted run
  would have made, and can skip the ones already written.
- one file per item (Daggers, Mazes): write_file writes through a temporary file and renames
  it, so a file either holds a whole instance or does not exist.
- one line per item (Sudoku, Undead): LineFile opens the file, checks on --resume that its
  header (the run's parameters) is the same, drops a torn last line, and says how many items
  it already holds; new items are appended and flushed one by one.
- without --resume or --force an existing output is refused.
- streamed: the items as they come, a progress bar on a terminal, and Ctrl-C honoured even
  when Python swallows it (a KeyboardInterrupt raised inside a destructor is only printed);
  an item that takes longer than the run's time cap (`generate --time-cap`, item_time_cap)
  stops the run with a clean error, the items made before it kept.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TextIO, TypeVar

from logic_agents.errors import GenerationError, LogicAgentsError, UsageError
from logic_agents.ground.inputs import decode, path_exists
from logic_agents.ground.output import make_console
from logic_agents.ground.processes import CAN_TIME, handling


def refuse_existing(path: Path, force: bool, resume: bool) -> None:
    """Refuse to overwrite `path` unless `force` (or `resume`, which keeps what it holds)."""
    if path_exists(path) and path.is_file() and not (force or resume):
        raise UsageError(f"{path} exists; pass --resume to keep it and make the rest, --force "
                         "to replace it, or choose another -o")


def loads(load: Callable[[Path], object], path: Path) -> bool:
    """Whether `path` holds an instance `load` reads (a resumed run keeps it)."""
    if not (path_exists(path) and path.is_file()):
        return False
    try:
        load(path)
    except LogicAgentsError:
        return False
    return True


def kept_files(paths: list[Path], load: Callable[[Path], object], force: bool,
               resume: bool) -> set[int]:
    """The numbers of the items a resumed run keeps, for a one-file-per-item output.

    Existing files are refused without --force/--resume; a resumed run keeps the items
    whose files load.
    """
    for path in paths:
        refuse_existing(path, force, resume)
    return {k for k, path in enumerate(paths) if resume and loads(load, path)}


def kept_note(held: int) -> str:
    """The words for items kept from an earlier run ('' when none)."""
    return f"; kept the {held} already there" if held else ""


def write_file(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all (a temporary file, then a rename)."""
    temporary = path.with_name(f".{path.name}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from None


class LineFile:
    """A one-item-per-line output: a header of `#` lines, then one line per item, in order.

    Use as a context manager; `held` is the number of items already in the file.
    """

    def __init__(self, path: Path, header: str, *, resume: bool, force: bool):
        """Open `path` for lines: a new file with `header`, or, with `resume`, the one there."""
        self.path, self.header = path, header
        refuse_existing(path, force, resume)
        self.held = 0
        self._file: TextIO | None = None
        try:
            if resume and path_exists(path) and path.is_file():
                self._reopen()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._file = path.open("w")
                self._file.write(header)
                self._file.flush()
        except OSError as e:
            raise UsageError(f"cannot write {path}: {e.strerror}") from None

    def _reopen(self) -> None:
        raw = self.path.read_bytes()
        complete = raw[: raw.rfind(b"\n") + 1]  # a line cut by Ctrl-C or a kill is dropped
        text = decode(complete, str(self.path))
        if not text.startswith(self.header):
            theirs = [ln for ln in text.splitlines() if ln.startswith("#")][:3]
            raise UsageError(f"{self.path} was made by another run ({' / '.join(theirs) or 'no header'}); "
                             f"this run would write {self.header.splitlines()[0]!r}: give the same "
                             "options to resume it, or --force to replace it")
        body = text[len(self.header):]
        self.held = sum(1 for ln in body.splitlines() if ln.strip() and not ln.startswith("#"))
        with self.path.open("r+b") as f:
            f.truncate(len(complete))
        self._file = self.path.open("a")

    def write(self, line: str) -> None:
        """Write one line, flushed (a run stopped later keeps it)."""
        assert self._file is not None
        try:
            self._file.write(line.rstrip("\n") + "\n")
            self._file.flush()
        except OSError as e:
            raise UsageError(f"cannot write {self.path}: {e.strerror}") from None

    def __enter__(self) -> LineFile:
        """The file itself; it is closed when the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close it."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError as e:
                raise UsageError(f"cannot write {self.path}: {e.strerror}") from None


Item = TypeVar("Item")  # what a generator makes
DEFAULT_ITEM_TIME_CAP_S = 120.0  # the slowest game-sized instances take seconds; 30x30 mazes, hours
_ITEM_CAP: contextvars.ContextVar[float | None] = contextvars.ContextVar("item_time_cap",
                                                                         default=None)


@contextlib.contextmanager
def item_time_cap(seconds: float | None) -> Iterator[None]:
    """While it holds, `streamed` stops a run whose next item takes more than `seconds`."""
    token = _ITEM_CAP.set(seconds)
    try:
        yield
    finally:
        _ITEM_CAP.reset(token)


class _ItemTimeUp(BaseException):
    """Raised by the alarm while an item is being made.

    A BaseException, so no generator's own `except Exception` swallows it.
    """


def _next_within(iterator: Iterator[Item], made: int, what: str) -> Item:
    """next(iterator), stopped by the alarm past the item time cap (GenerationError)."""
    seconds = _ITEM_CAP.get()
    if not seconds or not CAN_TIME or \
            threading.current_thread() is not threading.main_thread():
        return next(iterator)

    def ring(*_: object) -> None:
        raise _ItemTimeUp

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return next(iterator)
    except _ItemTimeUp:
        raise GenerationError(
            f"making one of the {what} took more than the --time-cap of {seconds:g} s; "
            f"the {made} made before it are written; ask for a smaller size, or raise "
            "--time-cap") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def streamed(items: Iterable[Item], count: int, what: str) -> Iterator[Item]:
    """Yield generated items as they come, with a progress bar on a terminal (stderr).

    Ctrl-C raises KeyboardInterrupt at once; should that land in a destructor, where Python
    only prints it, the run still stops after the item being made is handed over.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    stop = threading.Event()

    def interrupt(*_: object) -> None:
        stop.set()
        raise KeyboardInterrupt

    err = make_console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err, disable=not err.is_terminal)
    with handling((signal.SIGINT,), interrupt), progress:
        task = progress.add_task(what, total=count)
        iterator, made = iter(items), 0
        while True:
            try:
                item = _next_within(iterator, made, what)
            except StopIteration:
                break
            yield item
            made += 1
            progress.advance(task)
            if stop.is_set():
                raise KeyboardInterrupt
