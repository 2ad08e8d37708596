"""DIMACS CNF out and in, with named variables.

Concepts:
- format_dimacs: `c` comment lines naming the source, `c var <id> <name>` for every named
  variable, `c aux <lo>-<hi>` ranges for auxiliary ones, the `p cnf` header, then the clauses.
- DimacsFile / parse_dimacs / read_dimacs: the inverse; malformed input gives file:line:col.
- stats: the numbers `logic-agents inspect` prints (variables, clauses, named, auxiliary, the
  clause-length histogram).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import ascii_int, is_ascii_digits, read_text, strip_bom, within_limit
from logic_agents.ground.shapes import Record

MAX_VARIABLES = 5_000_000  # a solver allocates per variable; --no-limits lifts the limit
_LITERAL = re.compile(r"-?[0-9]{1,12}")


@dataclass
class DimacsFile:
    """A CNF with its variable names and its free comment lines (without the `c ` prefix)."""

    num_vars: int
    clauses: list[list[int]]
    names: dict[int, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)

    def name(self, var: int) -> str:
        """A variable's name (an unnamed one's is `_aux_N`)."""
        return self.names.get(abs(var), f"_aux_{abs(var)}")

    def literal_name(self, lit: int) -> str:
        """A literal's name, `~` before a negated one."""
        return ("~" if lit < 0 else "") + self.name(lit)


def _ranges(ids: Iterable[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for i in sorted(ids):
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def format_dimacs(
    num_vars: int,
    clauses: list[list[int]],
    names: dict[int, str],
    comments: Iterable[str] = (),
) -> str:
    """The text of a DIMACS file whose comments name every variable."""
    lines = [f"c {c}".rstrip() for c in comments]
    for var in sorted(names):
        lines.append(f"c var {var} {names[var]}")
    aux = [v for v in range(1, num_vars + 1) if v not in names]
    for lo, hi in _ranges(aux):
        lines.append(f"c aux {lo}-{hi}" if lo != hi else f"c aux {lo}")
    lines.append(f"p cnf {num_vars} {len(clauses)}")
    lines.extend(" ".join(map(str, clause + [0])) for clause in clauses)
    return "\n".join(lines) + "\n"


def parse_dimacs(text: str, file: str = "<string>") -> DimacsFile:
    """Parse DIMACS text; clauses may span lines; every problem is reported as file:line:col."""
    num_vars = num_clauses = None
    names: dict[int, str] = {}
    comments: list[str] = []
    clauses: list[list[int]] = []
    current: list[int] = []
    for lineno, raw in enumerate(strip_bom(text).splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line == "%":  # SATLIB files end with "%" and "0": the formula ends at the "%"
            break
        if line.startswith("c"):
            body = line[1:].strip()
            parts = body.split()
            if len(parts) == 3 and parts[0] == "var" and is_ascii_digits(parts[1]):
                names[ascii_int(parts[1], "a variable number", file, lineno, 1)] = parts[2]
            elif parts and parts[0] == "aux":
                continue
            else:
                comments.append(body)
            continue
        if line.startswith("p"):
            parts = line.split()
            if num_vars is not None:
                raise FormatError("second 'p cnf' header", file, lineno, 1)
            if len(parts) != 4 or parts[1] != "cnf" or not (is_ascii_digits(parts[2])
                                                             and is_ascii_digits(parts[3])):
                raise FormatError("expected 'p cnf <variables> <clauses>'", file, lineno, 1)
            num_vars = ascii_int(parts[2], "the number of variables", file, lineno, 1)
            num_clauses = ascii_int(parts[3], "the number of clauses", file, lineno, 1)
            within_limit(num_vars, MAX_VARIABLES, "the number of variables", file, lineno, 1)
            continue
        if num_vars is None:
            raise FormatError("clause before the 'p cnf' header", file, lineno, 1)
        col = 0
        for token in raw.split():
            col = raw.index(token, col) + 1
            if not _LITERAL.fullmatch(token):
                raise FormatError(f"not an integer literal: {token[:40]!r}", file, lineno, col)
            lit = int(token)
            if abs(lit) > num_vars:
                raise FormatError(
                    f"literal {lit} exceeds the {num_vars} variables of the header", file, lineno, col
                )
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
            col += len(token) - 1
    if num_vars is None:
        raise FormatError("no 'p cnf' header", file, 0, 0)
    if current:
        clauses.append(current)
    if num_clauses is not None and len(clauses) != num_clauses:
        raise FormatError(
            f"header promises {num_clauses} clauses, file holds {len(clauses)}", file, 0, 0
        )
    for var in names:
        if var > num_vars:
            raise FormatError(f"name for variable {var} beyond the header's {num_vars}", file, 0, 0)
    return DimacsFile(num_vars, clauses, names, comments)


def read_dimacs(path: str | Path) -> DimacsFile:
    """Read a DIMACS file from disk (FormatError if it is missing or malformed)."""
    return parse_dimacs(read_text(path, "CNF file"), str(path))


def stats(cnf: DimacsFile) -> Record:
    """Sizes of a CNF, for `inspect`: variables, clauses, named/aux counts, length histogram."""
    lengths = Counter(len(c) for c in cnf.clauses)
    used = {abs(lit) for c in cnf.clauses for lit in c}
    return {
        "variables": cnf.num_vars,
        "clauses": len(cnf.clauses),
        "named": len(cnf.names),
        "auxiliary": cnf.num_vars - len(cnf.names),
        "unused": cnf.num_vars - len(used),
        "literals": sum(len(c) for c in cnf.clauses),
        "clause_lengths": dict(sorted(lengths.items())),
    }
