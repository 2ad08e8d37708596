"""The fair-play flags of the verbs that play (play, view, compare): who plays in a player
process of its own, and how that process is contained (referee.players.Isolation).

Concepts:
- isolation_flags(parser): --isolate, --trust, --sandbox, --hide, --pass-env,
  --agent-output, --import-timeout, --max-processes.
- isolation_of(args): the Isolation they give. The maps a command names, its --out file,
  that file's study record and kept traces (and those of `play --study`'s study) are hidden
  from sandboxed players besides what --hide names.
- limit_words(args): the --import-timeout and --max-processes a command was given, as words
  a "play it again" command repeats.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from logic_agents.ground.inputs import is_dir
from logic_agents.referee.isolation import (
    DEFAULT_IMPORT_TIMEOUT_S,
    DEFAULT_ISOLATION,
    DEFAULT_MAX_PROCESSES,
    Isolation,
    env_names,
    hidden_paths,
)
from logic_agents.study.record import study_files
from logic_agents.world.options import nonnegative_float, positive_int


def isolation_flags(p: argparse.ArgumentParser) -> None:
    p.set_defaults(fair_play=True)  # the verb plays agents: isolation_of(args) applies
    group = p.add_argument_group(
        "fair play (an agent named FILE.py:CLASS or MODULE:CLASS plays in a process of its "
        "own, fed observations as data; see docs/compare.md, fair play)")
    group.add_argument("--isolate", choices=("untrusted", "all", "none"), default=None,
                       help="which agents play in player processes: untrusted (default: those "
                       "named by a file or module), all (built-in agents too), none (every "
                       "agent in-process, as trusted code)")
    group.add_argument("--trust", default=None, metavar="A,B,...",
                       help="agents (as named in --agent/--agents) that may play in-process, "
                       "for speed: your own code")
    group.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default=None,
                       help="run player processes under bubblewrap: auto (default: where it is "
                       "installed), bwrap (required), none")
    group.add_argument("--hide", action="append", default=None, metavar="PATH",
                       help="a folder (shown empty) or file (shown as /dev/null) that sandboxed "
                       "players must not read (repeatable); the shipped maps, the maps named "
                       "and the --out file are hidden already")
    group.add_argument("--player-per-game", dest="player_per_game", action="store_true",
                       help="start a fresh player server (a fresh interpreter) for every game "
                       "(about 0.2 s a game); by default each game is already a fresh child of "
                       "a server that has read no agent code, so nothing carries from one game "
                       "to the next")
    group.add_argument("--pass-env", dest="pass_env", action="append", default=None,
                       metavar="NAME", help="an environment variable players may read "
                       "(repeatable); by default they see only the locale, PATH and TZ, none of "
                       "your tokens or keys")
    group.add_argument("--agent-output", dest="agent_output", default=None, metavar="DIR",
                       help="keep each isolated agent's prints in DIR/AGENT.txt (escaped, up to "
                       "16 MiB an agent); the terminal shows each line as [AGENT] text, up to "
                       "64 KiB an agent and 1 MiB a study")
    group.add_argument("--import-timeout", dest="import_timeout", type=nonnegative_float,
                       default=None, metavar="S", help="stop an agent whose module takes more "
                       f"than S seconds to read (default {DEFAULT_IMPORT_TIMEOUT_S:g})")
    group.add_argument("--max-processes", dest="max_processes", type=positive_int,
                       default=None, metavar="N", help="processes an agent may start beside its "
                       f"own (default {DEFAULT_MAX_PROCESSES})")


def isolation_of(args: argparse.Namespace) -> Isolation:
    hide = [str(Path(h).resolve()) for h in args.hide or ()]
    out = args.out or ""
    # a study's files (study_files), and those of the study `play --study` plays a game of
    studies = [s for s in (out, getattr(args, "study", None) or "") if s]
    beside = [str(path) for s in studies for path in study_files(s)]
    hide += hidden_paths(t for t in [*(args.maps or ()), args.map or "", *beside] if t)
    if out and not is_dir(out):  # a file not written yet: hidden once it is
        hide += [str(path.resolve()) for path in study_files(out)]
    trusted = tuple(a.strip() for a in (args.trust or "").split(",") if a.strip())
    if args.in_process and args.agent:
        trusted += (args.agent,)  # play --in-process: your own agent, under your debugger
    return Isolation(isolate=args.isolate or DEFAULT_ISOLATION.isolate,
                     trusted=trusted,
                     sandbox=args.sandbox or DEFAULT_ISOLATION.sandbox,
                     hide=tuple(dict.fromkeys(hide)),
                     import_timeout=args.import_timeout or DEFAULT_ISOLATION.import_timeout,
                     max_processes=args.max_processes or DEFAULT_ISOLATION.max_processes,
                     player_per_game=bool(args.player_per_game),
                     env=env_names(tuple(args.pass_env or ())),
                     output_dir=str(Path(args.agent_output).resolve()) if args.agent_output
                     else None)


def limit_words(args: argparse.Namespace) -> list[str]:
    """The limits of a player a command was given beside the caps, as its words: a game
    played again stops where the study's did (an import that hangs, a pool too large)."""
    words = []
    if getattr(args, "import_timeout", None) is not None:
        words += ["--import-timeout", f"{args.import_timeout:g}"]
    if getattr(args, "max_processes", None) is not None:
        words += ["--max-processes", str(args.max_processes)]
    return words
