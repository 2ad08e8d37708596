"""`inspect FILE.cnf --why NAME`: whether a written CNF forces a value, and a minimal set of
its `c kb` formulas that does, checked against a fresh solver."""

import json
import re

from pysat.solvers import Solver

from logic_agents.cli import main
from logic_agents.logic.dimacs import read_dimacs
from logic_agents.logic.why import named_formulas


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _sat(clauses, assumptions=()):
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        return solver.solve(assumptions=list(assumptions))


def test_why_names_a_minimal_set_of_formulas(capsys, tmp_path):
    path = tmp_path / "h1.cnf"
    assert run(capsys, "cnf", "HARD1", "--query", "1", "-o", str(path))[0] == 0
    cnf = read_dimacs(path)
    groups = named_formulas(cnf, str(path))
    covered = {c for _, a, b in groups for c in range(a, b)}
    background = [cl for c, cl in enumerate(cnf.clauses) if c not in covered]
    ids = {n: v for v, n in cnf.names.items()}
    checked = 0
    for name in ("D_r2c6", "D_r4c2", "D_r0c0"):
        code, out, _ = run(capsys, "inspect", str(path), "--why", name, "--json")
        found = json.loads(out)
        assert code == 0 and found["forced"] and found["minimal"]
        lit = ids[name] if found["value"] else -ids[name]
        chosen = [g for g in groups if g[0] in found["formulas"]]
        assert len(chosen) == len(found["formulas"])

        def clauses(parts):
            return background + [cnf.clauses[c] for _, a, b in parts for c in range(a, b)]

        assert _sat(clauses(chosen), [-lit]) is False  # they force it
        for k in range(len(chosen)):  # and each is needed
            assert _sat(clauses(chosen[:k] + chosen[k + 1:]), [-lit]) is True
        checked += 1
    assert checked == 3
    free = []
    for name in sorted(ids):
        code, out, _ = run(capsys, "inspect", str(path), "--why", name, "--json")
        if not json.loads(out)["forced"]:
            free.append(name)
            assert _sat(cnf.clauses, [ids[name]]) and _sat(cnf.clauses, [-ids[name]])
    assert free  # the first test leaves cells undecided
    code, out, _ = run(capsys, "inspect", str(path), "--why", free[0])
    assert code == 0 and "not forced" in out


def test_why_needs_a_file_that_names_its_formulas(capsys, tmp_path):
    plain = tmp_path / "plain.cnf"
    plain.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    code, _, err = run(capsys, "inspect", str(plain), "--why", "x")
    assert code == 2 and err.count("\n") == 1
    named = tmp_path / "named.cnf"
    named.write_text("c kb a | b\nc kb ~a\nc kb-spans 0-1 1-2\nc var 1 a\nc var 2 b\n"
                     "p cnf 2 2\n1 2 0\n-1 0\n")
    code, out, _ = run(capsys, "inspect", str(named), "--why", "b", "--json")
    assert code == 0 and json.loads(out)["formulas"] == ["a | b", "~a"]
    bad = tmp_path / "bad.cnf"
    bad.write_text("c kb a\nc kb-spans 0-9\nc var 1 a\np cnf 1 1\n1 0\n")
    code, _, err = run(capsys, "inspect", str(bad), "--why", "a")
    assert code == 2 and "bad clause range" in err


def test_inspect_lists_clauses_under_their_formula_without_duplicates(capsys, tmp_path):
    named = tmp_path / "named.cnf"
    named.write_text("c kb a | b\nc kb ~a\nc kb ~a again\nc kb-spans 0-1 1-2 2-3\nc var 1 a\n"
                     "c var 2 b\np cnf 2 3\n1 2 0\n-1 0\n-1 0\n")
    code, out, _ = run(capsys, "inspect", str(named), "--limit", "10")
    assert code == 0 and any([x.strip() for x in line.split("│")[1:3]] == ["duplicate clauses", "1"]
                             for line in out.splitlines() if "duplicate" in line)
    listed = out[out.index("first"):].splitlines()
    assert listed[1:] == ["  a | b", "    a ∨ b", "  ~a", "    ~a"]  # the repeat is dropped
    plain = tmp_path / "plain.cnf"
    plain.write_text("p cnf 2 2\n1 2 0\n2 1 0\n")
    code, out, _ = run(capsys, "inspect", str(plain))
    listed = out[out.index("first"):].splitlines()
    assert code == 0 and listed[1:] == ["  _aux_1 ∨ _aux_2"]  # no formulas named: a flat list


def test_inspect_solve_draws_the_model_on_the_board(capsys, tmp_path):
    from logic_agents.games.sudoku import is_solution
    from logic_agents.world.registry import get_game
    from logic_agents.world.resolve import resolve

    path = tmp_path / "s.cnf"
    assert run(capsys, "cnf", "norvig_top95:1", "-o", str(path))[0] == 0
    code, out, _ = run(capsys, "inspect", str(path), "--solve", "--limit", "0")
    assert code == 0 and "the model on sudoku norvig_top95:1 at its start (81 cells" in out
    lines = [line for line in out.splitlines() if line.strip()][-12:]  # numbers, rows, boxes
    assert lines[0].split() == [str(c) for c in range(9)]
    rows = [line.replace("│", "").split() for line in lines[1:] if "─" not in line]
    assert [row[0] for row in rows] == [str(r) for r in range(9)]
    grid = tuple(int(v) for row in rows for v in row[1:])
    puzzle = resolve("norvig_top95:1", get_game("sudoku"))[1][0]
    assert is_solution(puzzle, grid)
    # a file that names no game is only listed
    bare = tmp_path / "bare.cnf"
    bare.write_text("p cnf 2 1\n1 2 0\n")
    code, out, _ = run(capsys, "inspect", str(bare), "--solve")
    assert code == 0 and "the model on" not in out


def test_a_cell_name_with_an_absurd_number_is_not_drawn(capsys, tmp_path):
    # found by the fuzz test: a 5,000-digit row in a variable's name passed Python's limit on
    # int conversion and ended in a traceback; such a name names no cell, so it is not drawn
    path = tmp_path / "e.cnf"
    assert run(capsys, "cnf", "EASY1", "-o", str(path))[0] == 0
    text = path.read_text()
    assert "c var 20 D_r3c4\n" in text  # a dagger in the first model
    path.write_text(text.replace("c var 20 D_r3c4\n", f"c var 20 D_r{'9' * 5000}c5\n"))
    code, out, err = run(capsys, "inspect", str(path), "--solve", "--limit", "1")
    assert code == 0 and err == ""


def test_a_model_that_marks_no_cell_says_how_cells_are_named(capsys, tmp_path):
    # issue 54: a plug-in author's variables named another way marked nothing, silently
    path = tmp_path / "h.cnf"
    assert run(capsys, "cnf", "HARD1", "-o", str(path))[0] == 0
    text = path.read_text()
    renamed = re.sub(r"^c var (\d+) D_r(\d+)c(\d+)$", r"c var \1 dagger_\2_\3", text,
                     flags=re.MULTILINE)
    assert renamed != text
    path.write_text(renamed)
    code, out, _ = run(capsys, "inspect", str(path), "--solve", "--limit", "0")
    said = " ".join(out.split())
    assert code == 0 and "(0 cells marked: no true variable is named by a cell, as " \
        "<KIND>_r<row>c<col>[_v<value>] (0-based) names one; docs/write-a-game.md, `cnf`)" in said


def test_why_certify_checks_both_unsat_answers_it_rests_on(capsys, tmp_path):
    path = tmp_path / "h1.cnf"
    assert run(capsys, "cnf", "HARD1", "--query", "1", "-o", str(path))[0] == 0
    for checker in ("drup", "dratify"):
        code, out, _ = run(capsys, "inspect", str(path), "--why", "D_r2c6", "--certify",
                           "--checker", checker, "--json")
        found = json.loads(out)
        # the file forces it, and the minimal set does: two claims, both certified
        assert code == 0 and found["forced"] and found["claims"] == found["certified"] == 2
    code, out, _ = run(capsys, "inspect", str(path), "--why", "D_r2c6", "--certify")
    assert code == 0 and "certified: 2 of 2 UNSAT answers" in out


def test_why_certify_of_an_unsatisfiable_file_and_a_free_variable(capsys, tmp_path):
    path = tmp_path / "h1.cnf"
    assert run(capsys, "cnf", "HARD1", "--query", "1", "-o", str(path))[0] == 0
    text = path.read_text()
    ids = {n: v for v, n in read_dimacs(path).names.items()}
    head, _, body = text.partition("\np cnf ")
    nvars, nclauses = body.split("\n", 1)[0].split()
    broken = tmp_path / "unsat.cnf"  # the file with r2c6 both a dagger and not
    broken.write_text(text.replace(f"p cnf {nvars} {nclauses}", f"p cnf {nvars} "
                                   f"{int(nclauses) + 2}") + f"{ids['D_r2c6']} 0\n-{ids['D_r2c6']} 0\n")
    code, out, _ = run(capsys, "inspect", str(broken), "--why", "D_r2c6", "--certify", "--json")
    found = json.loads(out)
    assert code == 0 and found["value"] is None and found["claims"] == found["certified"] == 1


def test_why_certify_fails_loudly_on_a_rejected_proof(capsys, tmp_path, monkeypatch):
    from logic_agents.logic import certify

    path = tmp_path / "h1.cnf"
    assert run(capsys, "cnf", "HARD1", "--query", "1", "-o", str(path))[0] == 0
    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 0, "drup", 0.0, "drup rejected the proof at step 1: the empty clause does not "
        "follow"))
    code, out, err = run(capsys, "inspect", str(path), "--why", "D_r2c6", "--certify")
    assert code != 0 and "drup rejected the proof" in err and "Traceback" not in err
