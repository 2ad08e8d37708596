"""`logic-agents games`: every registered game, built-in or a plug-in, with its agents.

`games --json` prints one JSON list of {name, description, origin, agents, verbs, example};
`games NAME` shows one game's agents with their declared options; `games --check [NAME]`
runs world.contract.check_game, each game in a process of its own (exit 1 when a
game fails it, or does not load).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import cast

from rich.console import Console
from rich.markup import escape

from logic_agents.cli.common import VERB_HELP, ParserMaker
from logic_agents.errors import LogicAgentsError
from logic_agents.ground.output import make_console, names_table
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.pool import run_child
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.contract import CHECKS, CheckResult, GameCheck, check_game
from logic_agents.world.guard import CHECK_LIMIT_S, limit_of
from logic_agents.world.options import positive_float
from logic_agents.world.registry import (
    ENTRY_POINT_GROUP,
    broken_game_reasons,
    broken_games,
    games,
    get_game,
    origin,
    try_plugins_afresh,
)
from logic_agents.world.spec import GameSpec

KILL_AFTER_S = 5.0  # past a check's own alarm, before its process is killed


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "games", help=VERB_HELP["games"],
        description="List every registered game (built-in or installed as a "
        f"plug-in through the entry-point group {ENTRY_POINT_GROUP}).")
    p.add_argument("game", nargs="?", metavar="NAME", help="show this game's agents and options")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.add_argument("--check", action="store_true",
                   help="check the game's contract (every game, or NAME): its spec, instance "
                   "codec, world (determinism, hidden state, illegal actions, outcomes), action "
                   "codec, and that its default agent plays the example; exit 1 if any fails")
    p.add_argument("--limit", type=positive_float, default=CHECK_LIMIT_S, metavar="S",
                   help="with --check: the seconds each check of a plug-in game may take before "
                   f"it is stopped (default {CHECK_LIMIT_S:g}; built-in games are not timed)")
    p.set_defaults(run=run)


def describe(spec: GameSpec) -> Record:
    return {"name": spec.name, "description": spec.description, "origin": origin(spec.name),
            "agents": list(spec.agents), "verbs": spec.verbs, "example": spec.example,
            "default_agent": spec.default_agent, "objective": spec.objective}


def agent_rows(spec: GameSpec) -> list[Record]:
    return [{"name": entry.name, "help": entry.help, "interactive": entry.interactive,
             "options": [{"flag": o.flag, "type": o.type.__name__, "default": o.default,
                          "choices": list(o.choices), "help": o.help}
                         for o in entry.declared()]}
            for entry in spec.agents.values()]


def run(args: argparse.Namespace) -> int:
    console = make_console()
    if args.check:
        return run_check(args, console)
    if args.game:
        spec = get_game(args.game)
        if args.json:
            print(json.dumps({**describe(spec), "agents": agent_rows(spec)}))
            return 0
        console.print(f"[bold]{spec.name}[/bold]: {escape(spec.description)} "
                      f"({origin(spec.name)}); verbs: {', '.join(spec.verbs)}; example: "
                      f"{escape(spec.example or '-')}")
        for row in agent_rows(spec):
            mark = " (default)" if row["name"] == spec.default_agent else ""
            console.print(f"\n  [bold]{escape(row['name'])}[/bold]{mark}: {escape(row['help'])}")
            for o in row["options"]:
                choices = f" {{{','.join(map(str, o['choices']))}}}" if o["choices"] else ""
                default = "" if o["default"] in (None, "") else f" (default {o['default']})"
                console.print(f"    {o['flag']}{escape(choices)}  {escape(o['help'])}{default}")
        return 0
    rows = [describe(spec) for spec in games().values()]
    if args.json:
        print(json.dumps(rows))
        return 0
    columns = ["name", "agents", "example", "origin", "verbs", "description"]
    cells = [[row["name"], ", ".join(row["agents"]), escape(row["example"]), row["origin"],
              ", ".join(row["verbs"]), escape(row["description"])] for row in rows]
    console.print(names_table(f"games ({len(rows)})", columns, cells,
                              ("name", "agents", "example"), console.width))
    for name, why in broken_games().items():
        console.print(f"[red]{escape(name)}: {escape(why)}[/red]")
    return 0


def checked_apart(spec: GameSpec, seconds: float = CHECK_LIMIT_S) -> GameCheck:
    """check_game in a child process of its own: a plug-in whose world exits, or is stuck in
    C past its alarm, is killed there and reported, and the other games are still checked."""
    limit = limit_of(origin(spec.name), seconds)
    def check(clock: Clock) -> GameCheck:
        def progress(index: int) -> None:
            if clock.watch is not None and limit:
                clock.watch.set(time.monotonic() + limit + KILL_AFTER_S, index, "world")

        return check_game(spec, progress=progress, limit=seconds)

    report, failure = run_child(check, Caps(None, limit or seconds, DEFAULT_MEMORY_CAP_MIB),
                                quiet_stdout=True)
    if failure is None:
        return cast(GameCheck, report)
    stuck = CHECKS[min(failure.step, len(CHECKS) - 1)]
    words = (f"the {stuck} check did not answer its {limit:g} s alarm (stuck in C?); its "
             "process was killed" if failure.timeout else
             f"the {stuck} check ended its process ({failure.message})")
    results = [CheckResult(stuck, False, words)] + [
        CheckResult(name, False, "not run: an earlier check was killed")
        for name in CHECKS[CHECKS.index(stuck) + 1:]]
    return GameCheck(spec.name, results)


def _unquoted(broken: dict[str, str]) -> dict[str, str]:
    """The registry's keys for broken games (`'name'`, or `'name' from dist` for a clash) as
    the check names a game: `name` bare, as `games --check NAME` does."""
    return {(key[1:-1] if key.count("'") == 2 and key.startswith("'") and key.endswith("'")
             else key): why for key, why in broken.items()}


def run_check(args: argparse.Namespace, console: Console) -> int:
    """`games --check [NAME]`: check_game on one game or on every one that loads; a plug-in
    that does not load is a failure too."""
    try_plugins_afresh()  # a check does not trust a remembered trial
    names, broken = (list(games()), _unquoted(broken_games())) if not args.game else (
        [args.game], {})
    if args.game:  # one game: only its own entry point is imported
        try:
            get_game(args.game)
        except LogicAgentsError:
            if repr(args.game) not in broken_game_reasons():
                raise
            names, broken = [], {args.game: broken_game_reasons()[repr(args.game)]}
    checks = [checked_apart(get_game(name), args.limit) for name in names]
    if args.json:
        print(json.dumps([c.to_dict() for c in checks]
                         + [{"game": g, "ok": False, "checks": [
                             {"name": "load", "passed": False, "detail": why}]}
                            for g, why in broken.items()]))
    else:
        for check in checks:
            marks = " ".join(("[green]" if r.passed else "[red]") + r.name
                             + ("[/green]" if r.passed else "[/red]") for r in check.results)
            verdict = "[green]ok[/green]" if check.ok else "[bold red]FAILED[/bold red]"
            console.print(f"{escape(check.game)}: {verdict}  {marks}")
            for r in check.results:
                if not r.passed:
                    console.print(f"  {r.name}: {escape(r.detail)}")
        for game, why in broken.items():
            console.print(f"{escape(game)}: [bold red]FAILED[/bold red]  load\n  load: "
                          f"{escape(why)}")
    return 0 if all(c.ok for c in checks) and not broken else 1
