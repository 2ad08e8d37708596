"""Where an agent was when its game was stopped: a faulthandler dump, read as frames.

Concepts:
- A game past its time cap is asked for its stack (referee.players.PlayerServer.where_now)
  before it is killed; faulthandler writes it, innermost frame first, thread by thread.
- own_folders(file, paths): the folders of an agent's own code (referee.describe.locate's).
- dumped_frames(text, own, sources): the main thread's frames in the agent's own files,
  outermost first, in the shape of a Python traceback, so that errors.AgentFailed.at reads a
  time-out's place as it reads an error's. A dump is the agent's to forge, so nothing it names
  is ever opened, nor believed: a frame is kept only in `sources`, the files the referee
  resolved itself (the agent's file, a module reference's source), when it is a regular file
  under one of `own` (looked at with stat, which never blocks); a line's text is read only
  from those, opened without blocking and read at most MAX_SOURCE_BYTES. A helper module's
  frames are left out; the agent's own file's frames that called it stay. A FIFO or a
  sparse gigabyte named by a forged dump once blocked the study or took 2.8 GiB.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence

MAX_FRAMES = 8  # the innermost frames kept
MAX_SOURCE_BYTES = 1 << 20  # the most of a source file read for one line's text
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<func>\S+)')


def own_folders(file: str | None, paths: list[str]) -> list[str]:
    """The folders an agent's own code lies in: its file's, and a module reference's roots."""
    return [*paths, *([os.path.dirname(file)] if file else [])]


def dumped_frames(text: str, own: list[str], sources: Sequence[str] = (),
                  here: str | None = None) -> str:
    """The agent's own frames of a faulthandler dump, as `traceback` formats them.

    `sources`: the files (resolved by the referee) whose lines may be quoted.
    """
    block: list[str] = []
    for piece in re.split(r"\n(?=(?:Current thread|Thread) 0x)", text):
        if piece.startswith("Current thread") or not block:
            block = piece.splitlines()
    roots = [os.path.realpath(r) + os.sep for r in own if r]
    quoted = {os.path.realpath(s) for s in sources if s}
    frames = []
    for line in block:
        found = _FRAME.match(line)
        if found is None:
            continue
        file = found["file"]
        real = os.path.realpath(file)
        # a place is believed only in a file the referee resolved (where sources are known)
        if any(real.startswith(r) for r in roots) and _regular(real) and \
                (real in quoted or not quoted):
            frames.append((file, int(found["line"]), found["func"][:80], real))
    frames = frames[:MAX_FRAMES]
    here = (here or os.getcwd()) + os.sep
    out = []
    for file, number, func, real in reversed(frames):  # outermost first, as a traceback
        shown = file[len(here):] if file.startswith(here) else file
        out.append(f'  File "{shown}", line {number}, in {func}\n')
        text_of_line = source_line(real, number) if real in quoted else ""
        if text_of_line:
            out.append(f"    {text_of_line[:200]}\n")
    return "".join(out)


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def source_line(path: str, number: int) -> str:
    """Line `number` of the regular file `path`, stripped ("" when it cannot be had).

    Never blocks (O_NONBLOCK, and a file that is not regular once open is left), follows no
    link at the last step, and reads at most MAX_SOURCE_BYTES.
    """
    if number < 1:
        return ""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (OSError, ValueError):
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        data = b""
        while len(data) < MAX_SOURCE_BYTES and data.count(b"\n") < number:
            chunk = os.read(fd, min(1 << 16, MAX_SOURCE_BYTES - len(data)))
            if not chunk:
                break
            data += chunk
    except OSError:
        return ""
    finally:
        os.close(fd)
    lines = data.split(b"\n")
    if number > len(lines) or number == len(lines) and len(data) >= MAX_SOURCE_BYTES:
        return ""
    return lines[number - 1].decode("utf-8", "replace").strip()
