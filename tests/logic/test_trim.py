"""Trimming (logic.trim): the part of a formula and a proof a claim rests on.

- wherever the trimmer finds a part, the checker accepts the claim from that part alone
  (a property test over random small formulas and CaDiCaL's own proofs, against brute force:
  it finds one wherever propagation refutes);
- a claim propagation cannot refute (it needs lemmas) is trimmed with the proof's lemmas;
- a Certified solver takes nothing on the trimmer's word: a wrong part (the checker rejects
  it) falls back on the whole formula and proof, and a claim is still certified.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from logic_agents.logic import certify
from logic_agents.logic.certify import Certified, Proof, check_claim, parse_proof
from logic_agents.logic.trim import Trimmer

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
        clauses, lemmas = part
        assert lemmas == []
        found = check_claim([formula[i] for i in clauses], assumed, Proof([]), "drup")
        assert found.accepted, found.words


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas, st.lists(literals, max_size=3, unique_by=abs))
def test_a_part_of_a_solvers_proof_is_enough_for_the_checker(formula, assumed):
    with Solver(name="cadical195", with_proof=True, bootstrap_with=formula) as solver:
        if solver.solve(assumptions=assumed):
            return
        proof = parse_proof(solver.get_proof() or ())
    part = _trimmer(formula).core(assumed, proof.lemmas)
    if part is not None:
        clauses, lemmas = part
        found = check_claim([formula[i] for i in clauses], assumed,
                            Proof([proof.lemmas[j] for j in lemmas]), "drup")
        assert found.accepted, found.words
        assert len(clauses) <= len(formula) and len(lemmas) <= len(proof.lemmas)


def test_a_claim_that_needs_lemmas_is_trimmed_with_them():
    trimmer = _trimmer(PIGEONS)
    assert trimmer.core([]) is None  # no propagation refutes the pigeonhole formula
    with Solver(name="cadical195", with_proof=True, bootstrap_with=PIGEONS) as solver:
        assert not solver.solve()
        proof = parse_proof(solver.get_proof() or ())
    clauses, lemmas = trimmer.core([], proof.lemmas)
    assert lemmas, "the refutation leans on the solver's lemmas"
    assert check_claim([PIGEONS[i] for i in clauses], [],
                       Proof([proof.lemmas[j] for j in lemmas]), "drup").accepted


def test_nothing_is_taken_on_the_trimmers_word(monkeypatch):
    # a trimmer that picks the wrong clauses: the checker rejects the part, and the claim is
    # certified from the whole formula and proof
    monkeypatch.setattr(Trimmer, "core", lambda self, assumed, lemmas=(): ([0], []))
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
    assert _trimmer(chain).core([1, 2]) == ([1], [])  # ¬1 ∨ ¬2 alone refutes 1 ∧ 2
    clauses, lemmas = _trimmer(chain).core([1, -3])
    assert sorted(tuple(chain[i]) for i in clauses) == [(-1, -2), (2, 3)] and lemmas == []
