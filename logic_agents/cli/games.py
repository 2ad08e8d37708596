"""`logic-agents games`: every registered game, built-in or a plug-in, with its agents.

`games --json` prints one JSON list of {name, description, origin, agents, verbs, example};
`games NAME` shows one game's agents with their declared options.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from logic_agents.output import make_console
from logic_agents.world.registry import ENTRY_POINT_GROUP, broken_games, games, get_game, origin


def add_parser(sub: Any) -> None:
    p = sub.add_parser("games", help="list the games, their agents and their options",
                       description="List every registered game (built-in or installed as a "
                       f"plug-in through the entry-point group {ENTRY_POINT_GROUP}).")
    p.add_argument("game", nargs="?", metavar="NAME", help="show this game's agents and options")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(run=run)


def describe(spec: Any) -> dict[str, Any]:
    return {"name": spec.name, "description": spec.description, "origin": origin(spec.name),
            "agents": list(spec.agents), "verbs": spec.verbs, "example": spec.example,
            "default_agent": spec.default_agent, "objective": spec.objective}


def agent_rows(spec: Any) -> list[dict[str, Any]]:
    return [{"name": entry.name, "help": entry.help, "interactive": entry.interactive,
             "options": [{"flag": o.flag, "type": o.type.__name__, "default": o.default,
                          "choices": list(o.choices), "help": o.help}
                         for o in entry.declared()]}
            for entry in spec.agents.values()]


def run(args: argparse.Namespace) -> int:
    from rich.markup import escape
    from rich.table import Table

    console = make_console()
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
    table = Table(title=f"games ({len(rows)})")
    for col in ("name", "origin", "agents", "verbs", "example", "description"):
        table.add_column(col)
    for row in rows:
        table.add_row(row["name"], row["origin"], ", ".join(row["agents"]),
                      ", ".join(row["verbs"]), escape(row["example"]), escape(row["description"]))
    console.print(table)
    for name, why in broken_games().items():
        console.print(f"[red]{escape(name)}: {escape(why)}[/red]")
    return 0
