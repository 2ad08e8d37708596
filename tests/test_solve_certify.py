"""`solve --unique --certify` (issue 68): "no second solution" and "no solution" rest on UNSAT
answers whose DRAT proofs a checker accepts, for every game that solves puzzles; a solver
path that would keep a clause from the checker fails closed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.errors import UncertifiedClaim
from logic_agents.logic import certify
from logic_agents.logic.certify import CHECKERS, Certified, certifying
from logic_agents.logic.solvers import open_solver

MAPS = Path(__file__).resolve().parent.parent / "logic_agents" / "maps"
UNSAT_SUDOKU = "12345678." + "........9" + "." * 63  # r0c8 can hold nothing: no solution


def _first(path: Path) -> str:
    return next(line.split("#")[0].strip() for line in path.read_text().splitlines()
                if line.strip() and not line.startswith("#"))


@pytest.mark.parametrize("checker", CHECKERS)
@pytest.mark.parametrize("game, puzzle", [
    ("sudoku", _first(MAPS / "sudoku" / "norvig_easy50.txt")),
    ("undead", _first(MAPS / "undead" / "4x4de.tsv").split("\t")[0]),
    ("mazes", str(MAPS / "mazes" / "eom-6x6-02.txt")),
])
def test_uniqueness_is_certified_for_every_game(capsys, checker, game, puzzle):
    code = main(["solve", puzzle, "--game", game, "--unique", "--certify", "--checker", checker,
                 "--json"])
    out = json.loads(capsys.readouterr().out.splitlines()[0])
    assert code == 0 and out["unique"] is True
    assert out["claims"] == out["certified"] >= 1


def test_no_solution_is_certified(capsys):
    assert main(["solve", UNSAT_SUDOKU, "--game", "sudoku", "--certify", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unsat" and out["claims"] == out["certified"] >= 1


def test_a_rejected_proof_ends_the_command_in_words(monkeypatch, capsys):
    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 1, "drup", 0.0, "drup rejected the proof at step 1: the empty clause does not "
        "follow"))
    code = main(["solve", _first(MAPS / "sudoku" / "norvig_easy50.txt"), "--game", "sudoku",
                 "--unique", "--certify"])
    err = capsys.readouterr().err
    assert code == 2 and "drup rejected the proof at step 1" in err, err


def test_every_solver_opened_in_a_certifying_block_is_certified():
    with certifying("dratify") as tally:
        solver, _ = open_solver("glucose4")
        assert isinstance(solver, Certified)
        for clause in ([1, 2], [-1, 2], [1, -2], [-1, -2]):
            solver.add_clause(clause)
        assert solver.solve() is False
        solver.delete()
    assert (tally.claims, tally.certified, tally.checker) == (1, 1, "dratify")
    plain, _ = open_solver("glucose4")
    assert not isinstance(plain, Certified)  # the block is over
    plain.delete()


def test_a_certified_solver_fails_closed_on_what_the_checker_would_not_see():
    solver = Certified("minicard")
    with pytest.raises(AttributeError, match="must reach the proof checker"):
        _ = solver.solver  # the raw handle: clauses given through it would go unseen
    from logic_agents.errors import UsageError

    with pytest.raises(UsageError, match="native at-most constraints cannot be certified"):
        solver.add_atmost([1, 2, 3], 1)
    assert solver.supports_atmost() is False
    solver.append_formula([[1], [-1]])
    assert solver.solve() is False  # what append_formula gave is what was checked
    assert solver.claims == solver.certified == 1
    solver.delete()


def test_a_not_unique_answer_needs_no_claim(capsys):
    # a second solution is its own evidence (both checked by is_solution): nothing to certify
    assert main(["solve", str(MAPS / "mazes" / "eom-6x6-01.txt"), "--unique", "--certify",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unique"] is False and "second" in out


def test_the_python_api_certifies_as_the_command_line_does(monkeypatch):
    import logic_agents as la

    maze = MAPS / "mazes" / "eom-7x7-10.txt"
    assert la.solve(maze, certify=True).status == "unique"
    assert la.solve(maze, certify="dratify").status == "unique"
    result = la.play("EASY2", "satx", certify=True, checker="dratify")
    assert result.stats["claims"] == result.stats["certified"] > 0
    from logic_agents.errors import UsageError

    with pytest.raises(UsageError, match="certify must be True or one of drup, dratify"):
        la.solve(maze, certify="drat-trim")
    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 1, "drup", 0.0, "drup rejected the proof at step 1"))
    with pytest.raises(UncertifiedClaim, match="rejected the proof at step 1"):
        la.solve(maze, certify=True)


def test_a_verdict_without_an_unsat_answer_stands_unproved():
    from logic_agents.solving.puzzle import SolveResult, solved_certified

    with pytest.raises(UncertifiedClaim, match="without an UNSAT answer to certify"):
        solved_certified(lambda: SolveResult("unique", "x"), "drup", "p")
    found, tally = solved_certified(lambda: SolveResult("multiple", "x", "y"), "drup", "p")
    assert found.status == "multiple" and tally.claims == 0  # its own evidence: two models


@pytest.mark.parametrize("game, size", [("sudoku", "9"), ("undead", "5x5"), ("mazes", "5")])
def test_generate_certifies_each_puzzles_uniqueness(tmp_path, capsys, game, size):
    assert main(["generate", game, "--size", size, "--count", "2", "--seed", "3", "-o",
                 str(tmp_path), "--certify", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["puzzles"] == out["certified"] == 2 and out["claims"] >= 2
    assert main(["generate", game, "--size", size, "--count", "1", "-o", str(tmp_path / "b"),
                 "--certify", "--checker", "dratify"]) == 0
    assert "certified: 1 of 1 puzzles unique" in capsys.readouterr().out


def test_generate_certify_refuses_a_game_without_puzzles(tmp_path, capsys):
    assert main(["generate", "daggers", "--count", "1", "-o", str(tmp_path), "--certify"]) == 2
    assert "no uniqueness to certify" in capsys.readouterr().err


def test_generate_certify_fails_loudly_on_a_rejected_proof(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 0, "drup", 0.0, "drup rejected the proof at step 1: the empty clause does not "
        "follow"))
    assert main(["generate", "sudoku", "--size", "4", "--count", "1", "-o", str(tmp_path),
                 "--certify"]) != 0
    err = capsys.readouterr().err
    assert "drup rejected the proof at step 1" in err and "Traceback" not in err
