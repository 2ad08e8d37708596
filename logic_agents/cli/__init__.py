"""The `logic-agents` command line: one module per verb, and no game named anywhere in it.

Concepts:
- Verbs: play, view, compare, cnf, solve, generate, inspect, maps, games, replay. Each module has
  add_parser(sub) and run(args); play, compare and cnf also have game_options(args). Only the
  module of the verb asked for is imported (the others are listed by name and help line,
  cli.common.VERB_HELP), so no verb's start-up pays for the others' imports.
- Two passes: a verb's game-specific flags (the options its agents declare, the game's world
  options) are known only once the game and agents are, so main() parses once leniently to
  learn them, then again, strictly, with those flags added (their help included).
- main(): every way it can fail on purpose is one stderr line and exit 2, Ctrl-C is one line
  and exit 130, and a closed stdout (`| head`) ends it quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any, NoReturn, TextIO

from logic_agents._version import __version__
from logic_agents.cli.common import (
    PROG,
    SHARED_ARGUMENTS,
    VERB_HELP,
    Parser,
    add_option,
    stop_listening,
    stop_on_signals,
)
from logic_agents.cli.fairplay import isolation_of
from logic_agents.errors import LogicAgentsError
from logic_agents.ground.inputs import lifted_limits, printable
from logic_agents.referee.clock import memory_cap_mib, set_memory_cap
from logic_agents.referee.isolation import DEFAULT_ISOLATION
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.declared import Option
from logic_agents.world.registry import PluginWarning


class _Lenient(Exception):
    """The first pass met something only the second pass can judge."""


class _FirstPassParser(Parser):
    def error(self, message: str) -> NoReturn:
        raise _Lenient(message)


def build_parser(extra: list[tuple[str, Option]] | None = None, verb: str | None = None,
                 first_pass: bool = False) -> argparse.ArgumentParser:
    """The whole parser; `extra` flags (owner, option) go to `verb`'s sub-parser."""
    kind = _FirstPassParser if first_pass else Parser
    parser = kind(prog=PROG, add_help=not first_pass,
                  description="Agents that play and solve logic games by reasoning with SAT.",
                  epilog="`logic-agents games` lists the games, their agents and their options; "
                  "`logic-agents VERB --help` shows a verb's. Exit codes: 0 done, 2 bad input or "
                  "usage, 3 an agent failed (play, view) or some games of a study did "
                  "(compare), 130 interrupted (Ctrl-C, SIGTERM). Input files are read as "
                  "streams: a FIFO waits for its writer.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.set_defaults(**SHARED_ARGUMENTS)
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=kind)
    sub.required = True
    for name, help_line in VERB_HELP.items():
        if name == verb:
            importlib.import_module(f"logic_agents.cli.{name}").add_parser(_Sub(sub, first_pass))
        elif verb not in VERB_HELP:  # the verbs listed (`--help`, a typo), none of them built
            sub.add_parser(name, help=help_line, add_help=False)
    if extra and verb in VERB_HELP:
        target = sub.choices[verb]
        shown = [(owner, o) for owner, o in extra if owner]
        group = target.add_argument_group("options of this game and agent") if shown else target
        for owner, option in extra:
            if option.flag in target._option_string_actions:
                continue  # the verb's own flag (--memory-cap) reaches the agents too
            where = group if owner else target
            add_option(where, option, owner)
            if not owner:  # another agent's option: accepted by argparse, refused with a reason
                where._actions[-1].help = argparse.SUPPRESS
    return parser


class _Sub:
    """add_subparsers' handle, made lenient (no -h) for the first pass."""

    def __init__(self, sub: argparse._SubParsersAction[Parser], first_pass: bool):
        self.sub, self.first_pass = sub, first_pass

    def add_parser(self, name: str, **kwargs: Any) -> Parser:
        if self.first_pass:
            kwargs["add_help"] = False
        return self.sub.add_parser(name, **kwargs)


def _without_help(argv: list[str]) -> list[str]:
    return [a for a in argv if a not in ("-h", "--help")]


def parse(argv: list[str]) -> argparse.Namespace:
    """Both passes; the game is looked up (and may fail, as a usage error) between them."""
    extra: list[tuple[str, Option]] = []
    # the top level takes no option with a value, so the first word that is not an option
    # is the verb (a word that is none is refused by argparse, with the verbs listed)
    verb = next((word for word in argv if not word.startswith("-")), None)
    # no word left unknown by the first pass: no agent's own option is given, so a class's
    # submissions need not be read before the study begins (study.plan.in_turn)
    flags_known = False
    try:
        first, unknown = build_parser(verb=verb, first_pass=True).parse_known_args(
            _without_help(argv))
        flags_known = not unknown and "-h" not in argv and "--help" not in argv
        first.flags_known = flags_known
        _isolate(first)
        if first.game_options is not None:
            with lifted_limits(bool(first.no_limits)):
                extra = first.game_options(first)
    except _Lenient:
        pass  # the second pass says what is wrong, or shows the help asked for
    except LogicAgentsError:
        if "-h" not in argv and "--help" not in argv:
            raise
    args = build_parser(extra, verb).parse_args(argv)
    args.flags_known = flags_known
    _isolate(args)
    return args


def _isolate(args: argparse.Namespace) -> None:
    """Who plays in a player process, from the fair-play flags: `args.isolation`, read by
    every verb that plays agents (nothing process-wide)."""
    args.isolation = isolation_of(args) if args.fair_play else DEFAULT_ISOLATION


def main(argv: list[str] | None = None) -> int:
    """Run the command line; see the module docstring for what it promises."""
    console_script = argv is None  # not a caller's main([...]): this process is ours
    if console_script:
        stop_on_signals()
    argv = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None or sys.stderr is None:  # started with `>&-` or `2>&-`
        return _fail("standard output is closed: nothing could be printed")
    _tolerate_encodings()
    with warnings.catch_warnings():
        warnings.showwarning = _warning_line(warnings.showwarning)
        return _main(argv, console_script)


def _warning_line(shown: Callable[..., None]) -> Callable[..., None]:
    """A plug-in left out is one `warning:` line on stderr, not Python's two; other warnings
    are shown as before."""

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        if not issubclass(category, PluginWarning):
            shown(message, category, filename, lineno, file, line)
            return
        with contextlib.suppress(OSError, AttributeError, ValueError):
            print(f"{PROG}: warning: {printable(str(message))}", file=sys.stderr, flush=True)

    return show


def _main(argv: list[str], console_script: bool) -> int:
    try:
        args = parse(argv)
        args.argv = argv  # what the user typed: a study page prints it, to be run again
        if console_script and args.backend != "ray":
            # Ray's own processes inherit the limit and map large regions: left alone there
            set_memory_cap(_memory_cap(args))
        with lifted_limits(bool(args.no_limits)):
            code: int = args.run(args)
        sys.stdout.flush()  # a full disk or a closed pipe is seen here, not at exit
        return code
    except LogicAgentsError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        stop_listening()
        return _interrupted(console_script)
    except SystemExit as e:  # argparse's usage errors, --help and --version: a code, not an exit
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as e:
        return _fail(f"cannot write: {e.strerror or e}" + (f": {e.filename}" if e.filename else ""))
    except RecursionError:
        return _fail("input nested too deeply to read")
    except MemoryError:
        cap = memory_cap_mib() or DEFAULT_MEMORY_CAP_MIB
        return _fail(f"out of memory: the command passed its memory cap ({cap:,} MiB, "
                     "+512 MiB for the interpreter); raise it with --memory-cap, or give a "
                     "smaller input")
    except Exception as e:
        if "keyboard interrupt" in str(e).lower():  # PySAT's solvers turn SIGINT into an error
            return _interrupted(console_script)
        raise
    finally:
        if console_script:  # done: a signal now could only kill a process on its way out
            stop_listening()


def _memory_cap(args: argparse.Namespace) -> int:
    return args.memory_cap or DEFAULT_MEMORY_CAP_MIB


def _tolerate_encodings() -> None:
    """On a terminal or pipe that is not UTF-8 (a C locale, PYTHONIOENCODING=ascii), what it
    cannot show is written as an escape instead of failing (a board's '·' becomes '\\xb7')."""
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper):  # a test's or a notebook's own stream
            continue
        encoding = (stream.encoding or "").lower().replace("-", "")
        if encoding != "utf8":
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


def _fail(message: str) -> int:
    with contextlib.suppress(OSError, AttributeError):  # stderr may be closed (None)
        print(f"{PROG}: error: {printable(message)}", file=sys.stderr, flush=True)
    return 2


def _interrupted(console_script: bool) -> int:
    """Say so and give 130; a console command then exits at once, without the interpreter's
    finalisation.

    PySAT leaves a solve that SIGINT stopped by a longjmp out of the solver's C++ code, and
    freeing that solver at exit can crash the process: `generate` stopped by Ctrl-C ended
    with SIGSEGV after its "interrupted" line in 2 runs of 30, a clean 130 turned into -11.
    Every file and child of the command was closed or stopped while the interrupt unwound;
    only the standard streams are left to flush.
    """
    with contextlib.suppress(OSError):
        print(f"{PROG}: interrupted", file=sys.stderr, flush=True)
    if console_script:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(130)
    return 130


def _quiet_stdout() -> None:
    """After `| head` closed the pipe: send what is left to /dev/null, so that flushing stdout
    at exit raises nothing (Python's documented recipe)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
