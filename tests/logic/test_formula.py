"""The sympy vocabulary: naming, printing, constant folding, expansion."""

import itertools

from hypothesis import given
from hypothesis import strategies as st
from sympy import And, Not, pretty

from logic_agents.logic.formula import AtLeast, AtMost, Exactly, evaluate, key_of, sym


def test_keys_and_symbols_round_trip():
    assert str(sym(("D", 3, 4))) == "D_3_4"
    assert key_of(sym(("D", 3, 4))) == ("D", 3, 4)
    assert key_of("_aux_17") == ("_aux", 17)
    # a name and the one-part key that prints so are one variable in a knowledge base
    from logic_agents.logic.kb import KnowledgeBase

    kb = KnowledgeBase()
    assert str(sym("x")) == str(sym(("x",))) == "x"
    assert kb.literal(sym(("x",))) == kb.literal(sym("x")) == kb.var("x")


def test_cardinality_prints_as_written():
    a, b, c = sym("a"), sym("b"), sym("c")
    node = Exactly(2, a, b, Not(c))
    assert str(node) == "Exactly(2, a, b, ~c)"
    assert "Exactly(2, a, b, ¬c)" in pretty(node)
    assert str(And(node, a)) in ("a & Exactly(2, a, b, ~c)", "Exactly(2, a, b, ~c) & a")


def test_constant_folding():
    a, b = sym("a"), sym("b")
    assert Exactly(1, a, b).xreplace({a: True}) == Exactly(0, b)
    assert bool(Exactly(1, a, b).xreplace({a: True, b: True})) is False
    assert bool(AtMost(3, a, b)) is True
    assert bool(AtLeast(3, a, b)) is False
    assert bool(Exactly(0)) is True


@given(st.integers(1, 5), st.integers(-1, 6), st.sampled_from([Exactly, AtMost, AtLeast]))
def test_expand_agrees_with_counting(n, k, kind):
    xs = [sym(("x", i)) for i in range(n)]
    node = kind(k, *xs)
    expected = {Exactly: lambda t: t == k, AtMost: lambda t: t <= k, AtLeast: lambda t: t >= k}
    for values in itertools.product([False, True], repeat=n):
        assignment = dict(zip(xs, values))
        want = expected[kind](sum(values))
        if node in (True, False) or not hasattr(node, "to_plain"):
            assert bool(node) == want
            continue
        assert evaluate(node, assignment) == want
        assert evaluate(node.to_plain(), assignment) == want
        assert evaluate(node.expand(), assignment) == want


@given(st.lists(st.tuples(st.sampled_from(["D", "X", "my_flag"]),
                          st.one_of(st.integers(-3, 3), st.sampled_from(["1", "3", "a"]),
                                    st.floats(-3, 3, allow_nan=False), st.booleans())),
                min_size=1, max_size=30))
def test_a_key_gives_one_symbol_and_its_literal_one_id(keys):
    """sym(key) is the same object for the same key (as sympy's Symbol(name) is), so a KB
    finds a literal by identity, and gives it the id it gives the key; keys that compare
    equal but print apart, such as ("D", 1) and ("D", 1.0), stay two symbols."""
    import pickle

    from logic_agents.logic.kb import KnowledgeBase

    kb, fresh = KnowledgeBase(), KnowledgeBase()
    for key in keys:
        symbol = sym(key)
        assert sym(key) is symbol and key_of(symbol) == key and (~sym(key)) is (~symbol)
        assert pickle.loads(pickle.dumps(symbol)) is symbol
        assert kb.literal(symbol) == kb.var(key) and kb.literal(~symbol) == -kb.var(key)
        assert kb.literal(symbol) == kb.literal(symbol)  # found again, by identity
    for key in keys:  # the same ids, literal by literal, as a KB that is asked by key only
        assert fresh.var(key) == kb.literal(sym(key))
    # the symbols of keys that compare equal but print apart are two
    for a in keys:
        for b in keys:
            assert (sym(a) is sym(b)) == (a == b and sym(a).name == sym(b).name)


def test_an_unhashable_part_is_no_literal():
    import pytest

    from logic_agents.errors import EncodingError
    from logic_agents.logic.kb import KnowledgeBase

    with pytest.raises(EncodingError, match="not a literal"):
        KnowledgeBase().literal([1, 2])


def test_keys_are_kept_as_given_and_names_never_merge_two_keys():
    """Identity is the key's, per knowledge base: two keys that print alike are two
    variables, refused where a name must mean one (a lookup by name, the DIMACS names)."""
    import pytest

    from logic_agents.errors import EncodingError
    from logic_agents.logic.kb import KnowledgeBase

    assert key_of(sym(("my_flag",))) == ("my_flag",)  # not ("my", "flag")
    kb = KnowledgeBase()
    flag = kb.var(("my_flag",))
    assert kb.key(flag) == ("my_flag",) and kb.name(flag) == "my_flag"
    d = kb.var(("D", 3, 4))
    assert kb.var("D_3_4") == d and kb.literal(sym(("D", 3, 4))) == d
    other = kb.var(("D", "3", 4))
    assert other != d and kb.key(other) == ("D", "3", 4)
    assert sym(("D", "3", 4)) != sym(("D", 3, 4)) and kb.literal(sym(("D", "3", 4))) == other
    with pytest.raises(EncodingError, match="printed by 2 keys"):
        kb.var("D_3_4")
    with pytest.raises(EncodingError, match="would both be named D_3_4"):
        kb.to_dimacs()
    for reserved in ("_aux_5", ("_aux", 5)):
        with pytest.raises(EncodingError, match="auxiliary"):
            kb.var(reserved)
    plain = kb.literal(__import__("sympy").Symbol("made_without_sym"))
    assert kb.key(plain) == "made_without_sym" and kb.var("made_without_sym") == plain


def test_no_process_wide_names():
    """What one knowledge base (or a symbol made anywhere) named never constrains another."""
    from logic_agents.logic.kb import KnowledgeBase

    sym(("Q", 1, 2))
    kb = KnowledgeBase()
    q = kb.var(("Q", "1", 2))
    assert kb.name(q) == "Q_1_2" and "c var 1 Q_1_2" in kb.to_dimacs()
    assert KnowledgeBase().var(("Q", 1, 2)) == 1


def test_a_name_first_then_its_key_are_one_variable():
    from logic_agents.logic.kb import KnowledgeBase

    kb = KnowledgeBase()
    by_name = kb.literal(__import__("sympy").Symbol("D_1_1"))
    assert kb.var(("D", 1, 1)) == by_name and kb.key(by_name) == ("D", 1, 1)
    assert kb.var("D_1_1") == by_name


def test_from_clauses_takes_keys_and_copy_keeps_them():
    from logic_agents.logic.kb import KnowledgeBase

    kb = KnowledgeBase.from_clauses(3, [[1, 2], [-3]], {1: ("X", 1, 2), 2: "flag"})
    assert kb.var(("X", 1, 2)) == 1 and kb.var("X_1_2") == 1 and kb.var("flag") == 2
    assert kb.var(("Y",)) == 4  # a new key goes past the encoder's ids
    twin = kb.copy()
    assert twin.var(("Z",)) == 5 and kb.var(("Z",)) == 5 and twin.var(("X", 1, 2)) == 1
    twin.var(("W",))
    assert ("W",) not in kb.pool.obj2id
