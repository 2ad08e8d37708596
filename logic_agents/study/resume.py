"""What a resume keeps of a results file, and what a study's end checks of it.

Concepts:
- resumed_rows: the rows a resume keeps, checked against the study (one per game, each one
  of its games).
- rewrite_rows: a results file written again, whole, from some rows.
- keep_only_referee_rows: at a study's end the file must hold the referee's own rows, by
  content, not by seal: a file changed while the study ran (a row appended, or forged and
  sealed again with a key an agent read) is written again from the referee's rows; a file
  its RowSink finds unchanged (one hash over the file) is not read again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.study.rows import Row, RowKey, RowSink, read_rows


def resumed_rows(rows: Iterable[Row], wanted: Callable[[RowKey], bool], runs: int,
                 objective: str, where: str) -> list[Row]:
    """The rows a resume keeps, checked as a study's: one row per game (a game retried with
    --retry-errors leaves its failed row before the new one; any other second row is
    refused), every row one of the study's games (a run past a smaller --runs is kept in the
    file and left out), and no score on a game that is won or lost."""
    unique: dict[RowKey, Row] = {}
    for row in rows:
        agent, name, run, _ = row.key
        game = f"{agent!r} on {name!r} run {run}"
        if run < runs and not wanted(row.key):
            raise FormatError(f"a row for {game} with seed {row.seed} is not one of this "
                              "study's games; the file was changed by someone else", where)
        if row.score is not None and objective != "score":
            raise FormatError(f"the row for {game} has a score, but this game is won or lost",
                              where)
        held = unique.get(row.key)
        if held is not None and not held.failed:
            raise FormatError(f"two rows for one game ({game}); a study writes one (and one "
                              "more only after a failed one, with --retry-errors)", where)
        if run < runs:
            unique[row.key] = row
    return list(unique.values())


def rewrite_rows(out: Path, key: str, rows: Iterable[Row]) -> None:
    """Write `out` again, whole, with `rows` alone (a fresh file beside it, then renamed)."""
    tmp = out.with_name(f".{out.name}.rewrite{out.suffix}")
    tmp.unlink(missing_ok=True)
    rewrite = RowSink(tmp, key)  # not the study's sink: a fresh file beside it
    try:
        for row in rows:
            rewrite.write(row)
    finally:
        rewrite.close()
    os.replace(tmp, out)


def keep_only_referee_rows(out: Path, key: str, rows: list[Row], sink: RowSink | None = None
                           ) -> None:
    """After a study: the results file must hold `rows` (the referee's own: those it read
    when the study began, then those it made, in order) and nothing else.

    Where someone changed it while the study ran (an agent outside a sandbox can write the
    user's files, and read the seal key), it is written again from the referee's own rows, and
    a note says so. The check is by content: a row sealed with the study's key but not the
    referee's is replaced too. `sink`, the study's: a file it finds unchanged is not read
    row by row.
    """
    if sink is not None and sink.unchanged():
        return
    try:
        if read_rows(out, key) == rows:
            return
        reason = "it holds rows the referee did not write, or wrote otherwise"
    except FormatError as e:
        reason = str(e)
    rewrite_rows(out, key, rows)
    print(f"logic-agents: note: {out} was changed while the study ran ({reason[:200]}); it "
          f"was written again from the referee's own {len(rows)} rows", file=sys.stderr)
