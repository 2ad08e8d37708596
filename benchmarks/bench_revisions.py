"""Two revisions side by side, in one run: start-up and `compare` cost, and the same output.

Each command runs in a fresh process with PYTHONPATH set to a checkout of the revision (this
working tree, and `--against REV` in a temporary git worktree, its C extensions built in
place), alternating, `--rounds` times, after one round that is not counted. Both trees are
byte-compiled first and the children may write bytecode: with PYTHONDONTWRITEBYTECODE set
(as it is on some machines), a fresh worktree would otherwise pay for compiling every module
on every run, about 60 ms of start-up that is not the code's (measured: HEAD against
itself). Only the built-in games are registered (`--plugins` keeps the installed ones): a
plug-in installed for the newer tree may fail to load in an older one, which then loads
fewer games and looks faster. It prints the median and the max of the wall time and of the
CPU time (user + sys of the child) per command and revision, and whether both revisions
printed the same JSON (a refactoring changes no answer).

    .venv/bin/python benchmarks/bench_revisions.py --against 473c413 [--rounds 7] [--only WORDS]
                                                [--base REV]

With `--base REV` the newer side is a worktree of REV too: the working tree's own folder
measured about 30 ms a command slower than a worktree of the same commit (HEAD against the
working tree, unchanged), so a fine comparison puts both sides in worktrees.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_prob import build_in_place  # noqa: E402
from harness import Spread, arguments, children_cpu, load, parse, table, write_report  # noqa: E402

SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
COMMANDS = {
    "--help": ["--help"],
    "play EASY1 --agent satx --json": ["play", "EASY1", "--agent", "satx", "--json"],
    "solve <one 9x9 line> --json": ["solve", SUDOKU, "--json"],
    # the study of docs/BENCHMARKS.md, "The library contract's refactor"
    "compare 2018 spx,satx,prob --runs 10 --jobs 2": [
        "compare", "maps/daggers/2018", "--agents", "spx,satx,prob", "--runs", "10", "--jobs",
        "2", "--json"],
    # every shipped file read (Sudoku's 10,000-puzzle set among them), for the rows it lists
    "maps --json": ["maps", "--json"],
    # Ooze's rbfs (the report's best-first search), a game each on seeds no change was tuned on
    **{f"play ooze --agent rbfs --seed {seed}": ["play", "ooze", "--agent", "rbfs", "--seed",
                                                 str(seed), "--json"] for seed in (101, 202, 303)},
}
VARYING = ("time_s", "cpu_s", "mean_time_s", "mean_cpu_s")  # measured, not answers


# the child: `python -m logic_agents ARGV`, with the entry points of the games group cut to the
# built-in games (logic-agents' own distribution) unless plug-ins are wanted
CHILD = """
import runpy, sys
if sys.argv[1] == "builtin":
    try:  # a revision that reads the entry points itself (world.installed)
        import logic_agents.world.installed as installed
    except ImportError:  # an older one asks importlib.metadata
        import importlib.metadata as md
        every = md.entry_points
        def ours(**kw):
            found = every(**kw)
            if kw.get("group") != "logic_agents.games":
                return found
            return md.EntryPoints(e for e in found if e.dist is not None and e.dist.name == "logic-agents")
        md.entry_points = ours
    else:
        own = installed.entry_points
        installed.entry_points = lambda group: [
            e for e in own(group) if group != "logic_agents.games" or e.distribution == "logic-agents"]
sys.argv = ["logic-agents", *sys.argv[2:]]
runpy.run_module("logic_agents", run_name="__main__", alter_sys=True)
"""
PLUGINS = ["builtin"]  # main() sets ["all"] for --plugins


def run(tree: Path, argv: list[str]) -> tuple[float, float, str]:
    """(wall s, CPU s of the child and its children, stdout) of one command."""
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "200"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, *PLUGINS, *argv], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - started
    return wall, children_cpu() - before, done.stdout


def answers(text: str, tree: Path) -> str:
    """The output without what is measured (times), and with the tree's own folder written
    <tree> (`maps` prints each file's path), so two revisions can be compared."""
    import json

    text = text.replace(str(tree.resolve()), "<tree>")

    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in VARYING}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    try:
        return json.dumps(strip(json.loads(text)), sort_keys=True)
    except ValueError:  # --help: the text itself
        return text


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--against", metavar="REV", help="the other revision (required but "
                        "with --tiny, which takes HEAD)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--plugins", action="store_true",
                        help="register the installed plug-in games too (default: built-in only)")
    parser.add_argument("--base", metavar="REV",
                        help="measure a worktree of REV rather than this working tree (both "
                        "sides then run from fresh worktrees alike)")
    parser.add_argument("--only", metavar="WORDS",
                        help="the commands whose name holds WORDS (default: every command)")
    args = parse(parser)
    if args.tiny:  # `--help` of this tree beside HEAD's, one round
        args.against, args.rounds, args.only = args.against or "HEAD", 1, "--help"
    if args.against is None:
        parser.error("--against REV is required")
    started = time.perf_counter()
    commands = {name: argv for name, argv in COMMANDS.items() if args.only is None or args.only in name}
    if not commands:
        parser.error(f"no command holds {args.only!r}; the commands: {', '.join(COMMANDS)}")
    if args.plugins:
        PLUGINS[:] = ["all"]
    with tempfile.TemporaryDirectory(prefix="la-rev-") as temp:
        other = Path(temp) / "tree"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(other), args.against],
                       cwd=ROOT, check=True)
        base, label = ROOT, "working tree"
        if args.base:
            base = Path(temp) / "base"
            label = args.base if args.base != args.against else f"{args.base} (base)"
            subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.base],
                           cwd=ROOT, check=True)
        try:
            trees = {args.against: other, label: base}
            for tree in trees.values():
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "logic_agents")],
                               check=True)
                if tree != ROOT:  # a worktree plays with its own compiled kernel, if it has one
                    print(f"{tree.name}: prob's kernel "
                          f"{'built' if build_in_place(tree, require=False) else 'absent'}")
            for argv in commands.values():  # a warm-up round, not counted (file caches)
                for tree in trees.values():
                    run(tree, argv)
            times: dict[tuple[str, str], list[tuple[float, float]]] = {}
            outputs: dict[tuple[str, str], set[str]] = {}
            for _ in range(args.rounds):
                for name, argv in commands.items():
                    for label, tree in trees.items():
                        wall, cpu, out = run(tree, argv)
                        times.setdefault((name, label), []).append((wall, cpu))
                        outputs.setdefault((name, label), set()).add(answers(out, tree))
            rows = []
            for name in commands:
                for label in trees:
                    walls = Spread.of([w for w, _ in times[name, label]])
                    cpus = Spread.of([c for _, c in times[name, label]])
                    same = outputs[name, label] == outputs[name, list(trees)[-1]]
                    rows.append([f"`{name}`", label, walls.shown(digits=3, tail=False),
                                 cpus.shown(digits=3, tail=False), "yes" if same else "NO"])
            body = (f"{args.rounds} rounds, alternating; load {load()}\n\n"
                    + table(["command", "revision", "wall s, median / max",
                             "CPU s, median / max", "same answer"], rows))
            print(body)
            if args.out:
                write_report(args.out, "bench_revisions", "Two revisions side by side "
                             "(`benchmarks/bench_revisions.py`)", time.perf_counter() - started,
                             [(f"{label} beside {args.against}", body)])
        finally:
            for tree in (other, base):
                if tree != ROOT:
                    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
