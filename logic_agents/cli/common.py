"""What the verbs share: the parser class, game and instance lookup, agent options, output.

Concepts:
- Parser: argparse whose error is one line and exit code 2; `epilog_from` makes an epilog
  only when help is shown, so `--help` imports no game.
- game_of(args, references): the game named by --game, else the one its references show.
- Agent options come from the agents' declarations (world.agents), as flags added to a verb's
  parser once the game and agents are known (the second parsing pass, see cli/__init__.py).
- print_result: a finished episode as a person reads it, or as one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

from logic_agents.errors import AgentOptionError, PluginFault, UsageError
from logic_agents.ground.inputs import path_exists
from logic_agents.ground.shapes import Record
from logic_agents.logic.certify import CHECKERS, DEFAULT_CHECKER
from logic_agents.referee import agents as seating
from logic_agents.referee.clock import DEFAULT_CAPS, DEFAULT_GAME_TIMEOUT_S, DEFAULT_MOVE_TIMEOUT_S, Caps
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.declared import Option
from logic_agents.world.detect import detect_game
from logic_agents.world.guard import plugin_code
from logic_agents.world.options import integer, nonnegative_float, positive_int
from logic_agents.world.registry import game_names, games_at_hand, get_game
from logic_agents.world.resolve import resolve, shipped_maps
from logic_agents.world.spec import AgentEntry, GameSpec, Lives
from logic_agents.world.values import Instance

if TYPE_CHECKING:  # rich is loaded where a board is drawn (--json and --quiet draw none)
    from rich.text import Text

PROG = "logic-agents"
VERB_HELP = {  # the verbs in the order --help lists them, and their one-line help
    "play": "run one agent on one map",
    "view": "write an HTML page to watch a game step by step",
    "compare": "compare agents over many maps and seeds (paired)",
    "report": "rebuild a study's summary, grades and page from its results file",
    "cnf": "write a knowledge base as DIMACS",
    "solve": "solve puzzles and say whether each solution is unique",
    "generate": "write new instances of a game (maps, unique puzzles)",
    "inspect": "summarise, list and solve a DIMACS file",
    "maps": "list the shipped maps",
    "games": "list the games, their agents and their options",
    "replay": "re-run a trace and check it",
}
Number = TypeVar("Number", int, float)


class ParserMaker(Protocol):
    """What a verb's `add_parser(sub)` is handed: argparse's sub-parser handle, or the CLI's
    lenient first-pass wrapper of it (argparse takes its keywords untyped)."""

    def add_parser(self, name: str, **kwargs: Any) -> Parser:
        """A verb's sub-parser."""
        ...


class Parser(argparse.ArgumentParser):
    """argparse, but an error is one line and exit code 2, and an epilog may be made only
    when its help is shown (`epilog_from`)."""

    epilog_from: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.epilog_from is not None:
            self.epilog = self.epilog_from()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        sys.exit(2)


def _first_only(signum: int, frame: FrameType | None) -> None:
    stop_listening()
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """The console script's handling of Ctrl-C and SIGTERM: either stops the command as
    Ctrl-C does (a study keeps its rows, exit 130); after the first, later ones are ignored
    while it stops, so a second Ctrl-C 50 ms later cannot kill it half-way through saving."""
    with contextlib.suppress(ValueError, OSError):  # not the main thread: leave them be
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _first_only)


def stop_listening() -> None:
    """The command is stopping: ignore Ctrl-C and SIGTERM from now on, where the console
    script handles them (a caller's own main([...]) keeps its handlers)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(sig) is _first_only:
                signal.signal(sig, signal.SIG_IGN)


def limit_flag(p: argparse.ArgumentParser) -> None:
    """--no-limits and --memory-cap: what every verb that reads inputs takes."""

    p.add_argument("--no-limits", dest="no_limits", action="store_true",
                   help="lift the size limits on inputs (boards, CNF variables); for huge "
                   "inputs on purpose (the memory cap still holds)")
    p.add_argument("--memory-cap", dest="memory_cap", type=positive_int, default=None,
                   metavar="MIB", help="the memory the command may take: searches stop at "
                   "MIB (estimated), and each process (this one, a worker, the child that "
                   f"plays) is capped at MIB + 512 MiB (default {DEFAULT_MEMORY_CAP_MIB})")


def certify_flags(p: argparse.ArgumentParser, what: str) -> None:
    """--certify (what it certifies: `what`) and --checker (logic.certify's checkers)."""
    p.add_argument("--certify", action="store_true",
                   help=f"{what}, with a proof checker that shares no code with the solver "
                   "(the certify extra)")
    p.add_argument("--checker", default=DEFAULT_CHECKER, choices=CHECKERS,
                   help=f"the proof checker of --certify (default: {DEFAULT_CHECKER}, verified "
                   "in Why3; dratify: pure Python)")


def caps_flags(p: argparse.ArgumentParser) -> None:
    """--move-timeout and --game-timeout: the time caps an agent plays under (with
    --memory-cap, which limit_flag adds)."""

    group = p.add_argument_group(
        "caps on the agent (an agent past one loses its game as `timeout` or `error`; "
        "see docs/compare.md, running agents you did not write)")
    group.add_argument("--move-timeout", dest="move_timeout", type=nonnegative_float, default=None,
                       metavar="S", help="stop an agent whose one call (a move, reset, its "
                       f"constructor) runs past S seconds; 0: no cap (default "
                       f"{DEFAULT_MOVE_TIMEOUT_S:g})")
    group.add_argument("--game-timeout", dest="game_timeout", type=nonnegative_float, default=None,
                       metavar="S", help="stop a game that runs past S seconds; 0: no cap "
                       f"(default {DEFAULT_GAME_TIMEOUT_S:g})")


# What the shared code reads from any verb's arguments, with what a verb that has no such flag
# means: the top-level parser sets them (cli.build_parser), so every namespace has them all
# and nothing probes for an attribute.
SHARED_ARGUMENTS: Record = {
    "argv": ["?"], "game_options": None, "fair_play": False, "no_limits": False,
    "backend": "process", "memory_cap": None, "move_timeout": None, "game_timeout": None,
    "lives": None, "out": None, "maps": None, "map": None, "agent": None, "in_process": False,
    "isolate": None, "trust": None, "sandbox": None, "hide": None, "import_timeout": None,
    "max_processes": None, "player_per_game": False, "pass_env": None,
    "agent_output": None,
}


def given(args: argparse.Namespace, name: str) -> Any:  # typed as the option declares
    """The value of a flag a game, an agent or a generator declares (None when not given):
    such names come from the declarations, so the namespace is read as the mapping it is."""
    return vars(args).get(name)


def caps_of(args: argparse.Namespace) -> Caps:
    """The sandbox.Caps the caps flags give (defaults where not given)."""

    def pick(given: Number | None, default: Number | None) -> Number | None:
        return default if given is None else (given or None)

    return Caps(pick(args.move_timeout, DEFAULT_CAPS.move_timeout),
                pick(args.game_timeout, DEFAULT_CAPS.game_timeout),
                pick(args.memory_cap, DEFAULT_CAPS.memory_cap))


def game_flag(p: argparse.ArgumentParser, what: str = "the map") -> None:
    p.add_argument("--game", default=None, metavar="NAME",
                   help=f"game of {what} (default: detected from its folder or content); "
                   "`logic-agents games` lists them")


def episode_flags(p: argparse.ArgumentParser) -> None:
    """What every verb that plays an episode takes: map, agent, seed, lives, game."""
    p.add_argument("map", metavar="MAP", help="map file (FILE:K for the K-th instance of a "
                   "file), a shipped map's name, or an instance written inline; `logic-agents "
                   "maps` lists the shipped ones")
    p.add_argument("--agent", default=None, metavar="NAME|FILE.py:CLASS|MODULE:CLASS",
                   help="a registered agent of the game (default: the game's), or your own "
                   "class; `logic-agents games GAME` lists the agents and their options")
    p.add_argument("--seed", type=integer, default=0, help="seed of world and agent (default: 0)")
    p.add_argument("--lives", type=positive_int, default=None,
                   help="starting lives, for games with lives (default: the map's, else 1)")
    game_flag(p)
    limit_flag(p)


def examples(verb: str, template: str, want: Callable[[GameSpec], object] | None = None) -> str:
    """Example lines of a verb, made from the registered games' own examples (the first two
    games that have what `want` asks for), so that no game is named here."""

    lines = []
    for spec in games_at_hand().values():  # a plug-in is not loaded for --help
        if spec.example and (want is None or want(spec)):
            lines.append(f"logic-agents {verb} " + template.format(
                example=spec.example, agent=spec.default_agent, game=spec.name,
                agents=",".join(list(spec.playing_agents())[:3])))
        if len(lines) == 2:
            break
    return ("Examples: " + "; ".join(lines) + ". ") if lines else ""


def agents_epilog() -> str:
    return ("Agent options (such as --solver or --node-cap) depend on the agent; they are "
            "listed with --help once MAP and --agent are given, and by `logic-agents games "
            f"GAME`. Games: {', '.join(game_names())}.")


def game_of(args: argparse.Namespace, references: list[str]) -> GameSpec:
    return get_game(args.game or detect_game(references))


def load_one(text: str, spec: GameSpec) -> tuple[str, Instance]:
    """(where it came from, the instance) for a FILE, FILE:K, shipped name or inline text."""

    source, instances = resolve(text, spec)
    return source, instances[0]


def portable_path(source: str) -> str:
    """A shipped map as maps/GAME/... (the same wherever the package is installed); another
    map relative to the working folder when it lies under it (else as given)."""

    for root, shown in ((shipped_maps("logic_agents", "maps"), "maps"), (Path.cwd(), "")):
        try:
            relative = Path(source).resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            continue
        return str(Path(shown) / relative) if shown else str(relative)
    return source


def refuse_overwrite(target: str, force: bool, flag: str) -> None:
    """UsageError if `target` exists (and is not a device such as /dev/null) without --force."""
    path = Path(target)
    if path_exists(path) and path.is_file() and not force:
        raise UsageError(f"{target} exists; pass --force to overwrite it, or choose another "
                         f"{flag}")


# -- agents and their declared options ------------------------------------------------------
def agent_entries(spec: GameSpec, names: list[str], args: argparse.Namespace
                  ) -> list[AgentEntry]:
    """The agents named (an isolated one described by its player, its code not run here),
    under the isolation the command's fair-play flags give (`args.isolation`)."""
    # side by side (a class of a hundred), and with `compare` a broken submission is an
    # entry whose games are error rows, unless --stop-on-broken; when no agent's own option
    # is given, a class's submissions are read beside its first games (study.plan.in_turn)
    return seating.agent_entries(spec, names, args.isolation,
                                 broken_rows=not getattr(args, "stop_on_broken", True),
                                 later=getattr(args, "flags_known", False)
                                 and getattr(args, "backend", "process") == "process")


def declared_flags(entries: list[AgentEntry], spec: GameSpec | None = None
                   ) -> list[tuple[str, Option]]:
    """(owners, option) for every option the agents declare, once per flag. With `spec`, the
    options of the game's other agents follow with owner "" (hidden flags), so that giving
    one is a clear usage error rather than an unknown flag."""
    owners: dict[str, list[str]] = {}
    options: dict[str, Option] = {}
    for entry in entries:
        for option in entry.declared():
            owners.setdefault(option.name, []).append(entry.name)
            options.setdefault(option.name, option)
    out = [(", ".join(owners[name]), options[name]) for name in options]
    if spec is not None:
        for entry in spec.agents.values():
            for option in entry.declared():
                if option.name not in options:
                    options[option.name] = option
                    out.append(("", option))
    return out


def given_options(args: argparse.Namespace, entries: list[AgentEntry],
                  spec: GameSpec | None = None) -> dict[str, Record]:
    """{agent: {option: value}} for the options the user gave, each to the agents that
    declare it; an option that no chosen agent declares is a usage error."""

    known = {o.name for _, o in declared_flags(entries, spec)}
    values = {name: given(args, name) for name in known if given(args, name) is not None}
    out: dict[str, Record] = {}
    for entry in entries:
        mine = {o.name for o in entry.declared()}
        out[entry.name] = {k: v for k, v in values.items() if k in mine}
    unused = [k for k in values if not any(k in out[e.name] for e in entries)]
    if unused:
        flags = ", ".join("--" + k.replace("_", "-") for k in unused)
        takes = ", ".join(sorted({o.flag for e in entries for o in e.declared()})) or "no options"
        who = "agent " + ", ".join(e.name for e in entries)
        raise AgentOptionError(f"{who} does not take {flags} (it takes {takes})")
    return out


def world_options(spec: GameSpec, args: argparse.Namespace) -> Record:
    """The world options given: lives (for games with lives) and the game's declared ones."""
    options: Record = {}
    if args.lives is not None:
        if spec.get(Lives) is None:
            raise UsageError(f"--lives is for games with lives; {spec.name} has none")
        options["lives"] = args.lives
    for option in spec.options:
        value = given(args, option.name)
        if value is not None:
            options[option.name] = value
    return options


def markup_renderer(spec: GameSpec) -> Callable[[object], str | Text]:
    """What console.print shows of an observation: the game's render as it is when it is a
    rich Text (coloured), else its plain text with markup escaped."""
    from rich.markup import escape
    from rich.text import Text

    def shown(obs: object) -> str | Text:
        with plugin_code(f"{spec.name}'s render"):  # a plug-in's bug: one line, no traceback
            text = spec.render(obs)
        if not isinstance(text, (str, Text)):
            raise PluginFault(f"{spec.name}'s render returned {type(text).__name__}, not a "
                              "str or rich Text")
        return text if isinstance(text, Text) else escape(text)

    return shown


def add_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup, option: Option,
               owner: str = "") -> None:
    """The flag of a declared Option (`node_cap` -> `--node-cap N`, a bool -> `--x/--no-x`);
    the value stays None unless given."""
    shown = f" (default {option.default})" if option.default not in (None, "", ()) else ""
    text = (f"{owner}: " if owner else "") + option.help + shown
    if option.type is bool:
        parser.add_argument(option.flag, dest=option.name, action=argparse.BooleanOptionalAction,
                            default=None, help=text)
        return
    kwargs: Record = {"dest": option.name, "default": None, "help": text,
                              "type": option.parse or option.type}
    if option.choices:
        kwargs["choices"] = option.choices
    if option.metavar:
        kwargs["metavar"] = option.metavar
    if option.required:
        kwargs["required"] = True
    parser.add_argument(option.flag, **kwargs)
