"""Without the sandbox: the channels a study's games share with you, emptied at its end.

A game without bubblewrap runs as you, in your IPC namespace and beside your /dev/shm. What it
leaves there would reach the next study's games, another student's included. There is no
namespace to throw away, so the study takes stock of these channels before any agent code
runs (before its agents are described) and, at its end, removes what appeared since: that is
what keeps them per study.

What is removed is only what is new since the study began, is yours (your user owns it), and
no live process holds: a /dev/shm or /dev/mqueue entry no process has open or mapped, a
System V shared memory segment with no attachment, a System V message queue or semaphore set
(the kernel does not say who holds those). Another program of yours that makes such an object
while a study runs and lets go of it can lose it: the line a study prints says so.

Concepts:
- Channels: what the channels held, by identity (a path and its inode; a System V object's
  kind, id and key), at one moment.
- take_stock(): the channels now (/dev/shm, /dev/mqueue where it is mounted, /proc/sysvipc).
- empty_since(before): what is new since `before`, yours and held by no process, removed;
  what is new but held, kept. Both in words.
- per_study(active, note): take stock when a study begins, empty what is new at its end
  (however it ends: Ctrl-C, an error), and say what was done in one note each.
- POSIX message queues are listed only where /dev/mqueue is mounted; elsewhere no process
  can list them, and they stay open (the line says so).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from logic_agents.referee.leftovers import ipc_rows, remove_ipc, remove_path

PLACES = ("/dev/shm", "/dev/mqueue")  # file systems a game shares with its user
MAX_ENTRIES = 100_000  # a place holding more is taken stock of this far, no further


@dataclass(frozen=True)
class Channels:
    """What the shared channels held at one moment."""

    entries: frozenset[tuple[str, int]]  # (path, inode) of each top-level entry of a place
    ipc: frozenset[tuple[str, int, str]]  # (kind, id, key) of each System V object


def mqueue_listed() -> bool:
    """Whether POSIX message queues can be listed here (/dev/mqueue is mounted)."""
    return os.path.ismount("/dev/mqueue")


def take_stock() -> Channels:
    """The shared channels' contents now."""
    entries = set()
    for place in PLACES:
        with contextlib.suppress(OSError), os.scandir(place) as found:
            for count, entry in enumerate(found):
                if count >= MAX_ENTRIES:
                    break
                with contextlib.suppress(OSError):
                    entries.add((entry.path, entry.inode()))
    ipc = {(kind, int(row["id"]), row.get("key", "")) for kind, row in ipc_rows()}
    return Channels(frozenset(entries), frozenset(ipc))


def empty_since(before: Channels) -> tuple[list[str], list[str]]:
    """Remove what appeared in the channels since `before`, yours and held by no process.

    Returns (what was removed, what is new but was kept, and why), each in words.
    """
    now = take_stock()
    me = os.geteuid()
    removed: list[str] = []
    kept: list[str] = []
    new_paths = [path for path, inode in sorted(now.entries - before.entries)]
    mine = [p for p in new_paths if _owner(p) == me]
    held = _held_paths(set(mine)) if mine else set()
    for path in mine:
        if path in held:
            kept.append(f"{path} (another process holds it)")
        elif remove_path(path):
            removed.append(path)
    rows = {(kind, int(row["id"])): row for kind, row in ipc_rows()}
    libc = _libc() if now.ipc - before.ipc else None
    for kind, ident, key in sorted(now.ipc - before.ipc):
        row = rows.get((kind, ident))
        if row is None or str(me) not in (row.get("uid"), row.get("cuid")):
            continue
        words = f"System V {_ipc_name(kind)} {ident} (key {key})"
        if kind == "shm" and row.get("nattch", "0") != "0":
            kept.append(f"{words} (a process has it attached)")
        elif libc is not None:
            remove_ipc(libc, kind, ident)
            removed.append(words)
    return removed, kept


@contextlib.contextmanager
def per_study(active: bool, note: Callable[[str], None] | None = None) -> Iterator[None]:
    """Within: a study whose agents run without the sandbox. Its channels are emptied after."""
    if not active:
        yield
        return
    before = take_stock()
    try:
        yield
    finally:
        removed, kept = empty_since(before)
        if note is not None and removed:
            note(f"removed {len(removed)} thing(s) this study's games left in /dev/shm or "
                 f"System V IPC, so that no later study finds them: {_some(removed)}")
        if note is not None and kept:
            note(f"kept {len(kept)} thing(s) made in /dev/shm or System V IPC while the study "
                 f"ran, which a live process holds (yours to remove): {_some(kept)}")


def _some(words: list[str]) -> str:
    return ", ".join(words[:3]) + (f" and {len(words) - 3} more" if len(words) > 3 else "")


def _ipc_name(kind: str) -> str:
    return {"shm": "shared memory", "msg": "message queue"}.get(kind, "semaphore set")


def _owner(path: str) -> int:
    try:
        return os.lstat(path).st_uid
    except OSError:
        return -1


def _held_paths(paths: set[str]) -> set[str]:
    """Those of `paths` a live process has open or mapped (of the processes we may read)."""
    held: set[str] = set()
    pids: list[str] = []
    with contextlib.suppress(OSError):
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    for pid in pids:
        with contextlib.suppress(OSError), os.scandir(f"/proc/{pid}/fd") as fds:
            for fd in fds:
                with contextlib.suppress(OSError):
                    # a queue's descriptor reads "/name", its file /dev/mqueue/name
                    target = os.readlink(fd.path)
                    for path in (target, f"/dev/mqueue{target}"):
                        if path in paths:
                            held.add(path)
        with contextlib.suppress(OSError), open(f"/proc/{pid}/maps", "rb") as maps:
            for line in maps:
                name = line.rstrip(b"\n").partition(b"/")[2]
                if name:
                    path = "/" + name.decode("utf-8", "replace").removesuffix(" (deleted)")
                    if path in paths:
                        held.add(path)
    return held


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
