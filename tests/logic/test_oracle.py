"""SatOracle agrees with brute force, stays reusable, and refuses what it cannot do."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP

from logic_agents.errors import SolverError, UnknownName
from logic_agents.logic.formula import AtLeast, AtMost, Exactly, sym
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle, Verdict

N = 5
clauses_strategy = st.lists(
    st.lists(st.integers(1, N).flatmap(lambda v: st.sampled_from([v, -v])), min_size=1, max_size=3),
    min_size=1,
    max_size=10,
)


def brute_models(clauses):
    return [
        bits
        for bits in itertools.product([False, True], repeat=N)
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in c) for c in clauses)
    ]


def fresh_kb():
    kb = KnowledgeBase()
    for i in range(1, N + 1):
        kb.var(("v", i))
    return kb


@settings(max_examples=200, deadline=None)
@given(clauses_strategy, st.sampled_from(["glucose4", "cadical195", "minisat22"]))
def test_verdicts_and_backbone_match_brute_force(clauses, solver):
    models = brute_models(clauses)
    kb = fresh_kb()
    kb.tell(*clauses)
    with SatOracle(kb, solver) as oracle:
        assert oracle.satisfiable() == bool(models)
        if not models:
            return
        keys = [("v", i) for i in range(1, N + 1)]
        backbone = oracle.backbone(keys)
        for i, key in enumerate(keys):
            values = {m[i] for m in models}
            want = {frozenset({True}): Verdict.TRUE, frozenset({False}): Verdict.FALSE}.get(
                frozenset(values), Verdict.UNKNOWN)
            assert oracle.verdict(key) is want
            assert backbone[key] is want
            assert oracle.entails(kb.var(key)) == (values == {True})
        found = oracle.models(limit=100)
        assert len(found) == len(models)
        # enumeration left nothing behind: the same questions get the same answers
        assert oracle.satisfiable()
        assert len(oracle.models(limit=100)) == len(models)


def test_incremental_growth_through_kb():
    kb = KnowledgeBase()
    a, b, c = sym("a"), sym("b"), sym("c")
    kb.tell(Exactly(1, a, b, c))
    with SatOracle(kb) as oracle:
        assert oracle.verdict("a") is Verdict.UNKNOWN
        kb.tell(~b, ~c)
        assert oracle.verdict("a") is Verdict.TRUE
        assert oracle.model() == {"a": True, "b": False, "c": False}
        assert oracle.calls > 0


def test_verdict_is_not_truthy():
    with pytest.raises(TypeError):
        bool(Verdict.TRUE)


def test_kissat_is_refused_and_unknown_solver_named():
    with pytest.raises(SolverError, match="assumptions"):
        SatOracle(KnowledgeBase(), "kissat404")
    with pytest.raises(UnknownName, match="glucose4"):
        SatOracle(KnowledgeBase(), "nosuchsolver")
    with pytest.raises(SolverError, match="interrupt"):
        SatOracle(KnowledgeBase(), "cadical195", time_budget=1.0)


def test_time_budget_gives_unknown_with_reason():
    kb = KnowledgeBase()
    hard = PHP(9)
    for v in range(1, hard.nv + 1):
        kb.var(("p", v))
    kb.tell(*hard.clauses)
    with SatOracle(kb, "glucose4", time_budget=0.2) as oracle:
        assert oracle.verdict(("p", 1)) is Verdict.UNKNOWN
        assert "time-out" in oracle.last_reason
        # the solver is still usable afterwards
        assert oracle.solve([kb.var(("p", 1))]) in (None, False)


def test_scoped_formulas_hold_only_inside_and_leave_the_solver_reusable():
    kb = KnowledgeBase()
    xs = [sym(("x", i)) for i in range(12)]
    kb.tell(AtLeast(2, *xs))
    with SatOracle(kb) as oracle:
        assert oracle.verdict(("x", 0)) is Verdict.UNKNOWN
        with oracle.scoped(AtMost(2, *xs), ~xs[1], ~xs[2]) as selector:
            assert oracle.assumed == [selector]
            assert oracle.verdict(("x", 3)) is Verdict.UNKNOWN
            with oracle.scoped(*[~x for x in xs[3:]]):
                assert oracle.verdict(("x", 0)) is Verdict.TRUE
            assert oracle.verdict(("x", 0)) is Verdict.UNKNOWN
        assert oracle.assumed == []
        assert oracle.verdict(("x", 1)) is Verdict.UNKNOWN  # the scope is retired
        with oracle.scoped(Exactly(0, *xs)):
            assert not oracle.satisfiable()
        assert oracle.satisfiable()
        assert any(str(f).startswith("Implies(SEL_") for f in kb.formulas)


@settings(max_examples=200, deadline=None)
@given(clauses_strategy, st.integers(0, 10**6), st.sampled_from(["glucose4", "cadical195"]))
def test_a_renumbered_oracle_answers_as_the_plain_one(clauses, seed, solver):
    """shuffle= renumbers the variables and shuffles the clauses and their literals inside the
    solver; every answer comes back in the KB's own numbering: the same verdicts, every
    model one of the formula's, the whole enumeration, and what propagation implies."""
    models = brute_models(clauses)
    kb = fresh_kb()
    kb.tell(*clauses)
    with SatOracle(kb, solver, shuffle=seed) as oracle:
        assert oracle.satisfiable() == bool(models)
        if not models:
            return
        model = oracle.raw_model()  # variables no clause names are left out, as unshuffled
        assert tuple(i < len(model) and model[i] > 0 for i in range(N)) in models
        assert len(oracle.models(limit=100)) == len(models)
        for i in range(1, N + 1):
            want = {m[i - 1] for m in models}
            assert oracle.entails(i) == (want == {True})
    # propagation on fresh oracles (what one learnt at level 0 it no longer reports)
    with SatOracle(kb, solver, shuffle=seed) as oracle, SatOracle(kb, solver) as plain:
        for lit in (1, -1, 2, -3):
            ok, implied = oracle.propagate([lit])
            plain_ok, plain_implied = plain.propagate([lit])
            assert ok == plain_ok
            if ok:
                assert set(implied) == set(plain_implied)


def test_the_environment_renumbers_every_oracle(monkeypatch):
    """LOGIC_AGENTS_SHUFFLE=N renumbers every oracle a process makes (any command or
    benchmark run again with other luck); the answers stay right; a bad value is refused."""
    from logic_agents.errors import UsageError
    from logic_agents.logic.renumber import Renumbered

    kb = fresh_kb()
    kb.tell([1, 2], [-1, 3], [-2, -3])
    monkeypatch.setenv("LOGIC_AGENTS_SHUFFLE", "5")
    with SatOracle(kb) as oracle:
        assert isinstance(oracle._solver, Renumbered)
        assert oracle.satisfiable() and len(oracle.models(limit=10)) == len(
            brute_models([[1, 2], [-1, 3], [-2, -3]]))
    monkeypatch.setenv("LOGIC_AGENTS_SHUFFLE", "five")
    with pytest.raises(UsageError, match="LOGIC_AGENTS_SHUFFLE"):
        SatOracle(kb)


@settings(max_examples=200, deadline=None)
@given(clauses_strategy, st.integers(0, 10**6), st.booleans())
def test_a_batch_renumbered_at_once_keeps_the_formula(clauses, seed, give_top):
    """Renumbered.add_clauses (one renumbering for a whole batch, as the Undead seen core
    uses it) hands the solver the same formula: every model it enumerates, mapped back, is
    one of the formula's, and it finds them all."""
    import random

    from pysat.solvers import Solver

    from logic_agents.logic.renumber import Renumbered

    models = brute_models(clauses)
    solver = Renumbered(Solver(name="cadical195"), random.Random(seed))
    solver.add_clauses([list(c) for c in clauses], N if give_top else None)
    found = set()
    while solver.solve():
        model = solver.get_model()
        point = tuple(i < len(model) and model[i] > 0 for i in range(N))
        assert point in models
        found.add(point)
        solver.add_clause([-(i + 1) if value else i + 1 for i, value in enumerate(point)])
    solver.delete()
    assert found == set(models)


def test_a_budget_of_no_conflicts_searches_nothing():
    """Issue 55: pysat's solvers read conf_budget(0) as no budget at all, so a caller's
    "no conflicts, go straight to the other path" (sudoku's core_after = 0) searched without
    end. A bound under 1 now answers None at once; a bound of 1 still searches."""
    from logic_agents.logic import KnowledgeBase, SatOracle, sym

    kb = KnowledgeBase()
    kb.tell(sym("a") | sym("b"))
    with SatOracle(kb, "glucose4") as oracle:
        assert oracle.solve(conflicts=0) is None and oracle.solve(conflicts=-3) is None
        assert oracle.solve(conflicts=1) is True and oracle.solve() is True

