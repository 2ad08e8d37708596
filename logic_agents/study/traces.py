"""A study's own games, as they were played: the traces its replay pages are drawn from.

Concepts:
- KEEP: which games a study keeps the trace of: "all", "lost" (those not won: the failures,
  time-outs included, and the losses), "none". A kept trace is the game the study played,
  move by move up to its end or its failure: a page drawn from it never plays a game again,
  so a time-out costs its cap once, and what the page shows is what was graded.
- Traces: the kept traces by row key (agent, map, run, seed), each compressed (a class's
  thousands of lost games in a few MiB); with a file (`traces_path(out)`, beside the
  results), each is appended and flushed as its game ends, so `report` draws the same pages
  later and a resume keeps them. The file is the referee's: hidden from every player, as the
  results are, and read back with every line checked.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import MAX_INPUT_BYTES, is_text
from logic_agents.study.rows import RowKey

KEEP = ("all", "lost", "none")


def traces_path(out: str | Path) -> Path:
    """Where a results file's traces are kept: `runs.csv` -> `runs.csv.traces.jsonl`."""
    return Path(f"{out}.traces.jsonl")


def kept(keep: str, outcome: str) -> bool:
    """Whether a game that ended `outcome` keeps its trace under `keep`."""
    return keep == "all" or keep == "lost" and outcome != "won"


class Traces:
    """The kept traces of a study, by row key; appended to `path` as they come, if given."""

    def __init__(self, path: str | Path | None = None, keep: str = "lost"):
        if keep not in KEEP:
            raise ValueError(f"keep: one of {', '.join(KEEP)}, not {keep!r}")
        self.keep = keep
        self.path = None if path is None else Path(path)
        self._packed: dict[RowKey, bytes] = {}
        self._file: IO[str] | None = None

    def __len__(self) -> int:
        return len(self._packed)

    def __contains__(self, key: object) -> bool:
        return key in self._packed

    def __iter__(self) -> Iterator[RowKey]:
        return iter(self._packed)

    def add(self, key: RowKey, text: str) -> None:
        """Keep one game's trace (a later one of the same key, a regrade's, replaces it)."""
        packed = zlib.compress(text.encode("utf-8", "surrogatepass"), 6)
        self._packed[key] = packed
        if self.path is None:
            return
        if self._file is None:
            try:
                self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - close()
            except OSError as e:
                raise FormatError(f"cannot write the traces: {e.strerror or e}",
                                  str(self.path), 0, 0) from None
        line = json.dumps({"key": list(key), "trace": base64.b64encode(packed).decode()})
        self._file.write(line + "\n")
        self._file.flush()

    def get(self, key: RowKey) -> str | None:
        """One game's trace text, or None when none was kept."""
        packed = self._packed.get(key)
        return None if packed is None else zlib.decompress(packed).decode("utf-8",
                                                                          "surrogatepass")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def attach(self, path: str | Path, resume: bool) -> None:
        """Append each trace to `path` from here on: a resumed study keeps the file's (read
        back), a new one starts it empty (a file left by an earlier study of that name is
        not this one's)."""
        self.close()
        self.path = Path(path)
        if resume:
            self._packed.update(_read(self.path))
        else:
            try:
                self.path.write_text("", encoding="utf-8")
            except OSError as e:
                raise FormatError(f"cannot write the traces: {e.strerror or e}",
                                  str(self.path), 0, 0) from None

    @classmethod
    def read(cls, path: str | Path, keep: str = "lost") -> Traces:
        """The traces of a file (none when it is not there), for pages drawn later (report)."""
        traces = cls(None, keep)
        traces._packed.update(_read(Path(path)))
        return traces


def _read(file: Path) -> dict[RowKey, bytes]:
    """The traces a file holds by key (none when it is not there). A half-written last line
    (a study killed mid-write) is left out; any other line that is not a trace is refused at
    its file:line."""
    found: dict[RowKey, bytes] = {}
    if not file.exists():
        return found
    if file.stat().st_size > 64 * MAX_INPUT_BYTES:
        raise FormatError("the traces file is too large to read", str(file), 0, 0)
    lines = file.read_text(encoding="utf-8", errors="surrogateescape").split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            agent, map_name, run, seed = record["key"]
            packed = base64.b64decode(record["trace"], validate=True)
            zlib.decompress(packed)
            if not (isinstance(agent, str) and is_text(agent) and isinstance(map_name, str)
                    and is_text(map_name) and type(run) is int and type(seed) is int):
                raise ValueError("a key is (agent, map, run, seed)")
        except (ValueError, KeyError, TypeError, zlib.error) as e:
            if number >= len(lines) - 1:  # the last line, cut short by a kill
                break
            raise FormatError(f"not a trace line ({type(e).__name__})", str(file),
                              number, 1) from None
        found[(agent, map_name, run, seed)] = packed  # a later line (a regrade's) replaces
    return found
