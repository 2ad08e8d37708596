"""The shapes of plain data that cross the layers, named once.

Concepts:
- `Record`: a JSON object as it is written to or read from a file or a pipe (a results row, a
  trace line, a study record, a summary, a game's options). Its values are checked where
  they are read, so its value type is the one true edge of the typing: JSON.
- `Counters`: what an agent's `stats()` or a world's `summary()` counts, by name (numbers only,
  so they sum and average across a study).
- `OptionPairs`: an agent's or a world's options frozen as sorted (name, value) pairs.
"""

from __future__ import annotations

from typing import Any

Record = dict[str, Any]
Counters = dict[str, float]
OptionPairs = tuple[tuple[str, Any], ...]  # options frozen as sorted pairs: a job hashes and pickles
