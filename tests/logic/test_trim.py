"""Trimming (logic.trim): the part of a formula and a proof a claim rests on.

- wherever the trimmer finds a part, the checker accepts the claim from that part alone
  (a property test over random small formulas and CaDiCaL's own proofs, against brute force:
  it finds one wherever propagation refutes);
- a claim propagation cannot refute (it needs lemmas) is trimmed with the proof's lemmas;
- check_steps checks a trimmed proof a step at a time, each on the clauses it names, and
  rejects steps that lean on what they may not (a dropped premise, a lemma not checked
  before, a clause the formula does not hold, a RAT step on a few clauses);
- a Certified solver takes nothing on the trimmer's word: a wrong part (the checker rejects
  it) falls back on the whole formula and proof, and a claim is still certified.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from logic_agents.logic import certify
from logic_agents.logic.certify import CHECKERS, Certified, Proof, check_claim, check_steps, parse_proof
from logic_agents.logic.trim import Core, Step, Trimmer

# the pigeonhole formula: 3 pigeons, 2 holes (p_ij: pigeon i in hole j is 2i + j - 2)
PIGEONS = [[1, 2], [3, 4], [5, 6], [-1, -3], [-1, -5], [-3, -5], [-2, -4], [-2, -6], [-4, -6]]


def _trimmer(clauses):
    trimmer = Trimmer()
    for clause in clauses:
        trimmer.add(clause)
    return trimmer


def _propagation_refutes(clauses, assumed):
    """Unit propagation, naively, to a fixpoint: whether it falsifies a clause."""
    true = set(assumed)
    if any(-a in true for a in true):
        return False  # clashing assumptions: the trimmer leaves that to the whole check
    while True:
        grew = False
        for clause in clauses:
            if any(x in true for x in clause):
                continue
            open_ = [x for x in clause if -x not in true]
            if not open_:
                return True
            if len(set(open_)) == 1:
                true.add(open_[0])
                grew = True
        if not grew:
            return False


literals = st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v]))
formulas = st.lists(st.lists(literals, min_size=1, max_size=3), min_size=1, max_size=16)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas, st.lists(literals, max_size=3, unique_by=abs))
def test_a_part_found_by_propagation_is_enough_for_the_checker(formula, assumed):
    part = _trimmer(formula).core(assumed)
    assert (part is not None) == _propagation_refutes(formula, assumed)
    if part is not None:
        assert part.lemmas == [] and [step.lemma for step in part.steps] == [None]
        found = check_claim([formula[i] for i in part.clauses], assumed, Proof([]), "drup")
        assert found.accepted, found.words
        assert check_steps(formula, assumed, [], part.steps).accepted


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas, st.lists(literals, max_size=3, unique_by=abs), st.sampled_from(CHECKERS))
def test_a_part_of_a_solvers_proof_is_enough_for_the_checker(formula, assumed, checker):
    with Solver(name="cadical195", with_proof=True, bootstrap_with=formula) as solver:
        if solver.solve(assumptions=assumed):
            return
        proof = parse_proof(solver.get_proof() or ())
    part = _trimmer(formula).core(assumed, proof.lemmas)
    if part is not None:
        # the part as one proof, and a step at a time: both accepted
        found = check_claim([formula[i] for i in part.clauses], assumed,
                            Proof([proof.lemmas[j] for j in part.lemmas]), "drup")
        assert found.accepted, found.words
        found = check_steps(formula, assumed, proof.lemmas, part.steps, checker)
        assert found.accepted and found.lemmas == len(part.lemmas), found.words
        assert len(part.clauses) <= len(formula)


def test_a_claim_that_needs_lemmas_is_trimmed_with_them():
    trimmer = _trimmer(PIGEONS)
    assert trimmer.core([]) is None  # no propagation refutes the pigeonhole formula
    with Solver(name="cadical195", with_proof=True, bootstrap_with=PIGEONS) as solver:
        assert not solver.solve()
        proof = parse_proof(solver.get_proof() or ())
    part = trimmer.core([], proof.lemmas)
    assert part is not None and part.lemmas, "the refutation leans on the solver's lemmas"
    assert check_claim([PIGEONS[i] for i in part.clauses], [],
                       Proof([proof.lemmas[j] for j in part.lemmas]), "drup").accepted
    assert check_steps(PIGEONS, [], proof.lemmas, part.steps).accepted


@pytest.mark.parametrize("checker", CHECKERS)
def test_a_step_that_leans_on_what_it_may_not_is_rejected(checker):
    # the pigeonhole refutation, its steps tampered with: each tampering rejected in words
    with Solver(name="cadical195", with_proof=True, bootstrap_with=PIGEONS) as solver:
        assert not solver.solve()
        proof = parse_proof(solver.get_proof() or ())
    steps = _trimmer(PIGEONS).core([], proof.lemmas).steps
    first, claim = steps[0], steps[-1]
    tampered = {
        "a premise dropped": [Step(first.lemma, first.clauses[1:], first.lemmas), *steps[1:]],
        "a lemma used before it is checked": [*steps[:-1], Step(None, claim.clauses,
                                                                [*claim.lemmas, 10 ** 6])],
        "a clause the formula does not hold": [Step(first.lemma, [len(PIGEONS)], []),
                                               *steps[1:]],
        "the claim not last": steps[-1:] + steps[:-1],
        "the claim missing": steps[:-1],
        "no step at all": [],
    }
    for why, broken in tampered.items():
        found = check_steps(PIGEONS, [], proof.lemmas, broken, checker)
        assert not found.accepted and found.words, why
    # a lemma on a fresh variable (RAT where no clause holds its negation) does not follow
    found = check_steps([[1, 2]], [-3], [[3]], [Step(0, [0], []), Step(None, [0], [0])],
                        checker)
    assert not found.accepted and "lemma 1 does not follow" in found.words


def test_nothing_is_taken_on_the_trimmers_word(monkeypatch):
    # a trimmer that picks the wrong clauses: the checker rejects the part, and the claim is
    # certified from the whole formula and proof
    monkeypatch.setattr(Trimmer, "core", lambda self, assumed, lemmas=(): Core(
        [0], [], [Step(None, [0], [])]))
    checked = []
    real = certify.check_claim

    def spy(formula, assumptions, proof, checker="drup"):
        found = real(formula, assumptions, proof, checker)
        checked.append((len(formula), found.accepted))
        return found

    monkeypatch.setattr(certify, "check_claim", spy)
    with Certified("cadical195") as solver:
        for clause in PIGEONS:
            solver.add_clause(clause)
        assert not solver.solve()
        assert solver.claims == solver.certified == 1
    assert checked[0] == (1, False) and checked[-1] == (len(PIGEONS), True)


def test_a_games_claims_rest_on_few_clauses():
    # a Minesweeper-like chain: exactly one of cells i, i+1 holds a dagger, for every i; the
    # claim "1 and 2 do not both" needs one clause of 198, "1 then 3" two
    chain = [c for i in range(1, 100) for c in ([i, i + 1], [-i, -(i + 1)])]
    part = _trimmer(chain).core([1, 2])
    assert part.clauses == [1] and part.lemmas == []  # ¬1 ∨ ¬2 alone refutes 1 ∧ 2
    part = _trimmer(chain).core([1, -3])
    assert sorted(tuple(chain[i]) for i in part.clauses) == [(-1, -2), (2, 3)]
