"""`cnf --proof` writes the DRAT proof of what an agent's question proved, and `inspect
--check-proof` checks any DIMACS file and proof, ours or another solver's (issue 68)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from logic_agents.cli import main
from logic_agents.logic.certify import CHECKERS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def question(tmp_path, capsys):
    cnf, drat = tmp_path / "q.cnf", tmp_path / "q.drat"
    assert main(["cnf", "HARD1", "--agent", "satx", "--query", "1", "-o", str(cnf),
                 "--proof", str(drat)]) == 0
    assert "literal(s) proved" in capsys.readouterr().err
    return cnf, drat


@pytest.mark.parametrize("checker", CHECKERS)
def test_the_proof_of_a_question_is_accepted(question, capsys, checker):
    cnf, drat = question
    assert main(["inspect", str(cnf), "--check-proof", str(drat), "--checker", checker,
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["accepted"] and not found["refutes"] and found["proves"]
    assert all(name.lstrip("~").startswith("D_") for name in found["proves"])


def test_a_literal_turned_false_is_rejected_in_words(question, capsys):
    cnf, drat = question
    lines = drat.read_text().splitlines()
    last = lines[-1]
    lines[-1] = last[1:] if last.startswith("-") else "-" + last  # the claim turned round
    drat.write_text("\n".join(lines) + "\n")
    assert main(["inspect", str(cnf), "--check-proof", str(drat)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("rejected: ") and "does not follow" in out


def test_a_proof_that_does_not_read_is_one_line_at_its_place(question, capsys):
    cnf, drat = question
    drat.write_text(drat.read_text() + "1 2")  # cut before its 0
    assert main(["inspect", str(cnf), "--check-proof", str(drat)]) == 2
    err = capsys.readouterr().err.strip()
    count = len(drat.read_text().splitlines())
    assert err.endswith(f"q.drat:{count}:4: a proof line ends with 0 (a truncated proof, or a "
                        "binary one)"), err


def test_another_solvers_refutation_is_checked(tmp_path, capsys):
    formula = PHP(4)  # five pigeons, four holes: no model, and no short proof
    (tmp_path / "php.cnf").write_text(formula.to_dimacs())
    with Solver(name="lingeling", with_proof=True, bootstrap_with=formula.clauses) as solver:
        assert solver.solve() is False
        proof = solver.get_proof()
    (tmp_path / "php.drat").write_text("\n".join(proof) + "\n")
    assert main(["inspect", str(tmp_path / "php.cnf"), "--check-proof",
                 str(tmp_path / "php.drat")]) == 0
    assert " refutes " in capsys.readouterr().out
    (tmp_path / "short.drat").write_text("\n".join(proof[: len(proof) // 2]) + "\n")
    assert main(["inspect", str(tmp_path / "php.cnf"), "--check-proof",
                 str(tmp_path / "short.drat")]) == 1


def test_a_puzzle_encoding_has_no_proof_to_write(tmp_path, capsys):
    code = main(["cnf", str(ROOT / "logic_agents/maps/sudoku/norvig_easy50.txt"), "--proof",
                 str(tmp_path / "x.drat")])
    assert code == 2 and "solve --unique --certify" in capsys.readouterr().err
