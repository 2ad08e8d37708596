"""Results rows: one finished game each, written as they come and read back as data.

Concepts:
- Row: one game's result, with the agent's counters (SAT tests, search nodes, EA
  generations) and, for a game the agent failed (outcome error or timeout), its error.
- RowSink: appends each finished row to a .csv or .jsonl file and flushes it at once, so an
  interrupted study loses no finished game (it is on the disk within SYNC_EVERY_S); a row
  that could not be read back (a field over CELL_LIMIT) is refused before anything of it is
  written.
- read_rows: the rows of a results file, every field checked (file:line on the first bad
  one); a half-written last line (a crash mid-write) is ignored. CSV rows are split by the csv
  module, not by lines, so a name may hold a line separator. A file whose lines end in CR
  alone is refused, never read as one torn line (nor truncated by a resume).
- What a resume keeps and a study's end checks of its file: resume.py.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import hashlib
import hmac
import io
import json
import math
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import int_or_none, load_json, strip_bom
from logic_agents.ground.shapes import Record

CELL_LIMIT = 1 << 20  # the longest field a results file holds (csv's own default is 128 KiB)
NAME_LIMIT = CELL_LIMIT // 8  # agent, map and group names (a character is up to 4 bytes)
MAX_SECONDS = 1e9  # a game's time_s and cpu_s: 31 years is no game's
# Each row is flushed to the operating system at once, which keeps it through Ctrl-C, a kill
# or a crash of the study; it is forced to the disk (os.fsync, against a power cut) at most
# once a second: one fsync per row cost 0.28 ms a game, more than compare's whole budget.
SYNC_EVERY_S = 1.0


RowKey = tuple[str, str, int, int]  # agent, map, run, seed: one game of a study


@dataclass
class Row:
    agent: str
    map: str
    group: str
    run: int
    seed: int
    outcome: str
    won: bool
    steps: int
    guesses: int
    score: float | None  # the game's score (games whose objective is a score), else None
    time_s: float
    stats: Record = field(default_factory=Record)  # the agent's counters: generations, nodes, ...
    extra: Record = field(default_factory=Record)  # what the world reports: lives_left, ticks, ...
    error: str = ""  # outcome error/timeout: the exception's type and first line, and where
    cpu_s: float = 0.0  # CPU seconds of the process that played it (time_s is wall time)

    @property
    def failed(self) -> bool:
        return self.outcome in FAILED

    def __reduce__(self) -> tuple[type[Row], tuple[Any, ...]]:
        """Pickled as its fields in order: a row crosses from a worker for every game."""
        return Row, tuple(getattr(self, name) for name in ROW_FIELDS)

    @property
    def key(self) -> RowKey:
        return (self.agent, self.map, self.run, self.seed)


ROW_FIELDS = [f.name for f in dataclasses.fields(Row)]
# the headers of results files written by older versions, which keep their header: before
# rows kept the CPU time, and before that the agent's error
OLD_ROW_FIELDS = ROW_FIELDS[:-1]
OLDER_ROW_FIELDS = ROW_FIELDS[:-2]
# a file the referee writes seals each row (see seal_of): the header ends in `seal`
SEALED_ROW_FIELDS = [*ROW_FIELDS, "seal"]
FAILED = ("error", "timeout")  # outcomes that are the agent's failure, not the game's
OUTCOMES = ("won", "lost", "ended", "truncated", "gave_up", "error", "timeout")


def fields_of(row: Row) -> Record:
    """The row's fields by name, as dataclasses.asdict gives them for JSON (a row's fields
    are flat: its counters are numbers), at a tenth of asdict's deep copy's cost."""
    return {name: getattr(row, name) for name in ROW_FIELDS}


def seal_of(row: Row, key: str) -> str:
    """The referee's seal on a row: an HMAC of its canonical fields (`canonical`) under the
    study's key (kept in the study record, which a sandboxed player cannot see). A row
    appended by anyone else, or changed since, does not carry it."""
    return _seal(fields_of(canonical(row)), key)


def _number(value: float) -> int | float:
    """A counter as a results file gives it back: a whole number stays one (JSON keeps it),
    anything else is a float (a numpy integer included: its JSON is a float's)."""
    return value if type(value) is int else float(value)


def canonical(row: Row) -> Row:
    """The row exactly as a results file gives it back (read_rows), so that what is sealed is
    what is read: an Ooze score of 41 is written, sealed and read as 41.0, never sealed as
    `41` and read back as `41.0` (every scored file was refused once). The numbers of the
    game's figures become float or int as JSON and CSV keep them; texts stay texts."""
    score = None if row.score is None else float(row.score)
    return Row(agent=str(row.agent), map=str(row.map), group=str(row.group), run=int(row.run),
               seed=int(row.seed), outcome=str(row.outcome), won=bool(row.won),
               steps=int(row.steps), guesses=int(row.guesses), score=score,
               time_s=float(row.time_s),
               stats={str(k): _number(v) for k, v in row.stats.items()},
               extra={str(k): _number(v) for k, v in row.extra.items()},
               error=str(row.error), cpu_s=float(row.cpu_s))


# made once: json.dumps with options builds an encoder at every call (a row is 3 of them)
_SEAL_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)
_CELL_JSON = json.JSONEncoder(sort_keys=True)


def _seal(fields: Record, key: str) -> str:
    record = _SEAL_JSON.encode(fields)
    return hmac.digest(key.encode(), record.encode(), "sha256").hex()[:32]


def check_consistent(row: Row) -> None:
    """ValueError, in words, when a row's fields disagree with each other."""
    if row.outcome not in OUTCOMES:
        raise ValueError(f"outcome {row.outcome[:20]!r} is none of {', '.join(OUTCOMES)}")
    if row.won != (row.outcome == "won"):
        raise ValueError(f"won is {row.won} but the outcome is {row.outcome!r}")
    if row.failed and row.won:
        raise ValueError("a failed game cannot be won")


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _stats_field(value: Any) -> Record:
    if value in (None, ""):
        return {}
    if isinstance(value, str):  # CSV keeps the counters as one JSON cell
        value = json.loads(value)
    return dict(value)


def _count(value: Any, what: str) -> int:
    """A whole number of a results row (at most 12 digits), as written by RowSink."""
    number = int_or_none(str(value), signed=False) if not isinstance(value, bool) else None
    if number is None:
        raise ValueError(f"{what} must be a whole number, got {str(value)[:40]!r}")
    return number


def _row_from_dict(d: Record, where: tuple[str, int]) -> Row:
    try:
        time_s = float(d["time_s"])
        if not math.isfinite(time_s) or not 0 <= time_s < MAX_SECONDS:
            raise ValueError(f"time_s must be a finite number, got {d['time_s']!r}")
        stats = _stats_field(d.get("stats"))
        extra = _stats_field(d.get("extra"))
        if not all(is_number(v) and abs(v) < 1e15 for v in [*stats.values(), *extra.values()]):
            raise ValueError("stats and extra must map names to numbers")
        score = None if d.get("score") in (None, "") else float(d["score"])
        if score is not None and not (math.isfinite(score) and abs(score) < 1e15):
            raise ValueError(f"score must be a finite number, got {d['score']!r}")
        cpu_s = float(d.get("cpu_s") or 0.0)
        if not math.isfinite(cpu_s) or not 0 <= cpu_s < MAX_SECONDS:
            raise ValueError(f"cpu_s must be a finite number, got {d['cpu_s']!r}")
        error = d.get("error") or ""
        if not isinstance(error, str):
            raise ValueError(f"error must be text, got {str(error)[:40]!r}")
        won = d["won"]
        if won not in (True, False, "True", "False", "true", "false", "1", "0"):
            raise ValueError(f"won must be True or False, got {str(won)[:20]!r}")
        row = Row(agent=str(d["agent"]), map=str(d["map"]), group=str(d["group"]),
                  run=_count(d["run"], "run"), seed=_count(d["seed"], "seed"),
                  outcome=str(d["outcome"]), won=won in (True, "True", "true", "1"),
                  steps=_count(d["steps"], "steps"), guesses=_count(d["guesses"], "guesses"),
                  score=score, time_s=time_s, stats=stats, extra=extra, error=error,
                  cpu_s=cpu_s)
        check_consistent(row)
        return row
    except (KeyError, ValueError, TypeError, AttributeError, RecursionError) as e:
        raise FormatError(f"not a result row ({str(e)[:80]})", *where) from None


def results_kind(path: Path) -> str:
    if path.suffix == ".csv":
        return "csv"
    if path.suffix in (".jsonl", ".json"):
        return "jsonl"
    raise FormatError("results file must end in .csv or .jsonl", str(path), 0, 0)


def read_rows(path: str | Path, key: str | None = None) -> list[Row]:
    """Rows of a results file, streamed (a file of any size: a study of millions of games
    reads back what it wrote); a half-written last line (a crash mid-write) is ignored. With
    the study's `key`, every row must carry the referee's seal (a resume: FormatError at the
    first row that does not)."""
    path = Path(path)
    if not path.exists():
        return []
    kind = results_kind(path)
    rows = []
    lines = _complete_lines(path)
    if kind == "csv":
        # rows are split by the csv module, not by str.splitlines: a name may hold U+2028
        reader = csv.reader(text for _, text in lines)
        previous = csv.field_size_limit(CELL_LIMIT)
        try:
            header = next(reader, None)
            if header is not None and header not in (SEALED_ROW_FIELDS, ROW_FIELDS,
                                                     OLD_ROW_FIELDS, OLDER_ROW_FIELDS):
                raise FormatError(f"the first line is not the results header "
                                  f"({','.join(ROW_FIELDS)})", str(path), 1, 1)
            for cells in reader:
                where = (str(path), reader.line_num)
                if cells and header is not None and len(cells) != len(header):
                    raise FormatError(f"not a result row ({len(cells)} cells, the header has "
                                      f"{len(header)})", *where)
                if cells:
                    record = dict(zip(header or [], cells))
                    rows.append(_sealed(_row_from_dict(record, where), record, key, where))
        except csv.Error as e:
            raise FormatError(f"not a results file ({e})", str(path), reader.line_num, 0) from None
        finally:
            csv.field_size_limit(previous)
    else:
        for lineno, line in lines:
            if line.strip():
                d = load_json(line, str(path), lineno)
                if not isinstance(d, dict):
                    raise FormatError("a result row is a JSON object", str(path), lineno, 1)
                where = (str(path), lineno)
                rows.append(_sealed(_row_from_dict(d, where), d, key, where))
    return rows


def _sealed(row: Row, record: Record, key: str | None, where: tuple[str, int]) -> Row:
    if key is None:
        return row

    seal = record.get("seal")
    if not isinstance(seal, str) or not seal.isascii() or \
            not hmac.compare_digest(seal, seal_of(row, key)):
        raise FormatError("this row was not written by the referee of this study (its seal "
                          f"{'is missing' if not seal else 'does not match'}): the file was "
                          "changed by someone else; start a new --out, or remove the row",
                          *where)
    return row


def _complete_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text with its newline) of every complete line, read as a stream and
    split at b"\\n" only; a torn last line is dropped, a byte that is not UTF-8 located."""
    try:
        f = path.open("rb")
    except OSError as e:
        raise FormatError(f"cannot read results file: {e.strerror or e}", str(path), 0, 0) \
            from None
    with f:
        for lineno, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                refuse_cr_only(raw, path, lineno)
                return  # the torn line of an interrupted write
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise FormatError(f"not UTF-8 text (byte 0x{raw[e.start]:02x})", str(path),
                                  lineno, e.start + 1) from None
            yield lineno, strip_bom(text) if lineno == 1 else text


def refuse_cr_only(tail: bytes, path: Path, lineno: int) -> None:
    """A last line without its newline is an interrupted write, unless it holds a CR: then the
    file's lines end in CR alone (a spreadsheet's "CSV (Macintosh)"), and it is refused
    rather than read as nothing (and truncated by a resume)."""
    if b"\r" in tail:
        raise FormatError("the lines of this file end in CR alone (a spreadsheet's \"CSV "
                          "(Macintosh)\"?); save it with LF or CRLF line ends", str(path),
                          lineno, 0)


class RowSink:
    """Append rows to a .csv or .jsonl file, one flushed line per finished game; `unchanged()`
    says whether the file still holds exactly what it held and what was appended since."""

    def __init__(self, path: str | Path, key: str | None = None):
        self.path = Path(path)
        self.key = key
        self.kind = results_kind(self.path)
        self.synced = 0.0  # when the rows were last forced to the disk (os.fsync)
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb+") as f:  # drop a torn last line before appending
                data = f.read()
                if data and not data.endswith(b"\n"):
                    refuse_cr_only(data[data.rfind(b"\n") + 1:], self.path,
                                   data.count(b"\n") + 1)
                    f.truncate(data.rfind(b"\n") + 1)
        # a header torn by a crash is gone now too: a CSV starts again with its header
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.file = self.path.open("a", newline="", encoding="utf-8")
        except OSError as e:
            raise FormatError(f"cannot write results: {e.strerror}", str(self.path), 0, 0) from None
        fields = SEALED_ROW_FIELDS if key is not None else ROW_FIELDS
        if self.kind == "csv" and not fresh:  # a file of an older version keeps its header
            with self.path.open(newline="", encoding="utf-8", errors="replace") as f:
                header = next(csv.reader(f), None)
                if header in (ROW_FIELDS, OLD_ROW_FIELDS, OLDER_ROW_FIELDS):
                    fields = header
        # each line is made here, then written and hashed: the hash of what the file should
        # hold lets a study's end check it in one read instead of parsing every row again
        self.line = io.StringIO()
        self.writer = (csv.DictWriter(self.line, fields, extrasaction="ignore")
                       if self.kind == "csv" else None)
        self.digest = hashlib.blake2b(self.path.read_bytes() if not fresh else b"")
        if self.writer is not None and fresh:
            self.writer.writeheader()
            self._put(self._csv_line())

    def _csv_line(self) -> str:
        """The line the csv writer made last, taken from its buffer."""
        text = self.line.getvalue()
        self.line.seek(0)
        self.line.truncate()
        return text

    def _put(self, text: str) -> None:
        self.file.write(text)
        self.file.flush()  # at once: a study stopped or killed now keeps this row
        self.digest.update(text.encode("utf-8"))

    def write(self, row: Row) -> None:
        """Append `row` in its canonical form (what read_rows gives back, and what is
        sealed); a row that would not read back (a field over CELL_LIMIT) is refused before
        anything of it is written."""
        row = canonical(row)
        record = fields_of(row)
        if self.key is not None:
            record["seal"] = _seal(record, self.key)
        if self.writer is not None:
            record["stats"] = _CELL_JSON.encode(row.stats)
            record["extra"] = _CELL_JSON.encode(row.extra)
            if any(len(str(v)) > CELL_LIMIT for v in record.values()):
                raise FormatError(f"a row of {row.agent[:40]!r} on {row.map[:40]!r} has a field "
                                  f"over {CELL_LIMIT >> 10} KiB, which a results file does not "
                                  "keep", str(self.path))
            self.writer.writerow(record)
            line = self._csv_line()
        else:
            line = json.dumps(record) + "\n"
            if len(line) > CELL_LIMIT:
                raise FormatError(f"a row of {row.agent[:40]!r} on {row.map[:40]!r} is over "
                                  f"{CELL_LIMIT >> 10} KiB, which a results file does not keep",
                                  str(self.path))
        self._put(line)
        if time.monotonic() - self.synced >= SYNC_EVERY_S:  # and on disk within a second
            self._sync()

    def unchanged(self) -> bool:
        """Whether the file holds what it held when opened here, then this sink's lines."""
        try:
            with self.path.open("rb") as f:
                return hashlib.file_digest(f, "blake2b").digest() == self.digest.digest()
        except OSError:
            return False

    def _sync(self) -> None:
        os.fsync(self.file.fileno())
        self.synced = time.monotonic()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # each row was flushed; closing must not mask an error
            self._sync()
        self.file.close()
