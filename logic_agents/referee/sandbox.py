"""A player's sandbox: bubblewrap, and the shape of what a player sees in it.

Concepts:
- bubblewrap(): the `bwrap` executable where it is installed and works here (a container may
  forbid namespaces; an old one lacks --size and --remount-ro), else None.
- bwrap_argv: a player's sandbox: no network, new PID and IPC namespaces (everything in them
  dies with them), the player server their init (pid 1, --as-pid-1: a game's parent, which
  no signal from inside the sandbox can kill or stop, and the reaper of every orphan), the
  libraries and the agent's own folder read-only (its file alone where that folder holds
  another agent of the study), /tmp and /dev/shm tmpfs of the cap's size,
  an mqueue file system of its own, hidden folders shown empty and hidden files as /dev/null;
  its root, /dev and every folder shown or hidden read-only (referee.leftovers puts back and
  proves the writable places between games).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

SYSTEM_DIRS = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/nsswitch.conf")
# the places bwrap_argv makes for the sandbox itself: a folder shown over one of them (an
# agent saved as /tmp/agent.py) would hide the sandbox's own
SANDBOX_OWN = ("/tmp", "/dev", "/proc")
# the size of each of a sandbox's two writable places (/tmp, /dev/shm) without a memory cap;
# with one, each is the cap's size
TMPFS_MIB = 1024


@functools.cache
def bubblewrap() -> str | None:
    """The path of bwrap when it is installed and works here (some containers forbid namespaces)."""
    path = shutil.which("bwrap")
    if path is not None:
        try:
            # what a player's sandbox needs (--size and --remount-ro: bubblewrap 0.5 on)
            done = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-all", "--as-pid-1",
                                   "--die-with-parent", "--size", "1048576", "--tmpfs",
                                   "/tmp", "--remount-ro", "/tmp", "--", "/bin/true"],
                                  capture_output=True, timeout=10)
            path = path if done.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            path = None
    return path


def _inside(path: str, folders: set[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def bwrap_argv(tool: str, shown: list[str], hidden: list[str], workdir: str,
               tmpfs_mib: int = TMPFS_MIB) -> list[str]:
    """The bubblewrap command line a player runs under (its own command follows).

    A game can write in two places only, /tmp and /dev/shm (tmpfs of `tmpfs_mib` MiB each),
    and POSIX message queues (an mqueue file system of the sandbox's own); the sandbox's root,
    /dev and every folder shown or hidden are read-only. The server puts the writable places
    back after each game and proves it (referee.leftovers).
    """
    size = str(tmpfs_mib << 20)
    # the server is the PID namespace's init: the kernel drops what a game signals it
    argv = [tool, "--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL",
            "--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/dev/shm",
            "--mqueue", "/dev/mqueue", "--remount-ro", "/dev",
            "--size", size, "--tmpfs", "/tmp", "--setenv", "HOME", "/tmp",
            "--setenv", "TMPDIR", "/tmp", "--unsetenv", "PYTHONPATH"]
    for folder in SYSTEM_DIRS:
        argv += ["--ro-bind-try", folder, folder]
    for path in SYSTEM_FILES:
        argv += ["--ro-bind-try", path, path]
    seen: set[str] = set()
    for folder in sorted(shown, key=len):
        if not _inside(folder, seen):
            seen.add(folder)
            argv += ["--ro-bind", folder, folder]
    gone: set[str] = set()
    for path in sorted(hidden, key=len):  # shipped maps, the study's maps and results, --hide
        if not _inside(path, seen) or _inside(workdir, {path}) or _inside(path, gone):
            continue  # not shown anyway; or it holds the agent's own folder, which must show;
            # or it lies in a folder hidden already (read-only and empty)
        gone.add(path)
        if os.path.isdir(path):
            argv += ["--tmpfs", path, "--remount-ro", path]
        elif os.path.isfile(path):
            argv += ["--ro-bind", "/dev/null", path]
    # last: every mount point above is made on the root's tmpfs, which then goes read-only
    # (a game wrote there before: the folders bubblewrap made for the agent's own)
    return [*argv, "--remount-ro", "/", "--chdir", workdir]
