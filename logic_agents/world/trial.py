"""A plug-in's first import, tried in a process of its own before this one runs it.

A plug-in game is trusted code, but its import must not take a command down. The guard
(world.guard) turns what Python can catch into one PluginFault: an exception, `sys.exit`, a
hang in Python code. Three faults it cannot catch in the process that imports:

- `os._exit(n)` (or a signal the plug-in sends itself) ends the process at once, so `games`
  and `games --check` would end silently with exit 0 and the check would "pass";
- a non-daemon thread started at import keeps the interpreter from exiting after the
  command is done (SIGTERM does not end it either);
- a hang in C code (a lock, a blocking call) never returns to Python, where the alarm rings.

Concepts:
- trial_import(value, seconds): import the entry point `module:attribute` in a child first:
  a fork when this process has one thread (cheap: the framework is already imported), a
  fresh interpreter otherwise (a fork of a threaded process may inherit a lock another thread
  held). Returns None when the child got through (whether the import raised or not: the
  guard in this process says how it raised), or one sentence saying what the import does to
  a process, in the guard's words. The child sits in a process group of its own, which is
  killed when the trial ends, so no process the plug-in started outlives it.
- THREAD_GRACE_S: how long a thread started at import may take to end by itself.
- The cache (cache_file): a clean trial is remembered with the path, mtime and size of
  every file the import loaded, so the next command skips it while none of them changed
  (each trial costs a fork and a second import: about 30 ms a plug-in). A fault is never
  remembered, and `games --check` always tries afresh.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from logic_agents.ground.processes import leave_signals_to
from logic_agents.world.installed import Installed

ENTRY_POINT_GROUP = "logic_agents.games"  # the group every game registers in (world.registry)
THREAD_GRACE_S = 0.5
MAX_REMEMBERED = 200  # clean trials kept in the cache file
_SPAWNED = ("import json, sys\nsys.path[:] = json.loads(sys.argv[3])\n"
            "from logic_agents.world.trial import probe\n"
            "probe(sys.argv[1], int(sys.argv[2]), int(sys.argv[4]))\n")


def probe(value: str, answer: int, parent: int) -> None:
    """The child's side: import `value`, then write what it left behind to fd `answer`.

    What the plug-in prints goes nowhere (the import in the parent prints it once); the
    child always leaves by os._exit, so no thread the plug-in started can hold it.
    """
    try:
        leave_signals_to(parent)  # and die with it: a hang must not outlive the command
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        before = set(threading.enumerate())
        known = set(sys.modules)
        try:  # resolved as the registry resolves it: an entry point's own load
            Installed("trial", value, ENTRY_POINT_GROUP, "?").load()
            raised = False
        except BaseException:  # the guard in the parent says how (it raises again there)
            raised = True
        until = time.monotonic() + THREAD_GRACE_S
        stuck = []
        for thread in threading.enumerate():
            if thread not in before and not thread.daemon:
                thread.join(max(0.0, until - time.monotonic()))
                if thread.is_alive():
                    stuck.append(thread.name)
        loaded = sorted({str(getattr(sys.modules[name], "__file__", None) or "")
                         for name in set(sys.modules) - known} - {""})
        os.write(answer, json.dumps({"raised": raised, "threads": stuck,
                                     "files": loaded}).encode() + b"\n")
    finally:
        os._exit(0)


def trial_import(value: str, seconds: float | None, *, fresh: bool = False) -> str | None:
    """Import the entry point `value` in a child first; see the module docstring.

    Returns None when the import leaves the process as it found it, otherwise the words
    for why the plug-in is left out. A clean trial is remembered with the files the import
    loaded; while none of them changed, no other process tries it again, unless
    `fresh` (what `games --check` asks).
    """
    if not fresh and _still_passes(value):
        return None
    said, files = _trial(value, seconds)
    if said is None and files is not None:
        _remember(value, files)
    return said


def cache_file() -> Path | None:
    """Where clean trials are remembered.

    $LOGIC_AGENTS_CACHE, else the user's cache folder (XDG_CACHE_HOME or ~/.cache) under
    logic-agents; None where there is no home.
    """
    folder = os.environ.get("LOGIC_AGENTS_CACHE")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or (
            str(Path.home() / ".cache") if os.environ.get("HOME") else "")
        if not base:
            return None
        folder = str(Path(base) / "logic-agents")
    return Path(folder) / "plugin-trials.json"


def _key(value: str) -> str:
    return f"{sys.executable}|{value}"


Stamp = list[object]  # [path, mtime_ns, size]: JSON keeps lists, so a stamp is one


def _stamp(path: str) -> Stamp | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return [path, found.st_mtime_ns, found.st_size]


def _read_cache() -> dict[str, list[Stamp]]:
    where = cache_file()
    try:
        data = json.loads(where.read_text(encoding="utf-8")) if where is not None else {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _still_passes(value: str) -> bool:
    """Whether a clean trial of `value` is remembered and none of its files changed."""
    stamps = _read_cache().get(_key(value))
    if not isinstance(stamps, list) or not stamps:
        return False
    return all(isinstance(s, list) and len(s) == 3 and _stamp(str(s[0])) == s for s in stamps)


def _remember(value: str, files: list[str]) -> None:
    """Remember a clean trial with its files' stamps.

    A file that cannot be stamped, or a cache that cannot be written, leaves it
    unremembered: the next process tries again.
    """
    where = cache_file()
    stamps = [stamp for stamp in map(_stamp, files) if stamp is not None]
    if where is None or not stamps or len(stamps) < len(files):
        return
    data = _read_cache()
    data[_key(value)] = stamps
    for old in list(data)[:-MAX_REMEMBERED]:  # the oldest first out
        del data[old]
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        temporary = where.with_name(f"{where.name}.{os.getpid()}")
        temporary.write_text(json.dumps(data), encoding="utf-8")
        os.replace(temporary, where)  # whole, or not at all: readers never see half a file
    except OSError:
        return


def _trial(value: str, seconds: float | None) -> tuple[str | None, list[str] | None]:
    """The trial itself: (the words, or None when clean; the files the import loaded)."""
    sys.stdout.flush()
    sys.stderr.flush()
    read, write = os.pipe()
    try:
        with _child(value, write) as pid:
            os.close(write)
            write = -1
            answer, status, timed_out = _outcome(pid, read, seconds)
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    what = f"importing {value}"
    if timed_out:
        return f"{what} ran past its {seconds:g} s limit; its trial process was killed", None
    if not answer:
        if status is not None and os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            return (f"{what} killed its own process with {signal.Signals(number).name} "
                    "(every command that lists the games would die with it)"), None
        code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else "?"
        return (f"{what} ended its process at once with exit status {code} (os._exit or the "
                "like: every command that lists the games would end there, silently)"), None
    found = json.loads(answer)
    threads = found["threads"]
    if threads:
        return (f"{what} starts a thread that does not end ({', '.join(map(repr, threads))}, "
                "not a daemon): it would keep every command that lists the games from "
                "exiting (start it when the game needs it, or make it a daemon)"), None
    return None, None if found["raised"] else list(found["files"])


@contextlib.contextmanager
def _child(value: str, write: int) -> Iterator[int]:
    """The trial's child, its pid; its process group is killed when the block ends."""
    pid = -1
    spawned: subprocess.Popen[bytes] | None = None
    try:
        parent = os.getpid()
        if hasattr(os, "fork") and threading.active_count() == 1:
            pid = os.fork()
            if pid == 0:
                try:
                    os.setpgid(0, 0)
                    probe(value, write, parent)
                finally:
                    os._exit(0)
        else:
            spawned = subprocess.Popen(
                [sys.executable, "-c", _SPAWNED, value, str(write), json.dumps(sys.path),
                 str(parent)],
                pass_fds=(write,), stdin=subprocess.DEVNULL, start_new_session=True)
            pid = spawned.pid
        yield pid
    finally:
        if pid > 0:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            if spawned is not None:
                spawned.returncode = 0  # reaped by _reap; Popen must not wait for it again


def _outcome(pid: int, read: int, seconds: float | None) -> tuple[bytes, int | None, bool]:
    """The child's answer (one line), its wait status and whether the time ran out first.

    It does not wait for the pipe's end: a process the plug-in started may hold the pipe open
    after the child is gone.
    """
    until = None if seconds is None else time.monotonic() + seconds
    answer = b""
    status: int | None = None
    while b"\n" not in answer:
        if status is not None:  # the child is gone: what it wrote is all there is
            if not select.select([read], [], [], 0)[0]:
                break
        else:
            left = 0.05 if until is None else min(0.05, until - time.monotonic())
            if left <= 0:
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
                return answer, None, True
            if not select.select([read], [], [], left)[0]:
                with contextlib.suppress(ChildProcessError):
                    done, code = os.waitpid(pid, os.WNOHANG)
                    status = code if done else None
                continue
        chunk = os.read(read, 65536)
        if not chunk:
            break
        answer += chunk
    if status is None:
        with contextlib.suppress(ChildProcessError):
            status = os.waitpid(pid, 0)[1]
    return answer, status, False
