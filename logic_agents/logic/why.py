"""Why a written CNF forces a variable's value: `logic-agents inspect FILE.cnf --why NAME`.

Concepts: the `c kb` lines of a file written by `logic-agents cnf` name the formulas, and its
`c kb-spans` line gives the clauses each compiled to. why_forced solves the file once for
NAME's value, checks that the value is forced (the file with NAME's other value is
unsatisfiable), then finds a minimal set of the named formulas that forces it, as
SatOracle.explain does: a selector per formula, the unsat core, deletion under a budget.
Clauses under no `c kb` line (the unit clauses that assume a test's selectors, formulas past
the comment limit) are background, always present. Explanation is what SatOracle.explain
answers of a live knowledge base: the same kind of minimal set. certify_forced certifies the
UNSAT answers a verdict rests on (`inspect --why NAME --certify`): that the file forces NAME,
and that the minimal set does.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.solvers import Solver

from logic_agents.errors import FormatError, UncertifiedClaim, UsageError
from logic_agents.ground.inputs import int_or_none
from logic_agents.logic.certify import RECHECK_SOLVER, Certified, Tally
from logic_agents.logic.dimacs import DimacsFile
from logic_agents.logic.ids import Formula


@dataclass(frozen=True)
class Explanation:
    """Why the KB entails `literal`: `formulas` (as told) entail it.

    With `minimal`, dropping any one of them breaks the entailment. `spans` are the
    formulas' clause ranges in the KB.
    """

    literal: int
    formulas: tuple[Formula, ...]
    minimal: bool
    spans: tuple[tuple[int, int], ...]
    given: tuple[int, ...] = ()  # the facts given as assumptions that the proof uses

    def lines(self) -> list[str]:
        """The formulas, one line each, as sympy prints them."""
        return [str(f) for f in self.formulas]

CONFLICTS = 20_000


@dataclass(frozen=True)
class Forced:
    """What `inspect --why` says of a variable: its forced value and what forces it."""

    name: str
    value: bool | None  # None: the file is unsatisfiable
    forced: bool
    formulas: tuple[str, ...] = ()
    minimal: bool = True
    literal: int = 0  # the forced literal (0: none forced)
    spans: tuple[tuple[int, int], ...] = ()  # the chosen formulas' clause ranges


def named_formulas(cnf: DimacsFile, file: str) -> list[tuple[str, int, int]]:
    """(text, first clause, end) of every `c kb` formula that has a span."""
    texts = [c[3:] for c in cnf.comments if c.startswith("kb ") and not c.startswith("kb ...")]
    spans_line = next((c for c in cnf.comments if c.startswith("kb-spans ")), None)
    if spans_line is None:
        raise FormatError("no `c kb-spans` line: only files written by `logic-agents cnf` say "
                          "which clauses each formula compiled to", file, 0, 0)
    spans = []
    for part in spans_line.split()[1:]:
        lo, _, hi = part.partition("-")
        a, b = int_or_none(lo, False), int_or_none(hi, False)
        if a is None or b is None or not a <= b <= len(cnf.clauses):
            raise FormatError(f"bad clause range {part!r} in the kb-spans line", file, 0, 0)
        spans.append((a, b))
    if len(spans) != len(texts):
        raise FormatError(f"{len(texts)} `c kb` lines but {len(spans)} spans", file, 0, 0)
    return [(t, a, b) for t, (a, b) in zip(texts, spans)]


def why_forced(cnf: DimacsFile, name: str, file: str = "<cnf>", solver: str = "glucose4",
               conflicts: int = CONFLICTS) -> Forced:
    """Whether a DIMACS file's named variable is forced, and by which named formulas.

    Raises:
        UsageError: the file names no such variable.
    """
    ids = {n: v for v, n in cnf.names.items()}
    if name not in ids:
        shown = ", ".join(list(ids)[:5])
        raise UsageError(f"{file} names no variable {name!r} (it names {shown}, ...)")
    var = ids[name]
    groups = named_formulas(cnf, file)
    with Solver(name=solver, bootstrap_with=cnf.clauses) as plain:
        if not plain.solve():
            return Forced(name, None, False)
        value = plain.get_model()[var - 1] > 0
        lit = var if value else -var
        if plain.solve(assumptions=[-lit]):
            return Forced(name, value, False)
    top = max(cnf.num_vars, max((abs(x) for c in cnf.clauses for x in c), default=0))
    selectors = [top + 1 + i for i in range(len(groups))]
    guard = {c: selectors[i] for i, (_, a, b) in enumerate(groups) for c in range(a, b)}
    with Solver(name=solver) as explainer:
        for c, clause in enumerate(cnf.clauses):
            explainer.add_clause(clause + [-guard[c]] if c in guard else clause)
        explainer.solve(assumptions=[-lit] + selectors)
        index = {s: i for i, s in enumerate(selectors)}
        core = [s for s in (explainer.get_core() or []) if s in index]
        minimal, k = True, 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            explainer.conf_budget(conflicts)
            result = explainer.solve_limited(assumptions=[-lit] + trial)
            if result is False:
                kept = set(explainer.get_core() or trial)
                core = [s for s in trial if s in kept]
            else:
                minimal = minimal and result is not None
                k += 1
    order = sorted(index[s] for s in core)
    return Forced(name, value, True, tuple(groups[i][0] for i in order), minimal, lit,
                  tuple((groups[i][1], groups[i][2]) for i in order))


def certify_forced(cnf: DimacsFile, found: Forced, file: str, checker: str) -> Tally:
    """The UNSAT answers `found` rests on, each certified (logic.certify).

    The file has no model (value None); or the file with NAME's other value has none
    (NAME is forced), and so have the clauses under no `c kb` line with the chosen formulas'
    (the minimal set forces it). UncertifiedClaim where a checker rejects a proof, or an
    answer it rests on does not hold.
    """
    tally = Tally(checker)
    named = {c for _, a, b in named_formulas(cnf, file) for c in range(a, b)}
    chosen = {c for a, b in found.spans for c in range(a, b)}
    questions: list[tuple[list[list[int]], list[int], str]] = []
    if found.value is None:
        questions.append((cnf.clauses, [], "the file has no model"))
    elif found.forced:
        questions.append((cnf.clauses, [-found.literal], f"the file forces {found.name}"))
        part = [clause for c, clause in enumerate(cnf.clauses) if c not in named or c in chosen]
        questions.append((part, [-found.literal], f"the minimal set forces {found.name}"))
    for clauses, assumed, claim in questions:
        with Certified(RECHECK_SOLVER, tally=tally) as solver:
            solver.add_clauses(clauses)
            if solver.solve(assumed) is not False:
                raise UncertifiedClaim(f"{file}: {claim}, said --why, but a certifying "
                                       "solver found a model")
    return tally
