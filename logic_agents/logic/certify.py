"""Certified answers: each UNSAT a claim rests on, checked by a proof checker.

The checker shares no code with the solver. A SAT agent that calls a cell safe asked its
solver whether the cell can hold a dagger, and heard "unsatisfiable". Certified, that answer
comes with a DRAT proof that a checker accepts: in SAT competitions an UNSAT answer counts
only so.

Concepts:
- Claim: what an UNSAT answer under assumptions says: the clauses the solver had imply the
  clause that negates the assumptions it failed under (`¬a1 ∨ ... ∨ ¬ak`; no assumptions:
  the clauses have no model). A certificate proves the clauses imply it, not that they are
  faithful to a game's rules (that is the encodings' own, tested claim).
- Proof: a DRAT proof's lemmas, read from a solver's lines or a file (parse_proof: file:line
  errors); deletions are counted and dropped (a checker that keeps every clause checks each
  lemma against more, never fewer).
- check_claim(formula, assumptions, lemmas, checker): the checker sees the formula with the
  assumptions as unit clauses, the solver's lemmas, then the claim's clause derived, then
  the empty clause. A Certificate: accepted or not, the proof's size, the checker's time,
  and when rejected, why.
- CHECKERS: `drup` (the default; its core verified in Why3 and extracted to native code) and
  `dratify` (an independent pure-Python checker). Both come with the `certify` extra,
  imported when a proof is first checked.
- Certified: a PySAT solver whose every UNSAT answer is certified as it is given. It keeps
  the clauses the solver was given (in the solver's own numbering, so a Renumbered solver
  above it changes nothing). A solver whose own proof holds under assumptions (CaDiCaL,
  Lingeling: OWN_PROOF) is asked for it; any other (Glucose, whose proofs under
  assumptions were rejected on 20 of 29 claims measured; MiniSat, which logs none) gets
  a certified re-check on CaDiCaL 1.9.5 (RECHECK_SOLVER). The checker is first shown only
  the clauses and lemmas the claim rests on (logic.trim: a verified checker is slow, and a
  game's claims rest on a handful of its clauses); where that part does not check, the
  whole. A proof the checker rejects raises UncertifiedClaim: a loud failure, never a quiet
  pass.
- certifying(checker): a block in which every solver logic.solvers opens is Certified, its
  claims counted in a Tally (solve and generate certify a game's own solving so).
- prove_literals(formula, literals) / check_proof_file(formula, proof): a file's proof, as
  `cnf --proof` writes it (the lemmas, then each proved literal as a unit clause) and
  `inspect --check-proof` checks it (a refutation, or the units it ends with, each a claim).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from logic_agents.errors import DependencyNotInstalled, FormatError, UncertifiedClaim, UsageError
from logic_agents.logic.trim import Step, Trimmer

CHECKERS = ("drup", "dratify")
DEFAULT_CHECKER = "drup"
# solvers whose own DRAT proof, read after an UNSAT answer under assumptions, checks (the
# proof is the solver's whole proof so far: incremental answers are certified as they come)
OWN_PROOF = ("cadical103", "cadical153", "cadical195", "lingeling")
RECHECK_SOLVER = "cadical195"
# the checkers shown a trimmed proof a step at a time (check_steps): drup propagates by
# scanning every clause it holds, so one check of a thousand lemmas costs a thousand times
# the clauses; dratify's cost is its setup, so it gets the trimmed part in one check
BY_STEP = ("drup",)
INSTALL = "pip install 'logic-agents[certify]'"
# what a Certified solver passes through as it is: reads and search bounds, no clause
PASSED = frozenset({"get_model", "propagate", "conf_budget", "prop_budget", "interrupt",
                    "clear_interrupt", "accum_stats", "nof_vars", "nof_clauses", "get_status",
                    "set_phases", "configure", "time", "time_accum", "get_proof"})
# the comment a proof written by `cnf --proof` puts before the literals it proves (a unit
# clause each); a checker that reads DRAT takes it for a comment
PROVES = "c proves"


@dataclass(frozen=True)
class Proof:
    """A DRAT proof's lemmas (the clauses it adds) and how many clauses it deleted."""

    lemmas: list[list[int]]
    deletions: int = 0
    claims_from: int | None = None  # the lemma a `c proves` line stands before (PROVES)


@dataclass(frozen=True)
class Certificate:
    """What the checker said of one claim."""

    accepted: bool
    lemmas: int  # the proof's size: the clauses the solver derived
    checker: str
    check_s: float  # the checker's CPU time
    words: str = ""  # why it was rejected


def parse_proof(lines: Iterable[str], source: str = "<proof>") -> Proof:
    """The lemmas of a DRAT proof in text (`1 -2 0`, `d 1 -2 0`, `c ...` comments).

    Raises FormatError at file:line:col on anything else: a literal that is not a whole
    number, a clause without its closing 0, a binary proof.
    """
    lemmas: list[list[int]] = []
    deletions = 0
    claims_from = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith(PROVES) and claims_from is None:
            claims_from = len(lemmas)
        if not line or line.startswith("c"):
            continue
        deleted = line.startswith("d")
        words = line[1:].split() if deleted else line.split()
        if not words or words[-1] != "0":
            raise FormatError("a proof line ends with 0 (a truncated proof, or a binary one)",
                              source, number, len(raw.rstrip()) + 1)
        clause = []
        col = raw.find(words[0]) + 1
        for word in words[:-1]:
            col = raw.find(word, col - 1) + 1
            try:
                literal = int(word)
            except ValueError:
                raise FormatError(f"{word[:20]!r} is not a literal", source, number,
                                  col) from None
            if literal == 0:
                raise FormatError("0 inside a clause (each line holds one clause)", source,
                                  number, col)
            clause.append(literal)
        if deleted:
            deletions += 1
        else:
            lemmas.append(clause)
    return Proof(lemmas, deletions, claims_from)


def check_claim(formula: Sequence[Sequence[int]], assumptions: Sequence[int],
                proof: Proof, checker: str = DEFAULT_CHECKER) -> Certificate:
    """Whether `proof` certifies that `formula` implies the clause negating `assumptions`.

    The checker is given the formula and a unit clause for each assumption, then the
    proof's lemmas, the claim's clause and the empty clause, and must accept each step.
    """
    check = _checker(checker)
    units = [[a] for a in assumptions]
    claim = [-a for a in assumptions]
    steps = [*proof.lemmas, claim] + ([[]] if claim else [])
    started = time.process_time()
    accepted, words = check([*(list(c) for c in formula), *units], steps)
    return Certificate(accepted, len(proof.lemmas), checker, time.process_time() - started,
                       words)


def check_steps(formula: Sequence[Sequence[int]], assumptions: Sequence[int],
                lemmas: Sequence[Sequence[int]], steps: Sequence[Step],
                checker: str = DEFAULT_CHECKER) -> Certificate:
    """Whether `steps` certify that `formula` implies the clause negating `assumptions`.

    A step at a time, as an LRAT checker checks a proof with hints: each lemma must follow
    from the assumptions, the formula's clauses and the already checked lemmas its step
    names, and the last step (the claim) likewise. Each step is its own check_claim: the
    checker refutes the named clauses under the assumptions and the lemma's negation, with
    no lemma of its own, so only reverse unit propagation can pass it (a RAT step, sound on
    the whole formula only, cannot). What is ours here is the bookkeeping: a step names
    only clauses of `formula` and lemmas checked before it, and the claim comes last.
    """
    checked: set[int] = set()
    spent = 0.0
    for number, step in enumerate(steps, start=1):
        last = number == len(steps)
        if (step.lemma is None) != last or not set(step.lemmas) <= checked or any(
                not 0 <= i < len(formula) for i in step.clauses):
            return Certificate(False, len(checked), checker, spent, f"step {number} of the "
                               "trimmed proof names a clause it may not lean on")
        negated = [] if step.lemma is None else [-lit for lit in lemmas[step.lemma]]
        found = check_claim([*(formula[i] for i in step.clauses),
                             *(lemmas[j] for j in step.lemmas)], [*assumptions, *negated],
                            Proof([]), checker)
        spent += found.check_s
        if not found.accepted:
            what = "the claim" if step.lemma is None else f"lemma {step.lemma + 1}"
            return Certificate(False, len(checked), checker, spent,
                               f"{what} does not follow from the clauses it names: "
                               f"{found.words}")
        if step.lemma is not None:
            checked.add(step.lemma)
    return Certificate(bool(steps), len(checked), checker, spent,
                       "" if steps else "no step to check")


Check = Callable[[list[list[int]], list[list[int]]], tuple[bool, str]]  # (formula, steps)


def _checker(name: str) -> Check:
    """The check function of checker `name`: (formula, steps) -> (accepted, words)."""
    if name not in CHECKERS:
        raise UsageError(f"unknown proof checker {name!r}; choose one of {', '.join(CHECKERS)}")
    return _drup if name == "drup" else _dratify


def _drup(formula: list[list[int]], steps: list[list[int]]) -> tuple[bool, str]:
    try:
        import drup
    except (ImportError, OSError) as e:  # OSError: its native library does not load here
        raise DependencyNotInstalled(
            f"certified answers need the proof checker drup ({e}): {INSTALL}; where it does "
            "not load (it ships for Linux x86-64), choose --checker dratify") from None
    result = drup.check_proof(formula, steps, verbose=True)
    if result.outcome == drup.Outcome.VALID:
        return True, ""
    failed = result.rup_info.clause if result.rup_info is not None else None
    done = len(list(result.steps)) if result.steps is not None else None
    where = f" at step {done + 1}" if done is not None else ""
    clause = f": {_clause_words(failed)} does not follow" if failed is not None else ""
    return False, f"drup rejected the proof{where}{clause}"


def _dratify(formula: list[list[int]], steps: list[list[int]]) -> tuple[bool, str]:
    try:
        import dratify
    except ImportError:
        raise DependencyNotInstalled(f"certified answers need the proof checker dratify: "
                                     f"{INSTALL}") from None
    top = max((abs(x) for c in [*formula, *steps] for x in c), default=0)
    text = "".join(" ".join(map(str, c)) + " 0\n" for c in formula)
    cnf = dratify.parse_dimacs(f"p cnf {top} {len(formula)}\n{text}")
    result = dratify.check_proof(cnf, "".join(" ".join(map(str, c)) + " 0\n" for c in steps),
                                 engine="python")
    if result.ok:
        return True, ""
    where = f" at step {result.failed_step}" if result.failed_step > 0 else ""  # from 1
    return False, f"dratify rejected the proof{where}: {result.reason}"


def _clause_words(clause: object) -> str:
    """A clause as DIMACS writes it (drup's own structure, or a list): `the clause 1 -2 0`."""
    try:
        lits = [int(clause.lits[i]) for i in range(clause.len)]  # type: ignore[attr-defined]
    except AttributeError:
        lits = [int(x) for x in clause] if isinstance(clause, (list, tuple)) else []
    return "the empty clause" if not lits else \
        "the clause " + " ".join(str(lit) for lit in lits) + " 0"


@dataclass
class Tally:
    """What certifying counted, and with which checker.

    Claims, those certified, the proofs' lemmas, the checker's CPU time: a game's, a
    `certifying` block's, or one solver's own.
    """

    checker: str = DEFAULT_CHECKER
    claims: int = 0
    certified: int = 0
    lemmas: int = 0
    check_s: float = 0.0


_CERTIFYING: ContextVar[Tally | None] = ContextVar("certifying", default=None)


@contextlib.contextmanager
def certifying(checker: str = DEFAULT_CHECKER) -> Iterator[Tally]:
    """A block in which every solver opened (logic.solvers.open_solver) is Certified.

    With `checker`, its claims counted in the Tally yielded: how `solve --certify` certifies
    a game's own solving, whatever solvers it opens.
    """
    _checker(checker)
    tally = Tally(checker)
    token = _CERTIFYING.set(tally)
    try:
        yield tally
    finally:
        _CERTIFYING.reset(token)


def certifying_now() -> Tally | None:
    """The Tally of the `certifying` block this code runs in, or None."""
    return _CERTIFYING.get()


class Certified:
    """A PySAT solver whose every UNSAT answer is certified as it is given (see the module).

    Its `tally` counts them: the UNSAT answers (`claims`), those the checker accepted (all of
    them: a rejection raises), the proofs' lemmas and the checker's CPU time.
    """

    def __init__(self, name: str, checker: str = DEFAULT_CHECKER, tally: Tally | None = None):
        """A solver `name` (proof logging on where it holds under assumptions).

        Its claims are counted in `tally` (a game's, a `certifying` block's; one of its own
        by default), whose checker checks them.
        """
        from pysat.solvers import Solver

        self.tally = tally if tally is not None else Tally(checker)
        self.checker = self.tally.checker
        _checker(self.checker)  # an unknown checker refused now, not at the first claim
        self.name = name
        self.own = name in OWN_PROOF
        self._solver: Any = Solver(name=name, with_proof=True) if self.own else Solver(name=name)
        self.trimmer = Trimmer()  # the clauses given, kept for the checker (and trimmed)

    @property
    def given(self) -> list[tuple[int, ...]]:
        """The clauses the solver was given, in its own numbering."""
        return self.trimmer.clauses

    @property
    def claims(self) -> int:
        """The UNSAT answers counted in its tally."""
        return self.tally.claims

    @property
    def certified(self) -> int:
        """Those the checker accepted."""
        return self.tally.certified

    def add_clause(self, clause: Iterable[int]) -> None:
        """The clause, kept for the checker."""
        lits = list(clause)
        self.trimmer.add(lits)
        self._solver.add_clause(lits)

    def add_clauses(self, clauses: Iterable[Iterable[int]], top: int | None = None) -> None:
        """Each clause, kept for the checker."""
        for clause in clauses:
            self.add_clause(clause)

    def add_atmost(self, lits: list[int], k: int) -> None:
        """Refused: a native cardinality constraint is no clause a DRAT checker reads."""
        raise UsageError(f"{self.name}'s native at-most constraints cannot be certified; "
                         "certify with a solver that takes clauses (cadical195)")

    def solve(self, assumptions: Iterable[int] = ()) -> bool:
        """The solver's answer; an UNSAT one is certified before it is returned."""
        lits = list(assumptions)
        answer: bool = self._solver.solve(assumptions=lits)
        if answer is False:
            self._certify(lits)
        return answer

    def solve_limited(self, assumptions: Iterable[int] = (),
                      expect_interrupt: bool = False) -> bool | None:
        """The solver's solve_limited; an UNSAT answer is certified (None: interrupted)."""
        lits = list(assumptions)
        answer: bool | None = self._solver.solve_limited(assumptions=lits,
                                                         expect_interrupt=expect_interrupt)
        if answer is False:
            self._certify(lits)
        return answer

    def _certify(self, assumptions: list[int]) -> None:
        """Check the last UNSAT answer's claim; UncertifiedClaim when it is rejected."""
        core = self._solver.get_core() if assumptions else None
        failed = sorted(set(core if core is not None else assumptions), key=abs)
        tally = self.tally
        tally.claims += 1
        certificate = self._checked(failed)
        tally.lemmas += certificate.lemmas
        if not certificate.accepted:
            raise UncertifiedClaim(f"{self.name} answered unsatisfiable under "
                                   f"{len(failed)} assumptions, and {certificate.words}")
        tally.certified += 1

    def _checked(self, failed: list[int]) -> Certificate:
        """The checker's word on the claim under `failed`: the first certificate it accepts.

        First the few clauses propagation finds the claim rests on (most of a game's claims
        need no lemma); then the solver's proof, trimmed, then whole; a proof-logging
        solver's whole proof (every claim's lemmas so far, some derived under assumptions
        since dropped) rejected, a fresh solver's proof of this claim alone. The last
        word, accepted or not, is the answer: nothing is taken on the trimmer's word.
        """
        found = self._trimmed_check(failed, Proof([]))
        if found is not None and found.accepted:
            return found

        def own() -> Proof:
            return parse_proof(self._solver.get_proof() or (), f"{self.name}'s proof")

        def fresh() -> Proof:
            return recheck(self.given, failed)

        certificate = found
        for proof_of in (own, fresh) if self.own else (fresh,):
            proof = proof_of()
            certificate = self._trimmed_check(failed, proof)
            if certificate is None or not certificate.accepted:
                certificate = self._check(self.given, failed, proof)
            if certificate.accepted:
                return certificate
        assert certificate is not None  # the re-check always yields a certificate
        return certificate

    def _trimmed_check(self, failed: list[int], proof: Proof) -> Certificate | None:
        """The checker's word on the part of the formula and proof the claim rests on.

        None where the trimmer finds no such part (propagation with the proof's lemmas does
        not refute the assumptions).
        """
        part = self.trimmer.core(failed, proof.lemmas)
        if part is None:
            return None
        if self.checker in BY_STEP:
            certificate = check_steps(self.given, failed, proof.lemmas, part.steps,
                                      self.checker)
            self.tally.check_s += certificate.check_s
            return certificate
        given = self.given
        return self._check([given[i] for i in part.clauses], failed,
                           Proof([proof.lemmas[j] for j in part.lemmas]))

    def _check(self, formula: Sequence[Sequence[int]], failed: list[int],
               proof: Proof) -> Certificate:
        """check_claim, its time counted in the tally."""
        certificate = check_claim(formula, failed, proof, self.checker)
        self.tally.check_s += certificate.check_s
        return certificate

    def append_formula(self, clauses: Iterable[Iterable[int]]) -> None:
        """Each clause, kept for the checker."""
        self.add_clauses(clauses)

    def supports_atmost(self) -> bool:
        """No: a native cardinality constraint is no clause a checker reads (add_atmost)."""
        return False

    def get_core(self) -> list[int] | None:
        """The failed assumptions of the last UNSAT answer."""
        core: list[int] | None = self._solver.get_core()
        return core

    def delete(self) -> None:
        """Free the solver."""
        self._solver.delete()

    def __enter__(self) -> Certified:
        """The solver itself; it is freed when the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Free it."""
        self.delete()

    def __getattr__(self, name: str) -> Any:
        """What reads the solver or bounds its search (PASSED), as it is; nothing else.

        A way to give it clauses the checker would not see (the raw `solver` handle, a
        native constraint) fails closed.
        """
        if name in PASSED:
            return getattr(self._solver, name)
        raise AttributeError(f"a certified solver does not open {name!r}: what it is given "
                             "must reach the proof checker too")


def recheck(formula: Sequence[Sequence[int]], assumptions: Sequence[int]) -> Proof:
    """A proof of the claim from a fresh CaDiCaL 1.9.5, for a solver that logs none.

    UncertifiedClaim where the re-check finds a model: the answer it re-checks was wrong.
    """
    lines = _proved([*formula, *([a] for a in assumptions)], [[]],
                    f"a re-check on {RECHECK_SOLVER} found a model: the unsatisfiable answer "
                    "was wrong")
    return parse_proof(lines, f"{RECHECK_SOLVER}'s proof")


def prove_literals(formula: Sequence[Sequence[int]], literals: Sequence[int]) -> list[str]:
    """A DRAT proof, from CaDiCaL 1.9.5, that `formula` implies each of `literals`.

    The solver's lemmas, then a PROVES comment and each literal as a unit clause (what
    check_proof_file reads back). UncertifiedClaim where a literal does not follow (the
    verdict it stands for was wrong).
    """
    lines = _proved(formula, [[-literal] for literal in literals],
                    "a literal does not follow from the formula: the verdict it stands for "
                    "was wrong")
    return [*lines, f"{PROVES} {len(literals)} literal(s), a unit clause each",
            *(f"{literal} 0" for literal in literals)]


def _proved(formula: Sequence[Sequence[int]], questions: Sequence[Sequence[int]],
            wrong: str) -> list[str]:
    """The proof lines of a fresh CaDiCaL 1.9.5 that answered UNSAT under each question.

    Each of `questions` is a list of assumptions; UncertifiedClaim (`wrong`) where one has a
    model.
    """
    from pysat.solvers import Solver

    with Solver(name=RECHECK_SOLVER, with_proof=True, bootstrap_with=list(formula)) as solver:
        for assumed in questions:
            if solver.solve(assumptions=list(assumed)):
                raise UncertifiedClaim(wrong)
        return list(solver.get_proof() or ())


def check_proof_file(formula: Sequence[Sequence[int]], proof: Proof,
                     checker: str = DEFAULT_CHECKER,
                     name_of: Callable[[int], str] = str) -> tuple[Certificate, list[int]]:
    """Check a proof as `inspect --check-proof` reads one.

    A refutation (it ends with the empty clause: the formula has no model), or a proof of
    the unit clauses after its PROVES line (another tool's: that it ends with), each
    literal checked as a claim of its own, so a RAT step cannot make it pass. Returns the
    certificate and the literals proved ([] for a refutation).
    """
    lemmas = proof.lemmas
    if lemmas and not lemmas[-1]:
        return check_claim(formula, [], Proof(lemmas[:-1]), checker), []
    start = proof.claims_from
    if start is None:  # another tool's: the unit clauses it ends with, each a claim
        start = len(lemmas)
        while start > 0 and len(lemmas[start - 1]) == 1:
            start -= 1
    if any(len(clause) != 1 for clause in lemmas[start:]):
        return Certificate(False, len(lemmas), checker, 0.0, f"after `{PROVES}` a proof holds "
                           "unit clauses only, one for each literal it proves"), []
    units = list(dict.fromkeys(clause[0] for clause in lemmas[start:]))
    if not units:
        return Certificate(False, len(lemmas), checker, 0.0, "the proof ends neither with the "
                           "empty clause (a refutation) nor with the unit clauses it proves"), []
    spent = 0.0
    for literal in units:
        found = check_claim(formula, [-literal], Proof(lemmas[:start]), checker)
        spent += found.check_s
        if not found.accepted:
            return Certificate(False, len(lemmas), checker, spent,
                               f"{name_of(literal)} does not follow: {found.words}"), units
    return Certificate(True, len(lemmas), checker, spent), units
