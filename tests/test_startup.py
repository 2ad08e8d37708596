"""Start-up stays light: the play and solve paths never import sympy (nor the optional
extras), which cost every call over a second before; sympy comes in only where a formula is
built or printed. Each check runs in a fresh interpreter, so nothing earlier in the test
process can hide an import; `play` runs --in-process, since it otherwise plays in a child
whose imports this process would not see. (Speed itself is measured by benchmarks/bench_startup.py.)"""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import PROJECT_DISTRIBUTIONS, ROOT

SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HEAVY = ("sympy", "textual", "matplotlib", "ray")
# the project's own games only (its built-in ones and its two example plug-ins): a plug-in a
# user installed beside them may import what it likes, and `games --check` tells them what
# that costs every command (world.import_cost); these tests are about the project's code
OURS = """
import logic_agents.world.installed as installed
every = installed.entry_points
def ours(group):
    return [e for e in every(group) if e.distribution in OURS]
installed.entry_points = ours
""".replace("OURS", repr(PROJECT_DISTRIBUTIONS))


def loaded_after(*commands: list[str]) -> list[str]:
    """The heavy modules loaded after running the commands in one fresh interpreter."""
    commands = tuple([*argv, "--in-process"] if argv[0] == "play" else argv for argv in commands)
    code = (OURS + "import json, sys\nfrom logic_agents.cli import main\n"
            f"for argv in {commands!r}:\n    main(argv)\n"
            f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_play_and_solve_of_every_game_load_no_sympy():
    assert loaded_after(["--help"], ["play", "EASY1", "--agent", "satx", "--json"],
                        ["play", "HARD1", "--agent", "prob", "--json"],
                        ["solve", SUDOKU], ["solve", "4x4de:1", "--unique", "--json"],
                        ["solve", "eom-6x6-01", "--json"],
                        ["play", "ooze", "--agent", "sat", "--max-ticks", "20", "--json"],
                        ["play", "akari-7x7-a", "--agent", "dfs", "--json"],
                        ["play", "lights-5x5-a", "--agent", "chase", "--json"]) == []


def test_the_check_sees_sympy_where_formulas_are_built_or_printed(tmp_path):
    assert "sympy" in loaded_after(["play", "EASY1", "--agent", "satx", "--encoding", "sympy",
                                    "--json"])
    assert "sympy" in loaded_after(["cnf", "EASY1", "-o", str(tmp_path / "e.cnf")])
