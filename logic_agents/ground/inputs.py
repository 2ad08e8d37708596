"""Reading what people give us, the same way in every parser and verb.

Concepts:
- ascii_int: a whole number written in ASCII digits only, with a bounded length. Python's
  `str.isdigit` and `int` accept other scripts ('٣', '３' read as 3) and choke on others ('²',
  numbers over 4,300 digits), so no parser calls them on user text directly.
- read_text: a file's text as UTF-8, a leading byte-order mark dropped; undecodable bytes are a
  FormatError at file:line:col, and so is every OSError (missing, a folder, unreadable).
- read_table: a CSV file a person wrote (a roster, aliases): its header and each row with
  the line it starts on, for file:line:col errors.
- path_exists: `Path.exists` that answers False for names the OS refuses (too long, NUL), so a
  pasted puzzle of 600 characters is never mistaken for a file name that crashes.
- load_json: `json.loads` whose every failure (bad syntax, nesting too deep) is a FormatError.
- Limits: MAX_DIGITS bounds every number read from input; MAX_INPUT_BYTES every file read.
  Sizes that cost memory or time (board cells, CNF variables, search nodes) are checked with
  `within_limit`, which the command line's `--no-limits` lifts on purpose (`lifted_limits`).
- printable: a name read from a file, made safe to print (control characters as escapes).
"""

from __future__ import annotations

import contextlib
import contextvars
import csv
import io
import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from logic_agents.errors import FormatError

MAX_DIGITS = 12  # no count or size we read needs more; a longer number is a mistake or an attack
MAX_INPUT_BYTES = 256 * 1024 * 1024  # a map, puzzle set, trace or CNF file larger is refused
BOM = "\ufeff"
_ASCII_DIGITS = re.compile(r"[0-9]+")
_ASCII_INT = re.compile(r"[+-]?[0-9]+")


# lifted for one command or one block of a notebook, never for the whole process: a context
# variable, so a thread or a second study in the same kernel sees its own setting
_LIFTED: contextvars.ContextVar[bool] = contextvars.ContextVar("limits_lifted", default=False)
LIFT_HINT = "pass --no-limits to lift the limit on purpose"


@contextlib.contextmanager
def lifted_limits(lifted: bool = True) -> Iterator[None]:
    """While it holds, the size limits of `within_limit` are off (the command line's
    --no-limits); they are back as they were when it ends."""
    token = _LIFTED.set(lifted)
    try:
        yield
    finally:
        _LIFTED.reset(token)


def limits_lifted() -> bool:
    return _LIFTED.get()


def within_limit(value: int, limit: int, what: str, file: str = "<input>", line: int = 0,
                 col: int = 0) -> None:
    """FormatError unless value <= limit (or the limits are lifted); the message names both
    and the flag that lifts the limit."""
    if value > limit and not _LIFTED.get():
        raise FormatError(f"{what} is {value:,}, over the limit of {limit:,}; {LIFT_HINT}",
                          file, line, col)


def is_ascii_digits(text: str) -> bool:
    """True iff `text` is one or more of 0-9 (and nothing else: no '²', '٣' or '３')."""
    return _ASCII_DIGITS.fullmatch(text) is not None


def ascii_int(text: str, what: str, file: str = "<input>", line: int = 0, col: int = 0, *,
              signed: bool = False, low: int | None = None, high: int | None = None) -> int:
    """`text` as an int, written in ASCII digits (a sign only if `signed`), at most MAX_DIGITS
    of them, within [low, high] when given; else FormatError(file, line, col) naming `what`."""
    stripped = text.strip()
    pattern = _ASCII_INT if signed else _ASCII_DIGITS
    if pattern.fullmatch(stripped) is None:
        kind = "an integer" if signed else "a whole number in digits 0-9"
        raise FormatError(f"{what} must be {kind}, got {shorten(text)!r}", file, line, col)
    if len(stripped.lstrip("+-")) > MAX_DIGITS:
        raise FormatError(f"{what} has {len(stripped.lstrip('+-'))} digits; at most {MAX_DIGITS} "
                          "are accepted", file, line, col)
    value = int(stripped)
    if low is not None and value < low:
        raise FormatError(f"{what} must be at least {low}, got {value}", file, line, col)
    if high is not None and value > high:
        raise FormatError(f"{what} must be at most {high:,}, got {value:,}", file, line, col)
    return value


def int_or_none(text: str, signed: bool = True) -> int | None:
    """A small int in ASCII digits (at most MAX_DIGITS, a '-' if `signed`), else None: for
    tokens such as the coordinates of an action read back from a trace."""
    pattern = _ASCII_INT if signed else _ASCII_DIGITS
    if pattern.fullmatch(text) is None or len(text.lstrip("+-")) > MAX_DIGITS:
        return None
    return int(text)


def shorten(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters and marked with '...' when longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def decode(data: bytes, file: str) -> str:
    """UTF-8 text of `data`, a leading BOM dropped; a bad byte is located as file:line:col."""
    try:
        return strip_bom(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        col = e.start - (before.rfind(b"\n") + 1) + 1
        raise FormatError(f"not UTF-8 text (byte 0x{data[e.start]:02x})", file, line, col) from None


def _read_at_most(f: Any, limit: int) -> bytes:
    """Up to `limit` bytes of a file, in chunks: f.read(limit) would ask for the whole limit
    (256 MiB) at once, whatever the file's size."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = f.read(min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_text(path: str | Path, what: str = "file") -> str:
    """The UTF-8 text of a file; every way it can fail is one FormatError naming the file."""
    path = Path(path)
    name = str(path)
    try:
        with path.open("rb") as f:
            data = _read_at_most(f, MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise FormatError(f"cannot read: no such {what}", name, 0, 0) from None
    except IsADirectoryError:
        article = "an" if what[:1].lower() in "aeiou" else "a"  # "an Undead puzzle file"
        raise FormatError(f"is a directory, not {article} {what}", name, 0, 0) from None
    except OSError as e:
        raise FormatError(f"cannot read {what}: {e.strerror or e}", name, 0, 0) from None
    if len(data) > MAX_INPUT_BYTES:
        raise FormatError(f"{what} is larger than {MAX_INPUT_BYTES // 2**20} MiB", name, 0, 0)
    return decode(data, name)


def read_table(path: str | Path, what: str = "file"
               ) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """A CSV file a person wrote (a roster, aliases): its header, then each row that holds
    something with the line it starts on (a quoted cell may span lines), cells stripped (the
    byte-order mark Excel writes is read_text's to drop). Every way it fails to read is a
    FormatError."""
    reader = csv.reader(io.StringIO(read_text(path, what)))
    try:
        head = [h.strip() for h in next(reader, [])]
        rows = []
        line = reader.line_num + 1
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((line, [cell.strip() for cell in row]))
            line = reader.line_num + 1
    except csv.Error as e:
        raise FormatError(f"not CSV: {e}", str(path), reader.line_num, 1) from None
    return head, rows


def path_exists(text: str | Path) -> bool:
    """Path(text).exists(), but False (not OSError/ValueError) for names the OS refuses."""
    try:
        return Path(text).exists()
    except (OSError, ValueError):
        return False


def is_file(text: str | Path) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def is_dir(text: str | Path) -> bool:
    try:
        return Path(text).is_dir()
    except (OSError, ValueError):
        return False


def load_json(text: str, file: str = "<input>", line: int = 0) -> Any:
    """json.loads; bad syntax and nesting too deep to read are a FormatError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(f"not JSON: {e.msg}", file, line or e.lineno, e.colno) from None
    except RecursionError:
        raise FormatError("JSON nested too deeply to read", file, line, 0) from None
    except ValueError as e:  # an integer of over 4,300 digits
        raise FormatError(f"not JSON this program reads: {str(e)[:80]}", file, line, 0) from None


def is_text(text: str) -> bool:
    """Whether `text` encodes as UTF-8: a lone surrogate does not, so no page or file holds it."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(text: str, keep: str = "") -> str:
    """`text` with control characters (C0, C1, DEL, line and paragraph separators, bidi
    overrides) written as escapes, so a name from a file cannot drive the terminal (set its
    title, clear the screen, reorder a line) or break one line into two; `keep` lists
    characters left as they are (a console keeps "\n" and "\t")."""
    if text.isprintable() or all(c.isprintable() or c in keep for c in text):
        return text
    return "".join(c if c.isprintable() or c in keep or unicodedata.category(c) == "Zs"
                   else c.encode("unicode_escape").decode("ascii") for c in text)
