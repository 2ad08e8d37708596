"""The command line's promises, each as a test: interrupts and kills lose nothing and leave
nothing running, a resume must be the same study, a byte-order mark and long arguments are
accepted, and what a person pastes resolves the same way in every verb."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.games.undead.board import format_game_id, puzzle_from_solution
from logic_agents.study.rows import ROW_FIELDS, read_rows

from .conftest import ROOT

BOM = "\ufeff"
# long enough (600 games) that a study is still running when the test interrupts it
STUDY = ["compare", "EASY1", "EASY2", "EASY3", "--agents", "satx,prob", "--runs", "100",
         "--jobs", "2", "--seed", "4"]


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start(out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "logic_agents", *STUDY, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_rows(out: Path, count: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if out.exists() and len(out.read_text().splitlines()) > count:
            return
        time.sleep(0.05)
    raise AssertionError("the study did not get going")


def _comparable(rows):
    return sorted((r.agent, r.map, r.run, r.seed, r.outcome, r.won, r.steps, r.guesses,
                   r.score, json.dumps(r.stats, sort_keys=True), json.dumps(r.extra, sort_keys=True))
                  for r in rows)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads child processes from /proc")
def test_ctrl_c_and_kill_lose_nothing_and_leave_nothing_running(tmp_path):
    whole = tmp_path / "whole.csv"
    done = subprocess.run([sys.executable, "-m", "logic_agents", *STUDY, "--out", str(whole)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    reference = read_rows(whole)
    assert len(reference) == 3 * 2 * 100

    # Ctrl-C: one line, exit 130, within about a second, no worker left behind
    out = tmp_path / "cut.csv"
    proc = _start(out)
    _wait_rows(out, 5, proc)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGINT)
    started = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert time.monotonic() - started < 5  # about 1 s; generous for a loaded CI machine
    assert err.count("\n") == 1 and "Traceback" not in err and "--resume" in err
    assert not [w for w in workers if _alive(w)]
    rows = read_rows(out)
    assert len({r.key for r in rows}) == len(rows)  # no duplicate
    assert len(out.read_text().splitlines()) == len(rows) + 1  # header + rows, nothing torn

    # SIGKILL: the workers notice and exit, so a reader of the pipes is not left hanging
    killed = tmp_path / "killed.csv"
    proc = _start(killed)
    _wait_rows(killed, 5, proc)
    workers = _children(proc.pid)
    assert workers
    proc.kill()
    proc.communicate(timeout=30)  # returns only once every holder of the pipes is gone
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)]

    # two Ctrl-Cs 50 ms apart, and SIGTERM: each a clean stop (exit 130, one line), never a
    # death by the signal while the rows are saved
    stopped = []
    for name, signals in (("twice.csv", [signal.SIGINT, signal.SIGINT]),
                          ("term.csv", [signal.SIGTERM])):
        path = tmp_path / name
        proc = _start(path)
        _wait_rows(path, 5, proc)
        for sig in signals:
            proc.send_signal(sig)
            time.sleep(0.05)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130, (name, proc.returncode, err)
        assert err.count("\n") == 1 and "Traceback" not in err
        stopped.append(path)

    # --resume completes the studies with exactly the rows of an uninterrupted run
    for path in (out, killed, *stopped):
        done = subprocess.run([sys.executable, "-m", "logic_agents", *STUDY, "--out", str(path),
                               "--resume"], cwd=ROOT, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        assert _comparable(read_rows(path)) == _comparable(reference)


def test_a_resume_must_be_the_same_study_and_counts_each_game_once(capsys, tmp_path):
    out = tmp_path / "r.csv"
    base = ["compare", "EASY1", "--agents", "satx", "--jobs", "1", "--out", str(out)]
    assert run(capsys, *base, "--runs", "4", "--seed", "1")[0] == 0
    for other, word in ((["--seed", "2"], "seed"), (["--agents", "spx,satx"], "agents"),
                        (["--no-global-count"], "agents"), (["--lives", "2"], "world_options")):
        code, _, err = run(capsys, *base, "--runs", "4", "--seed", "1", "--resume", *other)
        assert code == 2 and "another study" in err and word in err and err.count("\n") == 1
    assert len(read_rows(out)) == 4
    # a duplicated row is refused in words (issue 39: one row per game), nothing truncated
    whole = out.read_text()
    with out.open("a") as f:
        f.write(whole.splitlines()[1] + "\n")
    code, _, err = run(capsys, *base, "--runs", "2", "--seed", "1", "--resume", "--json")
    assert code == 2 and "two rows for one game" in err and err.count("\n") == 1
    out.write_text(whole)
    # a smaller --runs summarises only its own runs
    code, stdout, _ = run(capsys, *base, "--runs", "2", "--seed", "1", "--resume", "--json")
    assert code == 0 and json.loads(stdout)["agents"]["satx"]["games"] == 2
    code, stdout, _ = run(capsys, *base, "--runs", "4", "--seed", "1", "--resume", "--json")
    assert code == 0 and json.loads(stdout)["agents"]["satx"]["games"] == 4
    # a file without its study record is not resumed blindly
    Path(f"{out}.study.json").unlink()
    code, _, err = run(capsys, *base, "--runs", "4", "--seed", "1", "--resume")
    assert code == 2 and "study record" in err


def test_a_resume_never_mixes_two_studies(capsys, tmp_path):
    """Issue 26: the record keeps what the names meant: a map's contents and group, an
    agent file's source; a resume that differs is refused, naming what changed."""
    maps = ROOT / "maps" / "daggers" / "2018"
    folder, other = tmp_path / "a", tmp_path / "b"
    folder.mkdir()
    other.mkdir()
    (folder / "A.txt").write_text((maps / "EASY1.txt").read_text())
    agent = tmp_path / "mine.py"
    agent.write_text((ROOT / "examples" / "my_agent.py").read_text())
    out = tmp_path / "r.csv"
    study = ["compare", "--agents", f"spx,{agent}:MyAgent", "--jobs", "1", "--out", str(out)]
    assert run(capsys, *study, str(folder), "--runs", "2")[0] == 0
    # same name, other contents: HARD1 with its name line set to EASY1
    (folder / "A.txt").write_text((maps / "HARD1.txt").read_text().replace("name: HARD1",
                                                                         "name: EASY1"))
    code, _, err = run(capsys, *study, str(folder), "--runs", "4", "--resume")
    assert code == 2 and "'EASY1' has other contents" in err and err.count("\n") == 1
    (folder / "A.txt").write_text((maps / "EASY1.txt").read_text())
    # the same map from another folder, and another grouping
    (other / "A.txt").write_text((maps / "EASY1.txt").read_text())
    code, _, err = run(capsys, *study, str(other), "--runs", "4", "--resume")
    assert code == 2 and "was in group 'a', now in 'b'" in err
    code, _, err = run(capsys, *study, str(folder), "--runs", "4", "--resume", "--group-by", "map")
    assert code == 2 and "was in group 'a', now in 'EASY1'" in err
    # a changed agent file
    agent.write_text(agent.read_text() + "\n# changed\n")
    code, _, err = run(capsys, *study, str(folder), "--runs", "4", "--resume")
    assert code == 2 and "source file of agent" in err and "has changed" in err
    agent.write_text(agent.read_text().replace("\n# changed\n", ""))
    assert len(read_rows(out)) == 4  # nothing was added by a refused resume
    # the same study may grow its runs
    code, stdout, _ = run(capsys, *study, str(folder), "--runs", "3", "--resume", "--json")
    assert code == 0 and json.loads(stdout)["agents"]["spx"]["games"] == 3


def test_every_results_file_the_program_writes_reads_back(capsys, tmp_path):
    """Names with line separators, long names, huge counters: written and read back, or
    refused before anything is written."""
    text = (ROOT / "maps/daggers/2018/EASY1.txt").read_text().replace("name: EASY1\n", "")
    odd = tmp_path / "E\u2028A\u0085B\rC.txt"
    odd.write_text(text)
    long = tmp_path / "long.txt"
    long.write_text(f"name: {'x' * 100_000}\n{text}")
    for suffix in ("csv", "jsonl"):
        out = tmp_path / f"r.{suffix}"
        for runs, resume in (("2", []), ("3", ["--resume"])):
            code, stdout, err = run(capsys, "compare", str(odd), str(long), "--agents", "spx",
                                    "--runs", runs, "--jobs", "1", "--out", str(out), "--json",
                                    *resume)
            assert code == 0, err
        rows = read_rows(out)
        assert len(rows) == 6 and {r.map for r in rows} == {"E\u2028A\u0085B\rC", "x" * 100_000}
    huge = tmp_path / "huge.txt"
    huge.write_text(f"name: {'y' * 200_000}\n{text}")
    code, _, err = run(capsys, "compare", str(huge), "--agents", "spx", "--runs", "1",
                       "--out", str(tmp_path / "h.csv"))
    assert code == 2 and "names of at most" in err and not (tmp_path / "h.csv").exists()
    faulty = ROOT / "tests" / "agents" / "faulty.py"
    out = tmp_path / "c.csv"
    code, _, err = run(capsys, "compare", "EASY1", "--agents", f"{faulty}:HugeCounter",
                       "--runs", "1", "--jobs", "1", "--out", str(out))
    (row,) = read_rows(out)  # the counter past 10^15 is refused, not a row that cannot be
    # read; after the game ended (issue 66), so the world's outcome stands and it is a note
    assert code == 0 and row.outcome == "lost" and "10^15" in row.error
    assert row.error.startswith("after the game ended, ")


def test_a_study_record_is_read_as_data(capsys, tmp_path):
    out = tmp_path / "r.csv"
    base = ["compare", "EASY1", "--agents", "spx", "--runs", "1", "--jobs", "1", "--out", str(out)]
    assert run(capsys, *base)[0] == 0
    sidecar = Path(f"{out}.study.json")
    good = json.loads(sidecar.read_text())
    for key, value in (("runs", "abc"), ("runs", None), ("runs", [2]), ("runs", True),
                       ("runs", 10**20), ("agents", "x"), ("instances", 7), ("seed", [])):
        sidecar.write_text(json.dumps({**good, key: value}))
        code, _, err = run(capsys, *base, "--resume")
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (key, value, err)
    for text in ("[]", "null", '"x"', "{", ""):
        sidecar.write_text(text)
        code, _, err = run(capsys, *base, "--resume")
        assert code == 2 and err.count("\n") == 1, (text, err)


def test_a_torn_csv_header_is_rewritten(capsys, tmp_path):
    out = tmp_path / "h.csv"
    out.write_text("agent,map,gr")
    code, _, err = run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "2", "--jobs", "1",
                       "--out", str(out), "--resume")
    assert code == 2 and "study record" in err  # refused, and the file is left alone
    assert out.read_text() == "agent,map,gr"
    study = tmp_path / "s.csv"
    assert run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "2", "--jobs", "1",
               "--out", str(study))[0] == 0
    study.write_text("agent,map,gr")  # a crash tore the header of a file of this study
    assert run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "2", "--jobs", "1",
               "--out", str(study), "--resume")[0] == 0
    assert study.read_text().startswith(",".join(ROW_FIELDS))
    assert len(read_rows(study)) == 2


def _with_bom(src: Path, dst: Path) -> str:
    dst.write_bytes(b"\xef\xbb\xbf" + src.read_bytes())
    return str(dst)


def test_a_byte_order_mark_is_accepted_in_every_input_kind(capsys, tmp_path):
    maps = ROOT / "maps"
    kinds = [
        (["play", "--agent", "spx", "--quiet"], maps / "daggers/2018/EASY1.txt", "m.txt"),
        (["solve"], maps / "sudoku/norvig_easy50.txt", "s.txt"),
        (["solve", "--game", "undead"], maps / "undead/4x4dt.tsv", "u.tsv"),
        (["solve", "--game", "undead"], maps / "undead/report-4x4.txt", "p.txt"),
        (["solve", "--game", "mazes"], maps / "mazes/eom-6x6-02.txt", "z.txt"),
    ]
    for verb, src, name in kinds:
        code, _, err = run(capsys, *verb, _with_bom(src, tmp_path / name))
        assert code == 0, (name, err)
    made = tmp_path / "made"
    made.mkdir()
    assert run(capsys, "cnf", "EASY1", "-o", str(made / "q.cnf"))[0] == 0
    assert run(capsys, "play", "EASY1", "--quiet", "--trace", str(made / "t.jsonl"))[0] == 0
    assert run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "2", "--jobs", "1",
               "--out", str(made / "r.csv"))[0] == 0
    assert run(capsys, "inspect", _with_bom(made / "q.cnf", tmp_path / "q.cnf"))[0] == 0
    assert run(capsys, "replay", _with_bom(made / "t.jsonl", tmp_path / "t.jsonl"))[0] == 0
    bommed = _with_bom(made / "r.csv", tmp_path / "r.csv")
    Path(f"{bommed}.study.json").write_bytes(Path(f"{made / 'r.csv'}.study.json").read_bytes())
    code, _, err = run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "3", "--jobs",
                       "1", "--out", bommed, "--resume")
    assert code == 0, err
    assert len(read_rows(bommed)) == 3


def test_long_arguments_are_puzzles_not_file_names(capsys, tmp_path):
    line = next(raw.split("#")[0].replace(" ", "") for raw in
                (ROOT / "maps/sudoku/lloyd_amos/inst16x16_p040.txt").read_text().splitlines()
                if raw.strip() and not raw.startswith("#"))
    assert len(line) == 256
    code, out, err = run(capsys, "solve", line, "--json")
    assert code == 0 and json.loads(out)["status"] == "solved", err
    code, out, err = run(capsys, "play", line, "--quiet")
    assert code == 0 and "WON" in out, err
    code, out, err = run(capsys, "cnf", line, "-o", str(tmp_path / "s.cnf"))
    assert code == 0, err
    rng = random.Random(3)
    solution = "".join(rng.choice("GVZLR") for _ in range(14 * 14))
    game_id = format_game_id(puzzle_from_solution(14, 14, solution))
    assert len(game_id) > 255
    code, out, err = run(capsys, "solve", game_id, "--json")
    assert code == 0 and json.loads(out)["status"] == "solved", err
    code, out, err = run(capsys, "play", game_id, "--quiet")
    assert code == 0, err
    # a long argument that is neither is one error line
    code, _, err = run(capsys, "solve", "x" * 5000, "--game", "sudoku")
    assert code == 2 and err.count("\n") == 1


def test_one_resolver_for_every_verb(capsys, tmp_path):
    top95 = str(ROOT / "maps/sudoku/norvig_top95.txt")
    code, out, _ = run(capsys, "solve", f"{top95}:3", "--json")
    assert code == 0 and json.loads(out)["puzzle"] == "norvig_top95:3"
    code, out, _ = run(capsys, "play", f"{top95}:3", "--quiet")
    assert code == 0 and "norvig_top95:3" in out
    code, out, _ = run(capsys, "compare", f"{top95}:3", "--agents", "sat", "--runs", "1",
                       "--jobs", "1", "--json")
    assert code == 0 and json.loads(out)["agents"]["sat"]["games"] == 1
    import logic_agents as la

    assert la.load(f"{top95}:3").name == la.load("norvig_top95:3").name == "norvig_top95:3"
    assert la.load("5x5dt:2").name == la.load(str(ROOT / "maps/undead/5x5dt.tsv") + ":2").name


def test_a_maze_file_says_what_it_is(capsys, tmp_path):
    from logic_agents.games.mazes import format_board, load_board

    board = load_board(ROOT / "maps/mazes/eom-9x9-18.txt")
    bare = tmp_path / "nine.txt"
    bare.write_text(format_board(board))  # no comment, but its `game: mazes` line
    code, out, err = run(capsys, "solve", str(bare), "--json")
    assert code == 0 and json.loads(out)["game"] == "mazes", err
    code, out, err = run(capsys, "play", str(bare), "--quiet")
    assert code == 0 and "WON" in out, err


def test_limits_are_clear_and_can_be_lifted(capsys, tmp_path):
    big = tmp_path / "big.cnf"
    big.write_text("p cnf 200000000 1\n200000000 0\n")
    code, _, err = run(capsys, "inspect", str(big), "--solve")
    assert code == 2 and "--no-limits" in err and err.count("\n") == 1
    satlib = tmp_path / "uf.cnf"
    satlib.write_text("c SATLIB\np cnf 3 2\n1 -2 0\n2 3 0\n%\n0\n\n")
    code, out, err = run(capsys, "inspect", str(satlib), "--solve", "--json")
    assert code == 0 and json.loads(out)["clauses"] == 2, err
    code, _, err = run(capsys, "solve", "100x100:1,1,1,a,0", "--game", "undead")
    assert code == 2 and "--no-limits" in err
    for text in ("p cnf 3 1\n1 ² 0\n", "p cnf ٣ 1\n1 0\n", "p cnf " + "9" * 5000 + " 0\n"):
        bad = tmp_path / "bad.cnf"
        bad.write_text(text)
        code, _, err = run(capsys, "inspect", str(bad))
        assert code == 2 and err.count("\n") == 1


def test_closed_and_full_stdout(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "logic_agents", "play", "HARD1"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == b""
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "logic_agents", "solve",
                                   str(ROOT / "maps/sudoku/norvig_easy50.txt")], cwd=ROOT,
                                  stdout=full, stderr=subprocess.PIPE, text=True, env=env)
        assert done.returncode == 2 and done.stderr.count("\n") == 1


def _lines(path: Path) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")
def test_ctrl_c_on_generate_keeps_every_puzzle_and_resume_makes_the_same_file(capsys, tmp_path):
    argv = ["generate", "undead", "--size", "10x10", "--count", "20", "--seed", "8"]
    cut, whole = tmp_path / "cut", tmp_path / "whole"
    proc = subprocess.Popen([sys.executable, "-m", "logic_agents", *argv, "-o", str(cut)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    target = cut / "undead10x10-s8.tsv"
    deadline = time.time() + 60
    while time.time() < deadline and (not target.exists() or len(_lines(target)) < 3):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    held = _lines(target)
    assert 3 <= len(held) < 20
    assert target.read_text().endswith("\n")  # no torn line
    # a re-run without --resume refuses to overwrite; with it, the rest is made
    code, _, err = run(capsys, *argv, "-o", str(cut))
    assert code == 2 and "--resume" in err
    code, out, _ = run(capsys, *argv, "-o", str(cut), "--resume")
    assert code == 0 and f"kept the {len(held)} already there" in out
    assert run(capsys, *argv, "-o", str(whole))[0] == 0
    assert target.read_text() == (whole / "undead10x10-s8.tsv").read_text()
    # another run's file is refused, naming both
    sudoku = ["generate", "sudoku", "--size", "4", "--count", "2", "-o", str(tmp_path / "s")]
    assert run(capsys, *sudoku)[0] == 0
    code, _, err = run(capsys, *sudoku, "--clues", "6", "--resume")
    assert code == 2 and "made by another run" in err and "clues 6" in err


def test_generate_resume_skips_files_already_written(capsys, tmp_path):
    argv = ["generate", "mazes", "--size", "6", "--count", "4", "--seed", "2", "-o", str(tmp_path)]
    assert run(capsys, *argv)[0] == 0
    files = sorted(tmp_path.glob("*.txt"))
    first = {p.name: p.read_text() for p in files}
    files[1].unlink()
    files[2].write_text("torn")
    code, out, _ = run(capsys, *argv, "--resume")
    assert code == 0 and "wrote 2 unique" in out and "kept the 2 already there" in out
    assert {p.name: p.read_text() for p in sorted(tmp_path.glob("*.txt"))} == first
    assert not list(tmp_path.glob(".*partial"))
    daggers = ["generate", "daggers", "--preset", "cs5011-easy", "--count", "3", "-o",
               str(tmp_path / "d")]
    assert run(capsys, *daggers)[0] == 0
    code, out, _ = run(capsys, *daggers, "--resume")
    assert code == 0 and "wrote 0" in out and "kept the 3" in out


def test_what_is_written_is_never_past_what_is_read(capsys, tmp_path, monkeypatch):
    """A trace stops at the size replay reads; a results file of any size reads back."""
    from logic_agents.ground import inputs
    from logic_agents.world import trace

    monkeypatch.setattr(trace, "MAX_INPUT_BYTES", 4096)
    code, _, err = run(capsys, "play", "HARD1", "--agent", "satx", "--quiet", "--trace",
                       str(tmp_path / "t.jsonl"))
    assert code == 2 and "more than replay and view read" in err and err.count("\n") == 1
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1024)
    out = tmp_path / "r.csv"
    assert run(capsys, "compare", "EASY1", "--agents", "spx", "--runs", "40", "--jobs", "1",
               "--out", str(out))[0] == 0
    assert out.stat().st_size > 1024 and len(read_rows(out)) == 40
