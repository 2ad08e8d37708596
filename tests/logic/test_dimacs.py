"""DIMACS out and back in, names preserved, errors located."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logic_agents.errors import FormatError
from logic_agents.logic.dimacs import format_dimacs, parse_dimacs, read_dimacs, stats
from logic_agents.logic.formula import Exactly, sym
from logic_agents.logic.kb import KnowledgeBase


def test_kb_round_trip_keeps_names_and_clauses():
    kb = KnowledgeBase()
    xs = [sym(("D", 0, i)) for i in range(12)]
    kb.tell(Exactly(3, *xs), xs[0] | ~xs[1])
    text = kb.to_dimacs(["game daggers", "map TEST"])
    cnf = parse_dimacs(text)
    assert cnf.clauses == kb.clauses
    assert cnf.num_vars == kb.num_vars
    assert cnf.names == {i + 1: f"D_0_{i}" for i in range(12)}
    assert cnf.comments[:2] == ["game daggers", "map TEST"]
    assert "c aux 13-" in text
    s = stats(cnf)
    assert s["named"] == 12 and s["auxiliary"] == kb.num_vars - 12
    assert sum(s["clause_lengths"].values()) == len(kb.clauses)


@given(st.lists(st.lists(st.integers(-6, 6).filter(bool), max_size=4), max_size=12))
def test_any_cnf_round_trips(clauses):
    names = {1: "a", 3: "D_1_2"}
    cnf = parse_dimacs(format_dimacs(6, clauses, names, ["hello"]))
    assert cnf.clauses == clauses
    assert cnf.names == names


@pytest.mark.parametrize(
    "text,where",
    [
        ("1 2 0\n", ":1:1:"),
        ("p cnf 2 1\n1 x 0\n", ":2:3:"),
        ("p cnf 2 1\n1 3 0\n", ":2:3:"),
        ("p dnf 2 1\n", ":1:1:"),
        ("p cnf 2 2\n1 0\n", ":0:0:"),
    ],
)
def test_bad_dimacs_is_located(text, where):
    with pytest.raises(FormatError) as err:
        parse_dimacs(text, "f.cnf")
    assert str(err.value).startswith("f.cnf" + where)


def test_missing_file(tmp_path):
    with pytest.raises(FormatError, match="cannot read"):
        read_dimacs(tmp_path / "nope.cnf")
