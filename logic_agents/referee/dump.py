"""Where an agent was when its game was stopped: a faulthandler dump, read as frames.

Concepts:
- A game past its time cap is asked for its stack (referee.players.PlayerServer.where_now)
  before it is killed; faulthandler writes it, innermost frame first, thread by thread.
- own_folders(file, paths): the folders of an agent's own code (referee.describe.locate's).
- dumped_frames(text, own): the main thread's frames in the agent's own files (under one of
  `own`, the agent's folders), outermost first, in the shape of a Python traceback, so that
  errors.AgentFailed.at reads a time-out's place as it reads an error's. A frame's line text
  is read here only from a file under `own`: a dump is the agent's to forge, and names no
  file the referee would read for it.
"""

from __future__ import annotations

import linecache
import os
import re

MAX_FRAMES = 8  # the innermost frames kept
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<func>\S+)')


def own_folders(file: str | None, paths: list[str]) -> list[str]:
    """The folders an agent's own code lies in: its file's, and a module reference's roots."""
    return [*paths, *([os.path.dirname(file)] if file else [])]


def dumped_frames(text: str, own: list[str], here: str | None = None) -> str:
    """The agent's own frames of a faulthandler dump, as `traceback` formats them."""
    block: list[str] = []
    for piece in re.split(r"\n(?=(?:Current thread|Thread) 0x)", text):
        if piece.startswith("Current thread") or not block:
            block = piece.splitlines()
    roots = [os.path.realpath(r) + os.sep for r in own if r]
    frames = []
    for line in block:
        found = _FRAME.match(line)
        if found is None:
            continue
        file = found["file"]
        real = os.path.realpath(file)
        if any(real.startswith(r) for r in roots):
            frames.append((file, int(found["line"]), found["func"][:80], real))
    frames = frames[:MAX_FRAMES]
    here = (here or os.getcwd()) + os.sep
    out = []
    for file, number, func, real in reversed(frames):  # outermost first, as a traceback
        shown = file[len(here):] if file.startswith(here) else file
        out.append(f'  File "{shown}", line {number}, in {func}\n')
        text_of_line = linecache.getline(real, number).strip()
        if text_of_line:
            out.append(f"    {text_of_line[:200]}\n")
    return "".join(out)
