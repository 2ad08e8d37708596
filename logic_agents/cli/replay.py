"""`logic-agents replay`: re-run a trace in a fresh world and check every step."""

from __future__ import annotations

import argparse
import json
from typing import Any

from logic_agents.cli.common import limit_flag


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="re-run a trace and check it",
                       description="Re-run a --trace file in a fresh world; exit 2 if any step "
                       "differs.")
    p.add_argument("trace", metavar="TRACE.jsonl")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    limit_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from logic_agents.world.trace import replay

    report = replay(args.trace)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"trace agrees: {report['steps']} steps replayed, outcome {report['outcome']}, "
              f"score {report['score']}")
    return 0
