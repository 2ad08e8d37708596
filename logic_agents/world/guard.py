"""Plug-in code under a guard: one broken game never takes the program down.

Concepts:
- plugin_code(what, seconds): a `with` block around code a plug-in game wrote (its import,
  its `sniff`, its world during `games --check`). Whatever that code raises, Exception or
  not (`sys.exit(5)`, a KeyboardInterrupt it raises itself, GeneratorExit), comes out as one
  PluginFault naming `what`; past `seconds` (an alarm, where the platform has one and this is
  the main thread) it is stopped the same way. What it prints goes to stderr, so a plug-in
  that prints at import cannot spoil `--json`.
- A real Ctrl-C still interrupts: the guard's own SIGINT handler marks it before passing it
  on, so only an interrupt the plug-in raised by itself becomes a fault.
- limit_of(origin, seconds): built-in games are not timed (a Sudoku file of 50,000 puzzles
  may take longer to sniff than any plug-in should).
"""

from __future__ import annotations

import contextlib
import io
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TextIO

from logic_agents.errors import PluginFault
from logic_agents.ground.processes import CAN_TIME

# what signal.getsignal gives: a handler, SIG_DFL / SIG_IGN, or None (set outside Python)
_Handler = Callable[[int, FrameType | None], object] | int | None

IMPORT_LIMIT_S = 10.0  # a plug-in's import: a heavy one (torch) may take seconds, not more
SNIFF_LIMIT_S = 2.0  # one sniff of one file
CHECK_LIMIT_S = 60.0  # one check of `games --check` (the example game played twice per seed)


class _TimeUp(BaseException):
    """Raised by the guard's alarm.

    A BaseException, so the plug-in's `except Exception` cannot swallow it.
    """


def limit_of(origin: str, seconds: float) -> float | None:
    """The time limit for a game's code: none for the built-in games."""
    return None if origin == "builtin" else seconds


def _one_line(error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"called sys.exit({error.code!r})"
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}"[:300] if text else type(error).__name__


class Printed(io.TextIOBase):
    """What a plug-in prints, passed on to stderr and counted."""

    def __init__(self, target: TextIO):
        """Send what is printed to `target` (stderr)."""
        super().__init__()
        self.target, self.count = target, 0

    def write(self, text: str) -> int:
        """Write to the target; returns what was written."""
        self.count += len(text)
        return int(self.target.write(text))

    def flush(self) -> None:
        """Flush the target."""
        self.target.flush()

    def writable(self) -> bool:
        """A stream that takes writes."""
        return True


@contextlib.contextmanager
def plugin_code(what: str, seconds: float | None = None,
                passes: tuple[type[BaseException], ...] = ()) -> Iterator[Printed]:
    """Run the block as a plug-in's code; see the module docstring.

    `passes`: exceptions that leave the block as they are (a check's own AssertionError); the
    block gets the Printed stream its prints went to.
    """
    in_main = threading.current_thread() is threading.main_thread()
    real_interrupt = [False]
    previous_int: _Handler = None
    previous_alarm: _Handler = None
    can_time = bool(seconds) and in_main and CAN_TIME
    outer = signal.getitimer(signal.ITIMER_REAL)[0] if can_time else 0.0
    # inside another's alarm (a check's, around a sniff's): ours only if it rings first,
    # and theirs is set again, less the time spent here, on the way out
    timed = can_time and (not outer or float(seconds or 0) < outer)
    started = time.monotonic()

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        real_interrupt[0] = True
        if callable(previous_int):
            previous_int(signum, frame)
        raise KeyboardInterrupt

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise _TimeUp

    if in_main:
        previous_int = signal.getsignal(signal.SIGINT)
        if previous_int not in (signal.SIG_IGN, None):
            signal.signal(signal.SIGINT, on_interrupt)
        if timed:
            previous_alarm = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, float(seconds or 0))
    printed = Printed(sys.stderr)
    leave: tuple[type[BaseException], ...] = (PluginFault, *passes)
    try:
        with contextlib.redirect_stdout(printed):
            yield printed
    except _TimeUp:
        raise PluginFault(f"{what} ran past its {seconds:g} s limit") from None
    except leave:
        raise
    except KeyboardInterrupt as e:
        if real_interrupt[0]:
            raise
        raise PluginFault(f"{what} raised KeyboardInterrupt by itself{_detail(e)}") from None
    except BaseException as e:  # SystemExit, GeneratorExit and every Exception alike
        how = _one_line(e) if isinstance(e, SystemExit) else f"raised {_one_line(e)}"
        raise PluginFault(f"{what} {how}") from None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
            if outer:
                signal.setitimer(signal.ITIMER_REAL,
                                 max(1e-3, outer - (time.monotonic() - started)))
        if in_main and previous_int not in (signal.SIG_IGN, None):
            signal.signal(signal.SIGINT, previous_int)


def _detail(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f": {text[:200]}" if text else ""
