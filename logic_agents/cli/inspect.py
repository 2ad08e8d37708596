"""`logic-agents inspect`: the sizes of a DIMACS file, its clauses by name, and a model (drawn
on the board when the file names its game and instance)."""

from __future__ import annotations

import argparse
import json

from pysat.solvers import Solver
from rich.console import Console
from rich.markup import escape

from logic_agents.cli.board_model import model_board
from logic_agents.cli.common import VERB_HELP, ParserMaker, limit_flag
from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_text
from logic_agents.ground.output import make_console
from logic_agents.logic.certify import CHECKERS, DEFAULT_CHECKER, check_proof_file, parse_proof
from logic_agents.logic.dimacs import DimacsFile, read_dimacs, stats
from logic_agents.logic.names import SOLVERS
from logic_agents.logic.solvers import check_solver_name
from logic_agents.logic.why import certify_forced, named_formulas, why_forced
from logic_agents.world.options import integer


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "inspect", help=VERB_HELP["inspect"],
        description="Print the sizes of a DIMACS file, its clauses by variable "
        "name, and optionally a model.")
    p.add_argument("file", metavar="FILE.cnf")
    p.add_argument("--limit", type=integer, default=20, metavar="N",
                   help="list the first N clauses by name (default: 20; 0 lists none)")
    p.add_argument("--solve", action="store_true", help="solve it and print the model by name")
    p.add_argument("--solver", default="cadical195", choices=SOLVERS, metavar="NAME",
                   help="solver for --solve (default: cadical195)")
    p.add_argument("--why", metavar="NAME", help="say whether the file forces NAME's value and "
                   "which `c kb` formulas do it: a minimal set of them (files written by "
                   "`logic-agents cnf`)")
    p.add_argument("--check-proof", metavar="FILE.drat", help="check that the DRAT proof "
                   "(text) refutes the file: each lemma follows, and the empty clause at the "
                   "end (any solver's proof; `cnf --proof` writes ours)")
    p.add_argument("--certify", action="store_true", help="with --why: certify the UNSAT "
                   "answers the verdict rests on (the file forces NAME, the minimal set does; "
                   "or the file has no model), each proof checked (the certify extra)")
    p.add_argument("--checker", default=DEFAULT_CHECKER, choices=CHECKERS,
                   help=f"the proof checker of --check-proof and --certify (default: "
                   f"{DEFAULT_CHECKER}, verified in Why3; dratify: pure Python)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    limit_flag(p)
    p.set_defaults(run=run)


def _why(args: argparse.Namespace, cnf: DimacsFile) -> int:
    solver = check_solver_name(args.solver if args.solver != "cadical195" else "glucose4")
    found = why_forced(cnf, args.why, str(args.file), solver)
    tally = certify_forced(cnf, found, str(args.file), args.checker) if args.certify else None
    if args.json:
        certified = {} if tally is None else {"claims": tally.claims,
                                              "certified": tally.certified,
                                              "lemmas": tally.lemmas}
        print(json.dumps({"file": str(args.file), "name": found.name, "value": found.value,
                          "forced": found.forced, "formulas": list(found.formulas),
                          "minimal": found.minimal, **certified}))
        return 0
    console = make_console()
    if found.value is None:
        console.print(f"{escape(str(args.file))} is unsatisfiable: no value to explain")
    elif not found.forced:
        console.print(f"{escape(found.name)} is not forced: it can be True or False")
    else:
        by = ("by these formulas (a minimal set" + ("" if found.minimal else ", not minimised")
              + "):") if found.formulas else "by the clauses under no `c kb` line alone"
        console.print(f"{escape(found.name)} = {found.value}, forced {by}")
        for text in found.formulas:
            console.print(f"  {escape(text)}")
    if tally is not None:
        console.print(f"certified: {tally.certified} of {tally.claims} UNSAT answers "
                      f"({tally.lemmas:,} lemmas; {tally.checker} {tally.check_s:.3f} s)")
    return 0


def _check_proof(args: argparse.Namespace, cnf: DimacsFile) -> int:
    """Whether the proof refutes the file, or proves the unit clauses it ends with: exit 0
    when the checker accepts it, 1 when not."""
    proof = parse_proof(read_text(args.check_proof, "proof file").splitlines(),
                        str(args.check_proof))
    found, proved = check_proof_file(cnf.clauses, proof, args.checker, cnf.literal_name)
    names = [cnf.literal_name(lit) for lit in proved]
    if args.json:
        print(json.dumps({"file": str(args.file), "proof": str(args.check_proof),
                          "checker": found.checker, "accepted": found.accepted,
                          "refutes": found.accepted and not proved, "proves": names,
                          "lemmas": found.lemmas, "deletions": proof.deletions,
                          "check_s": round(found.check_s, 6), "words": found.words}))
        return 0 if found.accepted else 1
    console = make_console()
    what = (f"proves {len(names)} literals of" if names else "refutes")
    if found.accepted:
        console.print(f"[green]accepted[/green]: {escape(str(args.check_proof))} {what} "
                      f"{escape(str(args.file))} ({found.lemmas:,} lemmas, "
                      f"{proof.deletions:,} deletions; {found.checker}, {found.check_s:.3f} s)")
        for name in names[:args.limit or len(names)]:
            console.print(f"  {escape(name)}")
    else:
        console.print(f"[red]rejected[/red]: {escape(found.words)}")
    return 0 if found.accepted else 1


def _duplicates(clauses: list[list[int]]) -> int:
    """Clauses that repeat an earlier one (the same literals in any order)."""
    return len(clauses) - len({tuple(sorted(set(c))) for c in clauses})


def _list_clauses(console: Console, cnf: DimacsFile, limit: int) -> None:
    """The first `limit` distinct clauses by name, under the `c kb` formula each came from
    when the file says (a file written by `logic-agents cnf`)."""
    try:
        groups = named_formulas(cnf, "")
    except FormatError:
        groups = []
    title = {a: text for text, a, b in groups if b > a}
    owner = {c: a for _, a, b in groups for c in range(a, b)}
    console.print(f"[bold]first {min(limit, len(cnf.clauses))} clauses[/bold]"
                  + (" (under the formula they came from)" if groups else ""))
    seen: set[tuple[int, ...]] = set()
    shown, heading = 0, None
    for c, clause in enumerate(cnf.clauses):
        if shown >= limit:
            break
        key = tuple(sorted(set(clause)))
        if key in seen:
            continue
        seen.add(key)
        start = owner.get(c)
        if groups and start != heading:
            heading = start
            console.print(f"  [dim]{escape(title[start]) if start is not None else '(no formula)'}[/dim]")
        indent = "    " if groups else "  "
        console.print(indent + escape(" ∨ ".join(cnf.literal_name(lit) for lit in clause) or "⊥"))
        shown += 1


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    cnf = read_dimacs(args.file)
    if args.check_proof:
        return _check_proof(args, cnf)
    if args.why:
        return _why(args, cnf)
    info = stats(cnf)
    model_names = None
    status = None
    if args.solve:
        with Solver(name=check_solver_name(args.solver, incremental=False),
                    bootstrap_with=cnf.clauses) as solver:
            sat = solver.solve()
            status = "SATISFIABLE" if sat else "UNSATISFIABLE"
            if sat:
                model = solver.get_model()
                model_names = {cnf.names[abs(v)]: v > 0 for v in model if abs(v) in cnf.names}
    if args.json:
        out = {"file": str(args.file), **info}
        if args.solve:
            out["status"] = status
            out["model"] = model_names
        print(json.dumps(out))
        return 0
    console = make_console()
    table = Table(title=str(args.file), show_header=False)
    for key in ("variables", "clauses", "named", "auxiliary", "unused", "literals"):
        table.add_row(key, str(info[key]))
    table.add_row("duplicate clauses", str(_duplicates(cnf.clauses)))
    table.add_row("clause lengths",
                  "  ".join(f"{k}:{v}" for k, v in info["clause_lengths"].items()))
    console.print(table)
    for line in cnf.comments[:6]:
        console.print(f"[dim]c {escape(line)}[/dim]")
    if args.limit:
        _list_clauses(console, cnf, args.limit)
    if args.solve:
        console.print(f"s {status}")
        if model_names is not None:
            true_names = [n for n, v in model_names.items() if v]
            console.print(f"v true: {' '.join(true_names) or '(none)'}")
            console.print(f"v false: {sum(not v for v in model_names.values())} named variables")
            _draw(console, cnf, model_names)
    return 0


def _draw(console: Console, cnf: DimacsFile, model: dict[str, bool]) -> None:
    """When the header names a game and an instance, the model on its board."""

    drawn = model_board(cnf.comments, model)
    if drawn is not None:
        picture, words = drawn
        console.print(f"[bold]{words}[/bold]")
        console.print(picture)
