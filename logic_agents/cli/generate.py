"""`logic-agents generate GAME`: instances from a game's Generator capability.

Every game that declares a generator gets a sub-command with its own flags; the shared flags
(--count, --seed, -o, --force, --resume, --json) and the report are the same for all.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from logic_agents.cli.common import VERB_HELP, Parser, ParserMaker, add_option, given, limit_flag
from logic_agents.errors import UsageError
from logic_agents.ground.inputs import lifted_limits
from logic_agents.referee.clock import process_capped, set_memory_cap
from logic_agents.world.generated import DEFAULT_ITEM_TIME_CAP_S, item_time_cap, kept_note
from logic_agents.world.options import integer, nonnegative_float
from logic_agents.world.registry import game_names, games, get_game
from logic_agents.world.spec import GameSpec, GenerateRequest, Generator


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
    if own.memory_cap and process_capped():
        set_memory_cap(own.memory_cap)
    with item_time_cap(own.time_cap or None):
        report = generator.generate(GenerateRequest(
            count=own.count, seed=own.seed, output=Path(own.output), force=own.force,
            resume=own.resume, options={o.name: given(own, o.name)
                                        for o in generator.options}))
    if own.json:
        print(json.dumps({"game": spec.name, "seed": own.seed, "files": report.files,
                          "kept": report.kept, **report.details}))
    else:
        print(f"wrote {report.made} {report.summary}{kept_note(report.kept)}")
    return 0
