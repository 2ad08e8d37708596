"""The command line: every verb, --json, and every error path (one line, exit code 2)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.games.daggers import load
from logic_agents.logic.dimacs import read_dimacs

from .conftest import MAPS, ROOT

HARD1 = str(ROOT / "maps" / "daggers" / "2018" / "HARD1.txt")
PLAY_KEYS = {"game", "map", "agent", "seed", "outcome", "won", "steps", "guesses", "lives_left", "time_s",
             "cpu_s"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_json_is_one_object_with_the_promised_keys(capsys):
    code, out, err = run(capsys, "play", HARD1, "--agent", "satx", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == PLAY_KEYS
    assert data["won"] is True and data["map"] == "HARD1" and data["outcome"] == "won"


def test_play_shows_board_and_outcome(capsys):
    code, out, _ = run(capsys, "play", "EASY1", "--agent", "spx", "--seed", "2")
    assert code == 0
    assert "step 0" in out and ("WON" in out or "LOST" in out)
    code, out, _ = run(capsys, "play", "EASY1", "--quiet")
    assert code == 0 and out.count("\n") == 1


def test_play_options(capsys, tmp_path):
    trace = tmp_path / "g.jsonl"
    code, out, _ = run(capsys, "play", "HARD10", "--agent", "satx", "--lives", "3", "--seed", "1",
                       "--no-global-count", "--solver", "cadical195", "--json", "--trace", str(trace))
    data = json.loads(out)
    # a win keeps at least 1 of the 3 lives, plus at most one per gold found; a loss keeps none
    gold = load(ROOT / "maps" / "daggers" / "2018" / "HARD10.txt").total_gold
    assert code == 0 and (1 <= data["lives_left"] <= 3 + gold if data["won"]
                          else data["lives_left"] == 0)
    code, out, _ = run(capsys, "replay", str(trace), "--json")
    assert code == 0 and json.loads(out)["steps"] >= 1
    code, out, _ = run(capsys, "play", "EASY4", "--encoding", "sympy", "--json")
    assert code == 0


def test_cnf_writes_valid_named_dimacs(capsys, tmp_path):
    out_file = tmp_path / "h.cnf"
    code, _, err = run(capsys, "cnf", HARD1, "--query", "1", "-o", str(out_file))
    assert code == 0 and "wrote" in err
    cnf = read_dimacs(out_file)
    assert cnf.clauses and "D_r0c0" in cnf.names.values()
    assert any(c.startswith("map HARD1") for c in cnf.comments)
    assert any(c.startswith("kb Exactly(") for c in cnf.comments)
    assert sum(name.startswith("D_") for name in cnf.names.values()) >= 8
    code, out, _ = run(capsys, "cnf", HARD1, "--encoding", "sympy")
    assert code == 0 and "p cnf" in out
    code, out, _ = run(capsys, "cnf", HARD1, "--query", "1", "-o", str(out_file), "--json",
                       "--force")
    data = json.loads(out)
    assert code == 0 and data["query"] == 1 and data["named"] >= 8 and data["clauses"] > 0
    code, out, _ = run(capsys, "inspect", str(out_file), "--json", "--solve")
    data = json.loads(out)
    assert code == 0 and data["status"] == "SATISFIABLE" and data["named"] >= 8
    code, out, _ = run(capsys, "inspect", str(out_file), "--limit", "5", "--solve")
    assert code == 0 and "D_" in out and "s SATISFIABLE" in out


def test_maps_lists_the_thirty(capsys):
    code, out, _ = run(capsys, "maps", "--game", "daggers", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == len(MAPS) == 30
    code, out, _ = run(capsys, "maps", "--json")
    sudoku = [r for r in json.loads(out) if r["game"] == "sudoku"]
    assert any(r["name"] == "norvig_top95" and r["puzzles"] == 95 for r in sudoku)
    code, out, _ = run(capsys, "maps")
    assert "HARD10" in out


@pytest.mark.parametrize(
    "argv,words",
    [
        (["play", "nope.txt"], "no such map"),
        (["play", "NOSUCHMAP"], "no such map"),
        (["play", HARD1, "--agent", "bogus"], "unknown agent"),
        (["play", HARD1, "--lives", "0"], "at least 1"),
        (["play", HARD1, "--bogus"], "unrecognized"),
        (["play", HARD1, "--agent", "rpx", "--encoding", "sympy"], "does not take --encoding"),
        (["play", HARD1, "--game", "chess"], "unknown game"),
        (["cnf", HARD1, "--query", "999"], "satisfiability test"),
        (["cnf", HARD1, "--agent", "rpx"], "use satx"),
        (["cnf", HARD1, "--query", "0"], "counts from 1"),
        (["cnf", HARD1, "--json"], "give -o"),
        (["inspect", "missing.cnf"], "cannot read"),
        (["replay", "missing.jsonl"], "cannot read"),
        ([], "required"),
        (["generate", "daggers", "--preset", "beginner", "--start", "3", "-o", "x"],
         "not a cell R,C"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(capsys, argv, words):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_malformed_map_is_located(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("name: bad\n0 1 d\n0 x 1\n")
    code, _, err = run(capsys, "play", str(bad))
    assert code == 2 and f"{bad}:3:3:" in err


def test_bad_dimacs_is_located(capsys, tmp_path):
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 2 1\n1 -3 0\n")
    code, _, err = run(capsys, "inspect", str(bad))
    assert code == 2 and f"{bad}:2:3:" in err


def test_module_entry_point_and_help():
    done = subprocess.run([sys.executable, "-m", "logic_agents", "play", "--help"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "--agent" in done.stdout
    done = subprocess.run([sys.executable, "-m", "logic_agents", "play", "nope.txt"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_generate_writes_loadable_maps(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "daggers", "--preset", "tornado-small", "--count", "3",
                       "--seed", "5", "-o", str(tmp_path), "--json")
    files = json.loads(out)["files"]
    assert code == 0 and len(files) == 3
    code, out, _ = run(capsys, "play", files[0], "--json")
    assert code == 0 and json.loads(out)["map"] == "tornado-small-s5-0000"
    code, out, _ = run(capsys, "generate", "daggers", "--width", "6", "--height", "4",
                       "--daggers", "3", "--topology", "hex", "-o", str(tmp_path / "c"))
    assert code == 0 and len(list((tmp_path / "c").glob("*.txt"))) == 10


@pytest.mark.parametrize(
    "argv,words",
    [
        (["--preset", "nope"], "unknown preset"),
        (["--preset", "beginner", "--width", "3"], "not both"),
        (["--width", "3"], "all of"),
        (["--width", "3", "--height", "3", "--daggers", "9"], "do not fit"),
        (["--preset", "beginner", "--count", "0"], "at least 1"),
        (["--preset", "beginner", "--topology", "hex"], "drop --topology"),
        (["--preset", "beginner", "--start", "3,9"], "off the 9x9 board"),
    ],
)
def test_generate_errors(capsys, tmp_path, argv, words):
    code, _, err = run(capsys, "generate", "daggers", *argv, "-o", str(tmp_path))
    assert code == 2 and words in err and err.count("\n") == 1


def test_generate_start_moves_the_opening_probe(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "daggers", "--preset", "expert", "--count", "2",
                       "--start", "3,3", "-o", str(tmp_path), "--json")
    assert code == 0
    for name in json.loads(out)["files"]:
        instance = load(name)
        assert instance.starts == ((3, 3),) and instance.token((3, 3)) == "0"
    code, _, err = run(capsys, "generate", "sudoku", "--size", "4", "--start", "1,1", "-o",
                       str(tmp_path))
    assert code == 2 and "unrecognized arguments: --start" in err  # a daggers flag only
    code, _, err = run(capsys, "compare", "EASY1", "--start", "1,1")
    assert code == 2 and "give --generate" in err


def test_safe_start_keeps_only_the_first_probe_clear(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "daggers", "--preset", "expert", "--count", "40",
                       "--safe-start", "-o", str(tmp_path), "--json")
    assert code == 0
    shown = [load(name).token((0, 0)) for name in json.loads(out)["files"]]
    assert all(t.isdigit() for t in shown)  # never a dagger ...
    assert any(t != "0" for t in shown)  # ... but not always an opening
    code, out, _ = run(capsys, "compare", "--generate", "beginner", "--count", "3",
                       "--safe-start", "--agents", "prob", "--runs", "1", "--jobs", "1", "--json")
    assert code == 0 and json.loads(out)["agents"]["prob"]["games"] == 3
    code, _, err = run(capsys, "compare", "EASY1", "--safe-start")
    assert code == 2 and "give --generate" in err and err.count("\n") == 1


def test_compare_json_csv_plot_and_resume(capsys, tmp_path):
    pytest.importorskip("matplotlib")  # --plot needs the 'plot' extra
    out, png = tmp_path / "runs.csv", tmp_path / "win.png"
    code, stdout, _ = run(capsys, "compare", "EASY1", "EASY2", "--agents", "spx,satx", "--runs",
                          "5", "--jobs", "1", "--out", str(out), "--plot", str(png), "--json",
                          "--generate", "nettle-easy", "--count", "2")
    summary = json.loads(stdout)
    assert code == 0 and set(summary) == {"agents", "pairs", "objective", "baseline",
                                          "baseline_chosen"}
    satx = summary["agents"]["satx"]
    assert satx["games"] == 20 and len(satx["ci95"]) == 2 and "mean_time_s" in satx
    assert set(satx["groups"]) == {"2018", "nettle-easy"}
    assert summary["pairs"][0]["a"] == "spx" and "p_value" in summary["pairs"][0]
    assert png.read_bytes()[:4] == b"\x89PNG"
    code, stdout, _ = run(capsys, "compare", "EASY1", "EASY2", "--agents", "spx,satx", "--runs",
                          "6", "--jobs", "1", "--out", str(out), "--resume", "--generate",
                          "nettle-easy", "--count", "2")
    assert code == 0 and "satx is better" in stdout or "no significant" in stdout
    assert len(out.read_text().splitlines()) == 1 + 2 * 4 * 6


def test_plot_names_its_extra(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = run(capsys, "compare", "EASY1", "--agents", "rpx", "--runs", "1", "--jobs", "1",
                       "--plot", str(tmp_path / "p.png"))
    assert code == 2 and "logic-agents[plot]" in err


@pytest.mark.parametrize(
    "argv,words",
    [
        (["EASY1", "--agents", "rpx,bogus"], "unknown agent"),
        (["EASY1", "--resume"], "give --out"),
        (["EASY1", "--address", "x:1"], "--backend ray"),
        ([], "no maps"),
        (["EASY1", "--out", "r.txt"], ".csv or .jsonl"),
        (["EASY1", "--runs", "0"], "at least 1"),
        (["EASY1", "--generate", "nope"], "unknown preset"),
        (["EASY1", "--agents", "rpx", "--encoding", "sympy", "--jobs", "1"], "does not take"),
    ],
)
def test_compare_errors(capsys, argv, words):
    code, _, err = run(capsys, "compare", *argv)
    assert code == 2 and words in err and err.count("\n") == 1


TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_solve_json_lines_and_uniqueness(capsys):
    fewer = "." + TOP95_1[1:]
    code, out, _ = run(capsys, "solve", TOP95_1, fewer, "--unique", "--json")
    first, second = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert {"game", "puzzle", "status", "unique", "solution", "time_s"} <= set(first)
    assert first["status"] == "solved" and first["unique"] is True and len(first["solution"]) == 81
    assert second["unique"] is False and second["second"] != second["solution"]
    code, out, _ = run(capsys, "solve", str(ROOT / "maps/sudoku/norvig_hardest.txt"), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 11 and all(r["status"] == "solved" and r["unique"] is None for r in rows)
    code, out, _ = run(capsys, "solve", "44" + "." * 14)
    assert code == 2
    code, out, _ = run(capsys, "solve", "12..3..2.1.34..1")
    assert code == 0 and "solved" in out


def test_solve_reports_unsat(capsys):
    # box 1 holds 3 and 4 in row 1, but row 0 needs them there too: no solution, no format error
    code, out, _ = run(capsys, "solve", "12....34.......1", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "unsat" and data["solution"] is None


def test_cnf_of_a_sudoku_puzzle(capsys, tmp_path):
    out = tmp_path / "s.cnf"
    code, stdout, _ = run(capsys, "cnf", str(ROOT / "maps/sudoku/norvig_top95.txt") + ":1",
                          "--game", "sudoku", "-o", str(out), "--json")
    assert code == 0 and json.loads(stdout)["named"] == 729
    cnf = read_dimacs(out)
    assert "X_r0c0_v4" in cnf.names.values() and [cnf.clauses[-1]] and any(
        len(c) == 1 for c in cnf.clauses)
    code, stdout, _ = run(capsys, "inspect", str(out), "--solve", "--json")
    model = json.loads(stdout)["model"]
    assert model["X_r0c0_v4"] is True


def test_generate_sudoku(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "sudoku", "--size", "9", "--count", "2", "--seed", "3",
                       "-o", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and len(data["clues"]) == 2
    code, out, _ = run(capsys, "solve", data["files"][0], "--unique", "--json")
    assert all(json.loads(line)["unique"] for line in out.splitlines())
    code, _, err = run(capsys, "generate", "sudoku", "-o", str(tmp_path))
    assert code == 2 and "--size" in err
    code, _, err = run(capsys, "generate", "sudoku", "--size", "7", "-o", str(tmp_path))
    assert code == 2 and "invalid choice: 7" in err


def test_compare_and_play_on_sudoku_files(capsys):
    hardest = str(ROOT / "maps/sudoku/norvig_hardest.txt")
    code, out, _ = run(capsys, "compare", hardest, "--game", "sudoku", "--agents", "sat,norvig",
                       "--runs", "1", "--jobs", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["agents"]["sat"]["wins"] == 11
    assert list(summary["agents"]["sat"]["groups"]) == ["norvig_hardest"]
    code, out, _ = run(capsys, "play", hardest + ":2", "--game", "sudoku", "--agent", "logic",
                       "--json")
    assert code == 0 and json.loads(out)["won"] is True
    code, _, err = run(capsys, "play", hardest + ":99", "--game", "sudoku")
    assert code == 2 and "holds 11" in err


def test_the_game_is_detected_from_folder_or_content(capsys, tmp_path):
    copied = tmp_path / "puzzles.txt"
    copied.write_text((ROOT / "maps/sudoku/norvig_hardest.txt").read_text())
    code, out, _ = run(capsys, "play", f"{copied}:2", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "sudoku" and data["agent"] == "sat" and data["won"]
    code, out, _ = run(capsys, "play", str(ROOT / "maps/sudoku/norvig_top95.txt"), "--agent",
                       "norvig", "--json")
    assert code == 0 and json.loads(out)["game"] == "sudoku"
    code, out, _ = run(capsys, "cnf", str(copied), "-o", str(tmp_path / "p.cnf"), "--json")
    assert code == 0 and json.loads(out)["named"] == 729
    small = tmp_path / "small.txt"
    small.write_text("12..3..2.1.34..1  # a\n1...3..2.1.3..21  # b\n")
    code, out, _ = run(capsys, "compare", str(small), "--runs", "1", "--jobs", "1", "--json")
    assert code == 0 and set(json.loads(out)["agents"]) == {"sat", "logic", "norvig", "ea-repair",
                                                             "ea-multi"}
    code, out, _ = run(capsys, "play", HARD1, "--json")
    assert code == 0 and json.loads(out)["game"] == "daggers" and json.loads(out)["agent"] == "satx"


# -- undead ------------------------------------------------------------------------------------
UNDEAD_ID = "4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3"


def test_solve_undead_ids_and_files(capsys):
    code, out, _ = run(capsys, "solve", UNDEAD_ID, "--json", "--unique")
    data = json.loads(out)
    assert code == 0 and data["game"] == "undead" and data["unique"] is True
    assert data["solution"] == "LVVRVLGZGRZRLVRG"
    code, out, _ = run(capsys, "solve", UNDEAD_ID)
    assert code == 0 and "\\ V V /" in out and "solved" in out
    code, out, _ = run(capsys, "solve", str(ROOT / "maps/undead/7x7dn.tsv"), "--json", "--unique")
    rows = [json.loads(line) for line in out.splitlines()]
    references = [line.split("\t")[2] for line in
                  (ROOT / "maps/undead/7x7dn.tsv").read_text().splitlines()]
    assert [r["solution"] for r in rows] == references and all(r["unique"] for r in rows)
    code, out, _ = run(capsys, "solve", "report-4x4", "--json")
    assert code == 0 and json.loads(out)["solution"] == "LVVRVLGZGRZRLVRG"


@pytest.mark.parametrize("bad", [UNDEAD_ID.replace("Lb", "L9"), UNDEAD_ID[:-2],
                                 UNDEAD_ID.replace("3,4,2", "3,4,3")])
def test_bad_undead_ids_are_one_line_errors(capsys, bad):
    code, out, err = run(capsys, "solve", bad)
    assert code == 2 and out == "" and err.count("\n") == 1 and "<argument 1>:1:" in err


def test_play_compare_and_cnf_on_undead(capsys, tmp_path):
    code, out, _ = run(capsys, "play", UNDEAD_ID, "--agent", "logic", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "undead" and data["won"]
    code, out, _ = run(capsys, "play", "5x5dt:3", "--agent", "dfs-path-tight", "--no-zero-fill",
                       "--node-cap", "100000", "--json")
    assert code == 0 and json.loads(out)["won"]
    code, _, err = run(capsys, "play", UNDEAD_ID, "--agent", "sat", "--node-cap", "5")
    assert code == 2 and "does not take --node-cap" in err
    code, out, _ = run(capsys, "compare", str(ROOT / "maps/undead/4x4dt.tsv"), "--agents",
                       "sat,dfs-square,brute-force", "--runs", "1", "--jobs", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["agents"]["sat"]["wins"] == 30
    assert summary["agents"]["brute-force"]["mean_stats"]["nodes"] > 0
    cnf = tmp_path / "u.cnf"
    code, out, _ = run(capsys, "cnf", UNDEAD_ID, "-o", str(cnf), "--json")
    assert code == 0 and json.loads(out)["named"] == 27  # 9 monster cells x G, V, Z
    assert "c var" in cnf.read_text() and "Exactly(3, ~G_r0c1" in cnf.read_text()
    assert read_dimacs(cnf).num_vars == json.loads(out)["variables"]


def test_generate_undead(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "undead", "--size", "6x5", "--difficulty", "normal",
                       "--count", "2", "--seed", "4", "-o", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and len(data["puzzles"]) == 2
    path = tmp_path / "undead6x5-normal-s4.tsv"
    assert data["files"] == [str(path)]
    code, out, _ = run(capsys, "solve", str(path), "--json", "--unique")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 2 and all(r["unique"] for r in rows)
    solutions = [line.split("\t")[2] for line in path.read_text().splitlines()
                 if not line.startswith("#")]
    assert [r["solution"] for r in rows] == solutions
    for argv, words in ((["--size", "7"], "give WxH"), (["--size", "4x4", "--clues", "3"], "--clues"),
                        (["--size", "4x4", "--preset", "beginner"], "unrecognized arguments: --preset")):
        code, _, err = run(capsys, "generate", "undead", *argv, "-o", str(tmp_path))
        assert code == 2 and words in err


# -- mazes ---------------------------------------------------------------------------------------
def test_solve_play_compare_and_cnf_on_mazes(capsys, tmp_path):
    board = str(ROOT / "maps/mazes/eom-9x9-18.txt")
    code, out, _ = run(capsys, "solve", board, "--json", "--unique")
    data = json.loads(out)
    assert code == 0 and data["game"] == "mazes" and data["unique"] is True
    assert data["solution"][0] == [8, 0] and data["solution"][-1] == [0, 8]
    code, out, _ = run(capsys, "solve", "eom-4x4-00", "--unique")
    assert code == 0 and "NOT unique" in out and "a second solution" in out
    code, out, _ = run(capsys, "play", "eom-7x7-10", "--agent", "astar", "--heuristic",
                       "shapes-left", "--json")
    assert code == 0 and json.loads(out)["won"]
    code, _, err = run(capsys, "play", "eom-7x7-10", "--agent", "bfs", "--heuristic", "euclidean")
    assert code == 2 and "does not take --heuristic" in err
    code, _, err = run(capsys, "play", "eom-7x7-10", "--agent", "human")
    assert code == 2 and "needs a terminal" in err
    code, out, _ = run(capsys, "compare", str(ROOT / "maps/mazes"), "--agents", "sat,ids",
                       "--runs", "1", "--jobs", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["agents"]["sat"]["wins"] == 6
    cnf = tmp_path / "m.cnf"
    code, out, _ = run(capsys, "cnf", "eom-7x7-10", "-o", str(cnf), "--json")
    assert code == 0 and "Implies(P_r" in cnf.read_text()


def test_generate_mazes(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "mazes", "--size", "7", "--count", "2", "--seed", "1",
                       "-o", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 0 and len(data["files"]) == 2
    code, out, _ = run(capsys, "solve", *data["files"], "--json", "--unique")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["unique"] for r in rows] == [True, True] and rows[0]["game"] == "mazes"
    copied = tmp_path / "elsewhere.txt"  # outside maps/mazes: found by its content
    copied.write_text(Path(data["files"][0]).read_text())
    code, out, _ = run(capsys, "play", str(copied), "--json")
    assert code == 0 and json.loads(out)["game"] == "mazes"
    code, _, err = run(capsys, "generate", "mazes", "--size", "7x", "-o", str(tmp_path))
    assert code == 2 and "give N (N x N)" in err
