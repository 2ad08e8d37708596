"""What a game can write in the sandbox, put back after it, and the proof that it is gone.

Run in a player server, in bubblewrap, between games. Nothing here is a list of folders: the
writable places are read from the kernel each time.

Concepts:
- Mounts: the sandbox's mounts (/proc/self/mountinfo) that a game can write (mounted
  read-write). A file system that keeps data (tmpfs, mqueue) is put back to what it held
  before the first game; one that keeps none (proc, devpts, a device node such as /dev/null)
  needs nothing; any other (a folder of the host bound read-write) is one that cannot be put
  back, and the server refuses to serve (see unsweepable).
- Snapshot: the paths each writable mount held before the first game (its own files only:
  what another mount shows under it is that mount's).
- restore(snapshot): every path a game added, removed; every System V IPC object (shared
  memory, message queues, semaphores, /proc/sysvipc) removed. The sandbox has an IPC
  namespace of its own, so each object is the last game's.
- leftovers(snapshot): what is still there that was not before, in words ([] when the
  sandbox is as the first game found it): the proof the server asks for before it forks the
  next game, and refuses to go on without.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import stat
from dataclasses import dataclass

KEEPS_DATA = ("tmpfs", "mqueue", "ramfs")
KEEPS_NOTHING = ("proc", "devpts", "sysfs", "cgroup", "cgroup2")
IPC_KINDS = {"shm": 0, "msg": 1, "sem": 2}  # /proc/sysvipc/NAME -> which *ctl removes it
IPC_RMID = 0
MAX_PATHS = 100_000  # a game that left more than this in one mount is refused, not walked


@dataclass(frozen=True)
class Mount:
    """A mount of the sandbox a game can write."""

    point: str
    kind: str  # its file system type

    @property
    def keeps_data(self) -> bool:
        """Whether what a game writes there stays (a tmpfs, an mqueue file system)."""
        return self.kind in KEEPS_DATA


def writable_mounts(mountinfo: str = "/proc/self/mountinfo") -> list[Mount]:
    """The mounts mounted read-write, from the kernel's own list."""
    found = []
    with open(mountinfo, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split()
            if " - " not in line or len(fields) < 7:
                continue
            options = fields[5].split(",")
            kind = line.split(" - ", 1)[1].split()[0]
            if "rw" in options:
                found.append(Mount(_unescape(fields[4]), kind))
    return found


def _unescape(text: str) -> str:
    """A mountinfo path: a space, a tab, a newline and a backslash are octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        text = text.replace(code, char)
    return text


def unsweepable(mounts: list[Mount]) -> list[str]:
    """The writable mounts that keep data this module cannot put back, in words.

    A device node bound on its own (bubblewrap's /dev/null, /dev/urandom, ...) keeps
    nothing; so do proc and devpts.
    """
    return [f"{m.point} ({m.kind})" for m in mounts
            if not m.keeps_data and m.kind not in KEEPS_NOTHING and not _a_device(m.point)]


def _a_device(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


Snapshot = dict[str, frozenset[str]]


def snapshot(mounts: list[Mount]) -> Snapshot:
    """What each writable mount that keeps data holds now."""
    return {m.point: frozenset(_held(m.point)) for m in mounts if m.keeps_data}


def _held(point: str) -> set[str]:
    """Every path on the mount at `point`, none on another mount below it (bounded)."""
    found: set[str] = set()
    try:
        device = os.lstat(point).st_dev
    except OSError:
        return found
    for folder, folders, files in os.walk(point):
        kept = []
        for name in folders + files:
            path = os.path.join(folder, name)
            with contextlib.suppress(OSError):
                if os.lstat(path).st_dev == device:
                    found.add(path)
                    if name in folders:
                        kept.append(name)
            if len(found) > MAX_PATHS:
                return found
        folders[:] = kept
    return found


def restore(before: Snapshot, libc: ctypes.CDLL | None) -> None:
    """Remove what a game added to each writable mount, and every System V IPC object."""
    for point, held in before.items():
        added = _held(point) - held
        for path in sorted(added):  # a folder the game locked (chmod 500) opened to its owner:
            with contextlib.suppress(OSError):  # no capability overrides it in the sandbox
                if os.path.isdir(path) and not os.path.islink(path):
                    os.chmod(path, 0o700)
        for path in sorted(added, reverse=True):  # what is inside first
            remove_path(path)  # what stays is said by leftovers(), the proof
    if libc is not None:
        for kind, ident in ipc_objects():
            remove_ipc(libc, kind, ident)


def remove_ipc(libc: ctypes.CDLL, kind: str, ident: int) -> None:
    """Remove one System V IPC object: shmctl, msgctl or semctl(id, [0,] IPC_RMID).

    Shared memory goes when its last mapping does.
    """
    if kind == "sem":
        libc.semctl(ident, 0, IPC_RMID)
    else:
        getattr(libc, f"{kind}ctl")(ident, IPC_RMID, None)


def remove_path(path: str) -> bool:
    """Remove a file, a link or a folder with all it holds that can go; whether it went."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)  # what it can: the rest stays, and is said
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)
    return not os.path.lexists(path)


def ipc_objects() -> list[tuple[str, int]]:
    """(kind, id) of every System V IPC object of this IPC namespace."""
    return [(kind, int(row["id"])) for kind, row in ipc_rows()]


def ipc_rows() -> list[tuple[str, dict[str, str]]]:
    """Every System V IPC object of this IPC namespace, as (kind, row).

    The row is its /proc/sysvipc line by the header's names, its id as "id" whatever the
    kind calls it.
    """
    found = []
    for kind in IPC_KINDS:
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii", errors="replace") as f:
                names = next(f, "").split()
                for line in f:
                    row = dict(zip(names, line.split()))
                    ident = line.split()[1:2]
                    if ident and ident[0].isdigit():
                        found.append((kind, {**row, "id": ident[0]}))
        except OSError:
            continue
    return found


def leftovers(before: Snapshot) -> list[str]:
    """What the sandbox holds that it did not before the first game, in words ([]: none)."""
    found = []
    mounts = writable_mounts()
    for mount in mounts:
        if mount.keeps_data and mount.point not in before:
            found.append(f"a writable mount that was not there: {mount.point} ({mount.kind})")
    found += [f"a writable mount that keeps data: {words}" for words in unsweepable(mounts)]
    for point, held in before.items():
        added = _held(point) - held
        if added:
            found.append(f"{len(added)} path(s) left on {point}, such as {min(added)}")
    found += [f"a System V IPC object ({kind} {ident})" for kind, ident in ipc_objects()]
    return found
