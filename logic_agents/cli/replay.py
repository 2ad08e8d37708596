"""`logic-agents replay`: re-run a trace in a fresh world and check every step."""

from __future__ import annotations

import argparse
import json

from logic_agents.cli.common import VERB_HELP, ParserMaker, limit_flag
from logic_agents.display.terminal import Watcher
from logic_agents.ground.output import make_console
from logic_agents.ground.shapes import Record
from logic_agents.world.core import Why
from logic_agents.world.options import nonnegative_float
from logic_agents.world.spec import GameSpec
from logic_agents.world.trace import replay


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "replay", help=VERB_HELP["replay"],
        description="Re-run a --trace file in a fresh world; exit 2 if any step "
        "differs.")
    p.add_argument("trace", metavar="TRACE.jsonl")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--show", action="store_true", help="watch it: redraw the board in place "
                   "after each step, with the move and its why")
    p.add_argument("--delay", type=nonnegative_float, default=0.3, metavar="S",
                   help="with --show, seconds between steps (default 0.3)")
    limit_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    report = _show(args) if args.show and not args.json else replay(args.trace)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"trace agrees: {report['steps']} steps replayed, outcome {report['outcome']}, "
              f"score {report['score']}")
    return 0


def _show(args: argparse.Namespace) -> Record:
    watcher: Watcher | None = None

    def watch(spec: GameSpec, observation: object, record: Record | None) -> None:
        nonlocal watcher
        if watcher is None:
            watcher = Watcher(spec, make_console(), args.delay, f"{spec.name}  {args.trace}")
            watcher.__enter__()
        if record is None:
            watcher.show(observation)
        else:
            watcher.show(observation, spec.actions.from_json(record["action"]),
                         Why.from_json(record.get("why")), record["reward"])

    try:
        return replay(args.trace, watch=watch)
    finally:
        if watcher is not None:
            watcher.__exit__(None, None, None)
            print()
