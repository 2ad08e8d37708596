"""`logic-agents generate GAME`: instances from a game's Generator capability.

Every game that declares a generator gets a sub-command with its own flags; the shared flags
(--count, --seed, -o, --force, --resume, --json) and the report are the same for all.
"""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path
from typing import Any

from logic_agents.cli.common import (
    VERB_HELP,
    Parser,
    ParserMaker,
    add_option,
    certify_flags,
    given,
    limit_flag,
)
from logic_agents.errors import LogicAgentsError, UsageError
from logic_agents.ground.inputs import lifted_limits
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import process_capped, set_memory_cap
from logic_agents.solving.puzzle import solved_certified
from logic_agents.world.generated import DEFAULT_ITEM_TIME_CAP_S, item_time_cap, kept_note
from logic_agents.world.options import integer, nonnegative_float
from logic_agents.world.registry import game_names, games, get_game
from logic_agents.world.resolve import resolve
from logic_agents.world.spec import GameSpec, GenerateRequest, Generator, Puzzle


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "generate", help=VERB_HELP["generate"],
        description="Write new instances of a game; each is written as soon as it is made, "
        "and --resume finishes an interrupted run. `generate GAME --help` shows the game's "
        "own options.")
    p.epilog_from = lambda: f"Games: {', '.join(game_names())} (those with a generator)."
    p.add_argument("game", metavar="GAME", help="the game")
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(run=run)


def common_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--count", type=integer, default=10, help="how many (default 10)")
    p.add_argument("--seed", type=integer, default=0, help="seed of the generator (default 0)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write into "
                   "(each instance is written as soon as it is made)")
    p.add_argument("--force", action="store_true", help="overwrite files already there")
    p.add_argument("--resume", action="store_true",
                   help="finish an interrupted run: keep the instances already written (the "
                   "same options make the same ones) and make the rest")
    p.add_argument("--json", action="store_true", help="print the written files as JSON")
    p.add_argument("--time-cap", dest="time_cap", type=nonnegative_float,
                   default=DEFAULT_ITEM_TIME_CAP_S, metavar="S",
                   help="stop when making one instance takes more than S seconds (the ones "
                   f"made before it are kept); 0: no cap (default {DEFAULT_ITEM_TIME_CAP_S:g})")
    certify_flags(p, "certify each written puzzle's uniqueness: the UNSAT answer that no "
                  "second solution exists, its DRAT proof checked")
    limit_flag(p)


def run(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    generator = spec.get(Generator)
    if generator is None:
        makers = [name for name, s in games().items() if s.get(Generator) is not None]
        raise UsageError(f"{spec.name} has no generator; generate knows {', '.join(makers)}")
    p = Parser(prog=f"logic-agents generate {spec.name}", description=generator.help)
    p.epilog_from = generator.epilog
    for option in generator.options:
        add_option(p, option)
    common_flags(p)
    own = p.parse_args(args.rest)
    with lifted_limits(bool(own.no_limits)):
        return _generate(spec, generator, own)


def _generate(spec: GameSpec, generator: Generator, own: argparse.Namespace) -> int:
    if own.count < 1:
        raise UsageError("--count must be at least 1")
    puzzle = spec.get(Puzzle)
    if own.certify and puzzle is None:
        raise UsageError(f"{spec.name}'s instances are no puzzles with one solution: "
                         "--certify has no uniqueness to certify")
    if own.memory_cap and process_capped():
        set_memory_cap(own.memory_cap)
    with item_time_cap(own.time_cap or None):
        report = generator.generate(GenerateRequest(
            count=own.count, seed=own.seed, output=Path(own.output), force=own.force,
            resume=own.resume, options={o.name: given(own, o.name)
                                        for o in generator.options}))
    certified = _certified(spec, puzzle, report.files, own.checker) \
        if own.certify and puzzle is not None else None
    if own.json:
        print(json.dumps({"game": spec.name, "seed": own.seed, "files": report.files,
                          "kept": report.kept, **report.details, **(certified or {})}))
    else:
        print(f"wrote {report.made} {report.summary}{kept_note(report.kept)}")
        if certified is not None:
            print(f"certified: {certified['certified']} of {certified['puzzles']} puzzles "
                  f"unique ({certified['claims']} UNSAT answers, {certified['lemmas']:,} "
                  f"lemmas; {own.checker})")
    return 0


def _certified(spec: GameSpec, puzzle: Puzzle[Any, Any], files: list[str],
               checker: str) -> Record:
    """Each written puzzle solved again with its uniqueness certified (solve --unique
    --certify): a puzzle that is not unique is a generator's bug, said so; a rejected proof
    is UncertifiedClaim. The counts, for the report."""
    counts = {"puzzles": 0, "certified": 0, "claims": 0, "lemmas": 0}
    for file in files:
        for instance in resolve(file, spec, every=True)[1]:
            result, tally = solved_certified(functools.partial(puzzle.solve, instance, True,
                                                               None), checker, instance.name)
            counts["puzzles"] += 1
            if result.status != "unique":
                raise LogicAgentsError(f"internal error: {file}: {instance.name} was written "
                                       f"as a unique puzzle, but it is {result.status}")
            counts["certified"] += 1
            counts["claims"] += tally.claims
            counts["lemmas"] += tally.lemmas
    return dict(counts)
