"""How this package starts and stops processes, in one place that every layer may use.

Concepts:
- fork_context(): a fork context where the platform has one (children need nothing pickled).
- parent_death_signal(parent) / die_with_parent(parent): a child exits when the process that
  started it dies, even by SIGKILL (Linux's parent-death signal; die_with_parent adds a
  watchdog thread, for everywhere else).
- leave_signals_to(parent): what every forked child does first: Ctrl-C is the parent's to
  handle, the parent's SIGTERM kills it at once, and it dies with its parent; what it
  inherited is frozen out of its garbage collection. The world's game children and the
  logic's racing solvers share it.
- stop_process(proc): terminate, then kill, then join.
- handling(signals, handler): a block with its own handler for some signals (the previous
  ones come back after); only the main thread may set one, so elsewhere it sets none.
- CAN_TIME: whether this platform has interval timers (signal.setitimer; not on Windows),
  which every alarm of the package (the Clock, the plug-in guard, a generator's cap) needs.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

CAN_TIME = hasattr(signal, "setitimer")


@contextlib.contextmanager
def handling(signals: Iterable[int], handler: Callable[[int, Any], None]) -> Iterator[bool]:
    """`handler` for `signals` while the block runs; yields whether it was set (only the main
    thread may set a handler). The previous handlers are back when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield True
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before)

def fork_context() -> Any:
    """A fork context where the platform has one (children need nothing pickled to start)."""
    import multiprocessing  # where a child is started, not in every command

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def parent_death_signal(parent: int, libc: Any = None) -> None:
    """Linux's parent-death signal: SIGKILL this process when `parent` dies, and exit at once
    if it died before the signal was armed. `libc`: the C library loaded beforehand (a
    player's game child loads nothing after its fork)."""
    with contextlib.suppress(Exception):
        if libc is None:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def die_with_parent(parent: int) -> None:
    """Make a child exit when the process that started it dies, even by SIGKILL: Linux's
    parent-death signal where there is one, and a watchdog thread everywhere."""
    parent_death_signal(parent)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def leave_signals_to(parent: int) -> None:
    """What every forked child does first: Ctrl-C is the parent's to handle, the parent's
    SIGTERM kills it at once (a Python handler inherited from the console script would wait
    for a solver's C code to return first), and it dies with the parent.

    What the child inherited is never its garbage collector's to visit (gc.freeze): a
    collection writes into each object it scans, so every visit copied a page it shared with
    the parent. A compare worker's private memory fell from 30.8 to 24.3 MiB over 5,000
    beginner games; its CPU did not move beyond the noise (docs/BENCHMARKS.md).
    """
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


def stop_process(proc: Any) -> None:
    if proc.is_alive():
        proc.terminate()
        proc.join(1.0)
    if proc.is_alive():
        proc.kill()
    proc.join()
