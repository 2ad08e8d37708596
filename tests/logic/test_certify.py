"""Certified answers (issue 68): every UNSAT a proved move rests on comes with a DRAT proof
that a checker sharing no code with the solver accepts.

- parse_proof reads a DRAT proof's text, and refuses what is not one at file:line:col;
- check_claim accepts a proof that derives the claim, and rejects a dropped lemma, a wrong
  literal and a truncated proof, with words, under both checkers;
- Certified certifies every UNSAT answer of a solver under assumptions, as an incremental
  solver gives them, whether the solver logs its own proof (CaDiCaL) or gets a re-check
  (Glucose, MiniSat): a property test over random small formulas, against brute force;
- satx --certify: every claim certified over random small boards, every proved cell true;
  a rejected proof fails the game in words (an UncertifiedClaim row), never a quiet pass;
- the checkers come with the `certify` extra: missing, the words say what to install.
"""

from __future__ import annotations

import itertools
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logic_agents.errors import DependencyNotInstalled, FormatError, UncertifiedClaim
from logic_agents.logic import certify
from logic_agents.logic.certify import CHECKERS, Certified, Proof, check_claim, parse_proof

# (1 ∨ 2)(1 ∨ ¬2)(¬1 ∨ 3)(¬1 ∨ ¬3): no model; `1` follows by one resolution, then nothing
FORMULA = [[1, 2], [1, -2], [-1, 3], [-1, -3]]
PROOF = ["1 0", "0"]


@pytest.mark.parametrize("checker", CHECKERS)
def test_a_proof_that_derives_the_claim_is_accepted(checker):
    found = check_claim(FORMULA, [], parse_proof(PROOF), checker)
    assert found.accepted and found.lemmas == 2 and found.checker == checker
    # (1 ∨ 2)(¬1 ∨ 3) under ¬2 and ¬3: unit propagation alone refutes it; the claim is 2 ∨ 3
    found = check_claim([[1, 2], [-1, 3]], [-2, -3], Proof([]), checker)
    assert found.accepted, found.words


# no model: 1 ∨ 2 then 1 (each by unit propagation), then 4 under 1, then nothing: each
# lemma is needed, in its order
HARDER = [[1, 2, 3], [1, 2, -3], [1, -2, 3], [1, -2, -3],
          [-1, 4, 5], [-1, 4, -5], [-1, -4, 5], [-1, -4, -5]]
HARDER_PROOF = ["1 2 0", "1 0", "-1 4 0", "0"]


@pytest.mark.parametrize("checker", CHECKERS)
def test_a_proof_whose_every_lemma_is_needed_is_accepted(checker):
    assert check_claim(HARDER, [], parse_proof(HARDER_PROOF), checker).accepted


@pytest.mark.parametrize("checker", CHECKERS)
@pytest.mark.parametrize("broken, why", [
    (["1 0", "-1 4 0", "0"], "a dropped lemma"),
    (["1 -4 0", "1 0", "-1 4 0", "0"], "a wrong literal"),
    (["1 2 0"], "a truncated proof (what it derived is not enough)"),
    (["0"], "no lemma at all"),
])
def test_a_corrupted_proof_is_rejected_with_words(checker, broken, why):
    found = check_claim(HARDER, [], parse_proof(broken), checker)
    assert not found.accepted, why
    assert found.words.startswith(f"{checker} rejected the proof at step "), found.words


@pytest.mark.parametrize("checker", CHECKERS)
def test_a_claim_that_does_not_follow_is_rejected(checker):
    # (1 ∨ 2) has a model with 2 true: the claim ¬2 does not follow, whatever the proof
    found = check_claim([[1, 2]], [2], Proof([]), checker)
    assert not found.accepted and found.words


@pytest.mark.parametrize("text, col, words", [
    ("1 -2", 5, "ends with 0"),  # truncated mid-line
    ("1 x 0", 3, "'x' is not a literal"),
    ("1 0 2 0", 3, "0 inside a clause"),
    ("\x00\x01", 3, "ends with 0"),  # a binary proof
])
def test_a_proof_that_does_not_read_is_refused_at_its_line(text, col, words):
    with pytest.raises(FormatError, match=words) as caught:
        parse_proof(["c a comment", "1 0", text], "p.drat")
    assert (caught.value.file, caught.value.line, caught.value.col) == ("p.drat", 3, col)


def test_deletions_are_counted_and_dropped():
    proof = parse_proof(["d 1 2 0", "1 0", "d 1 0", "0"])
    assert proof.lemmas == [[1], []] and proof.deletions == 2


def _models(clauses: list[list[int]], top: int, assumed: list[int]) -> bool:
    """Whether the clauses have a model with every assumed literal true (brute force)."""
    for bits in itertools.product((False, True), repeat=top):
        value = {v + 1: b for v, b in enumerate(bits)}
        if all(value[abs(a)] == (a > 0) for a in assumed) and \
                all(any(value[abs(x)] == (x > 0) for x in c) for c in clauses):
            return True
    return False


literals = st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v]))
clauses = st.lists(st.lists(literals, min_size=1, max_size=3), min_size=1, max_size=14)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clauses, st.lists(st.lists(literals, max_size=3), min_size=1, max_size=6),
       st.sampled_from(["cadical195", "glucose4", "minisat22"]), st.sampled_from(CHECKERS))
def test_every_unsat_answer_of_an_incremental_solver_is_certified(formula, asked, name,
                                                                   checker):
    solver = Certified(name, checker)
    given: list[list[int]] = []
    unsat = 0
    try:
        for k, assumed in enumerate(asked):
            for clause in formula[k::len(asked)]:  # clauses come between the questions
                solver.add_clause(clause)
                given.append(clause)
            answer = solver.solve(assumed)
            assert answer == _models(given, 6, assumed)
            unsat += not answer
        assert solver.claims == solver.certified == unsat  # each one checked, each accepted
    finally:
        solver.delete()


def test_a_rejected_proof_is_a_loud_failure(monkeypatch):
    solver = Certified("cadical195")
    for clause in FORMULA:
        solver.add_clause(clause)
    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 0, "drup", 0.0, "drup rejected the proof at step 1: the empty clause does not "
        "follow"))
    with pytest.raises(UncertifiedClaim, match="rejected the proof at step 1"):
        solver.solve([])
    assert solver.claims == 1 and solver.certified == 0


def test_a_missing_checker_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "drup", None)  # an import of it raises ImportError
    with pytest.raises(DependencyNotInstalled, match=r"logic-agents\[certify\]"):
        check_claim(FORMULA, [], parse_proof(PROOF), "drup")
    monkeypatch.setitem(sys.modules, "dratify", None)
    with pytest.raises(DependencyNotInstalled, match=r"logic-agents\[certify\]"):
        check_claim(FORMULA, [], parse_proof(PROOF), "dratify")


def test_an_unknown_checker_is_refused_before_any_claim():
    from logic_agents.errors import UsageError

    with pytest.raises(UsageError, match="choose one of drup, dratify"):
        Certified("cadical195", "drat-trim")
