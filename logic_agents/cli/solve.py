"""`logic-agents solve`: solve static puzzles and say whether each solution is unique."""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from typing import Any

from rich.console import Console
from rich.markup import escape

from logic_agents.cli.common import (
    VERB_HELP,
    ParserMaker,
    certify_flags,
    examples,
    game_flag,
    limit_flag,
)
from logic_agents.errors import LogicAgentsError
from logic_agents.ground.output import make_console
from logic_agents.logic.solvers import check_solver_name
from logic_agents.solving.puzzle import solved_certified
from logic_agents.world.detect import detect_game
from logic_agents.world.registry import get_game
from logic_agents.world.resolve import resolve
from logic_agents.world.spec import GameSpec, Puzzle
from logic_agents.world.values import Answer, Instance


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "solve", help=VERB_HELP["solve"],
        description="Solve every puzzle of the files or given on the command line, for the "
        "games that are static puzzles (`logic-agents games` shows which).",
    )
    p.epilog_from = lambda: examples("solve", "{example} --unique",
                                     want=lambda spec: spec.get(Puzzle) is not None)
    p.add_argument("puzzles", nargs="+", metavar="FILE_OR_PUZZLE")
    game_flag(p, "the puzzles")
    p.add_argument("--unique", action="store_true",
                   help="also prove uniqueness (a second solution is shown if there is one)")
    p.add_argument("--solver", default=None, metavar="NAME",
                   help="PySAT solver (default: the game's, as measured)")
    certify_flags(p, "check the DRAT proof of every UNSAT answer the verdict rests on (no "
                  "solution, no second solution)")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle, one per line")
    limit_flag(p)
    p.set_defaults(run=run)


def puzzles_from(items: list[str], spec: GameSpec) -> list[Instance]:
    """Puzzles from files (every puzzle in each) and from puzzles written on the command line."""

    out = []
    for k, item in enumerate(items, start=1):
        label = f"<argument {k}>"
        source, parsed = resolve(item, spec, every=True, label=label)
        if source == label and not ("#" in item or "\t" in item):  # unnamed inline puzzles
            with_names = []
            for p in parsed:
                try:
                    # a game's instances are dataclasses by convention, not by their type
                    with_names.append(dataclasses.replace(p, name=f"puzzle {k}"))  # type: ignore[type-var]
                except (TypeError, ValueError):
                    with_names.append(p)
            parsed = with_names
        out += parsed
    return out


def run(args: argparse.Namespace) -> int:
    spec = get_game(args.game or detect_game(args.puzzles))
    puzzle = spec.need(Puzzle, "solve")
    if args.solver is not None:
        check_solver_name(args.solver)
    console = make_console()
    with puzzle.session():  # what the game keeps warm across the run's puzzles, closed after
        for instance in puzzles_from(args.puzzles, spec):
            _solve_one(args, spec, puzzle, instance, console)
    return 0


def _solve_one(args: argparse.Namespace, spec: GameSpec, puzzle: Puzzle[Any, Any], instance: Instance,
               console: Console) -> None:
    started = time.perf_counter()
    tally = None
    result: Answer[object]
    if args.certify:
        result, tally = solved_certified(
            lambda: puzzle.solve(instance, args.unique, args.solver), args.checker,
            instance.name)
    else:
        result = puzzle.solve(instance, args.unique, args.solver)
    elapsed = time.perf_counter() - started
    for found in (result.solution, result.second):
        if found is not None and not puzzle.is_solution(instance, found):  # pragma: no cover
            raise LogicAgentsError(f"internal error: {instance.name} got a wrong solution")
    status = "unsat" if result.status == "unsat" else "solved"
    unique = {"unique": True, "multiple": False}.get(result.status) if args.unique else None
    if args.json:
        out = {"game": spec.name, "puzzle": instance.name, "status": status, "unique": unique,
               "solution": (puzzle.to_json(instance, result.solution)
                            if result.solution is not None else None),
               "time_s": round(elapsed, 6)}
        if result.second is not None:
            out["second"] = puzzle.to_json(instance, result.second)
        if tally is not None:
            out.update(claims=tally.claims, certified=tally.certified)
        print(json.dumps(out), flush=True)
        return
    about = f" ({escape(puzzle.describe(instance))})"
    console.print(f"[bold]{escape(instance.name)}[/bold]{about}")
    if result.solution is not None:
        console.print(escape(puzzle.show(instance, result.solution)))
    verdict = {"unique": "solved, unique", "multiple": "solved, NOT unique",
               "solved": "solved", "unsat": "unsatisfiable: no solution"}[result.status]
    console.print(f"{verdict} in {1000 * elapsed:.2f} ms")
    if tally is not None:
        console.print(f"certified: {tally.certified} of {tally.claims} UNSAT answers "
                      f"({tally.lemmas:,} lemmas; {tally.checker} {tally.check_s:.3f} s)")
    if result.second is not None:
        console.print("a second solution:\n" + escape(puzzle.show(instance, result.second)))
    console.print()
