"""`logic-agents maps`: the shipped instances of every game (or one).

What it prints loads wherever the package is installed: `name` is the reference to type (a
shipped map's name, or a shipped file of many, `norvig_top95`, whose K-th instance is
`norvig_top95:K`) and `folder` a shipped folder (`2018`: every map in it, for `compare`). The
file itself lives in the installed package (`--json` gives its absolute `path`), not in the
checkout's `maps/`.
"""

from __future__ import annotations

import argparse
import json

from logic_agents.cli.common import VERB_HELP, ParserMaker
from logic_agents.ground.output import make_console, names_table, natural_key
from logic_agents.ground.shapes import Record
from logic_agents.world.registry import games, get_game
from logic_agents.world.resolve import maps_folder
from logic_agents.world.spec import GameSpec


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "maps", help=VERB_HELP["maps"], description="List the shipped maps.")
    p.add_argument("--game", default=None, metavar="NAME", help="only this game's maps")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(run=run)


def shipped_rows(spec: GameSpec) -> list[Record]:
    """One row per shipped file of a game: its name, folder, path, facts and puzzle count."""

    root = maps_folder(spec)
    if root is None:
        return []
    rows = []
    files = [p for suffix in ("*.txt", "*.tsv") for p in root.rglob(suffix)]
    for path in sorted(files, key=lambda p: natural_key(str(p))):
        folder = path.parent.relative_to(root).as_posix()
        row: Record = {"game": spec.name, "folder": "" if folder == "." else folder,
                       "path": str(path.resolve())}
        instances = spec.instances.read(path)
        instance = instances[0]
        if spec.instances.many:  # a file of many instances
            row["name"] = path.stem
            row["puzzles"] = len(instances)
        else:
            row["name"] = instance.name
        row.update(spec.instances.facts(instance))
        rows.append(row)
    return rows


def run(args: argparse.Namespace) -> int:
    chosen = [get_game(args.game)] if args.game else list(games().values())
    rows = [row for spec in chosen for row in shipped_rows(spec)]
    if args.json:
        print(json.dumps(rows))
        return 0
    columns = list(dict.fromkeys(k for row in rows for k in row)) or ["game", "name"]
    columns = ["name", "game"] + [c for c in columns if c not in ("name", "game", "path")]
    console = make_console()
    console.print(names_table(f"shipped maps ({len(rows)})", columns,
                              [[str(row.get(col, "")) for col in columns] for row in rows],
                              ("name", "game"), console.width))
    return 0
