"""The `logic-agents` command line.

Verbs:
- play MAP      run one agent on one map and watch it (or --json for one result object);
- cnf MAP       write the knowledge base the SAT agent holds at its K-th satisfiability test;
- inspect CNF   sizes, named clauses and (with --solve) a model of a DIMACS file;
- maps          list the shipped maps;
- replay TRACE  re-run a --trace file and check that every step agrees;
- solve         solve puzzles (Sudoku), prove uniqueness, print grids or JSON lines;
- generate      write random maps of a preset (cs5011-*, nettle-*, tornado-*, classic sizes);
- compare       paired win-rate study of several agents, streamed to CSV/JSONL, with a summary.
Every user error prints one line on stderr and exits with code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

from logic_agents import __version__
from logic_agents.errors import LogicAgentsError, UnknownName, UsageError
from logic_agents.generated import LineFile, refuse_existing, streamed, write_file
from logic_agents.inputs import int_or_none, lift_limits, path_exists
from logic_agents.logic.names import CARD_ENCODING_NAMES, DEFAULT_SOLVER, SOLVERS
from logic_agents.output import make_console
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.registry import GameSpec, games, get_game
from logic_agents.world.resolve import MAPS_ROOT, detect_game, resolve

PROG = "logic-agents"


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is one line and exit code 2, and an epilog may be made only
    when its help is shown (`epilog_from`), so that `--help` imports no game."""

    epilog_from: Any = None

    def format_help(self) -> str:
        if self.epilog_from is not None:
            self.epilog = self.epilog_from()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        sys.exit(2)


class _CnfCaptured(Exception):
    """Raised from the query hook to stop the episode once the wanted KB is captured."""


# -- helpers ------------------------------------------------------------------------------
def load_one(text: str, spec: GameSpec) -> tuple[str, Any]:
    """(source, instance) of a MAP argument: FILE, FILE:K, a shipped name or an inline puzzle."""
    source, instances = resolve(text, spec)
    return source, instances[0]


def agent_options(args: argparse.Namespace) -> dict[str, Any]:
    """Only the agent options the user actually gave (so other agents can refuse them)."""
    options = {}
    for name in ("global_count", "encoding", "solver", "incremental", "card_encoding",
                 "zero_fill", "node_cap", "time_cap", "memory_cap", "heuristic", "horizon", "policy",
                 "endgame"):
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    return options


def accepted_options(factory: Any) -> set[str] | None:
    """The keyword options an agent's constructor takes (None: it takes any, **kwargs)."""
    import inspect

    names: set[str] = set()
    # a class whose __init__ passes **options on takes its bases' options too
    chain = [k.__init__ for k in factory.__mro__ if "__init__" in vars(k)] \
        if isinstance(factory, type) else [factory]
    for function in chain:
        try:
            params = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):
            return None
        names |= {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            return names - {"self"}
    return None


def check_agent_options(spec: GameSpec, name: str, options: dict[str, Any]) -> None:
    """UsageError for an unknown agent or an option its constructor does not declare, so that
    a TypeError raised inside a constructor is left to surface as the bug it is."""
    if name not in spec.agents:
        raise UnknownName(f"unknown agent {name!r}; choose one of {', '.join(spec.agents)}")
    accepted = accepted_options(spec.agents[name])
    refused = [k for k in options if accepted is not None and k not in accepted]
    if refused:
        given = ", ".join("--" + k.replace("_", "-") for k in refused)
        raise UsageError(f"agent {name} does not take {given}")


def build_agent(spec: GameSpec, name: str, options: dict[str, Any]) -> Any:
    check_agent_options(spec, name, options)
    return spec.make_agent(name, **options)


def add_agent_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--global-count", dest="global_count", action=argparse.BooleanOptionalAction,
                   default=None, help="satx: also tell the total number of daggers "
                   "(default: on, chosen by measurement; see docs/BENCHMARKS.md)")
    p.add_argument("--encoding", choices=("tseitin", "sympy"), default=None,
                   help="satx: tseitin = one incremental KB (default); sympy = the 2018 "
                   "report's route, rebuilt through sympy.to_cnf at every test")
    p.add_argument("--incremental", action=argparse.BooleanOptionalAction, default=None,
                   help="satx: keep one solver for the whole game (default) or rebuild the KB "
                   "and solver at every satisfiability test")
    p.add_argument("--card-encoding", dest="card_encoding", default=None, metavar="NAME",
                   choices=sorted(CARD_ENCODING_NAMES),
                   help="satx: pysat.card encoding of large cardinality constraints such as the "
                   "global count window (default seqcounter, chosen by measurement)")
    p.add_argument("--policy", choices=("progress", "lowest", "opening"), default=None,
                   help="daggers prob: how a guess is chosen (default progress: safety and "
                   "the chance the next move is certain; lowest: the least likely dagger; "
                   "see README)")
    p.add_argument("--endgame", type=_integer, default=None, metavar="N",
                   help="daggers prob: search exactly for the best win chance when at most N "
                   "placements remain (default 750; 0 turns it off)")
    p.add_argument("--horizon", type=_positive_int, default=None, metavar="N",
                   help="ooze sat: how many tiles ahead of the open end each plan routes "
                   "(default 24)")
    p.add_argument("--solver", choices=[s for s in SOLVERS if not s.startswith("kissat")],
                   default=None, metavar="NAME",
                   help=f"SAT agents: PySAT solver for the incremental oracle (default "
                   f"{DEFAULT_SOLVER})")
    p.add_argument("--heuristic", default=None, metavar="NAME",
                   choices=["manhattan", "euclidean", "shapes-left", "manhattan-minus-crossed"],
                   help="mazes greedy/astar: manhattan (default), euclidean, shapes-left or "
                   "manhattan-minus-crossed")
    p.add_argument("--zero-fill", dest="zero_fill", action=argparse.BooleanOptionalAction,
                   default=None, help="undead search agents: fill the lines whose clue is 0 "
                   "first (ghosts before the first mirror, vampires after; default: on)")
    p.add_argument("--node-cap", dest="node_cap", type=_positive_int, default=None, metavar="N",
                   help="search agents: stop after N search nodes (default: undead 5000000, "
                   "mazes 10000000)")
    p.add_argument("--time-cap", dest="time_cap", type=_positive_float, default=None,
                   metavar="SECONDS", help="search agents: stop after this long (default: "
                   "undead 10, mazes 60)")
    p.add_argument("--memory-cap", dest="memory_cap", type=_positive_int, default=None,
                   metavar="MIB", help="search agents: stop when the states they hold would "
                   "take more than this many MiB, as estimated from the board (default: "
                   f"{DEFAULT_MEMORY_CAP_MIB}, a quarter of this machine's memory at most)")


def world_for(spec: GameSpec, instance: Any, lives: int | None,
              pieces: str | None = None) -> Any:
    options: dict[str, Any] = lives_option(spec, lives)
    if pieces is not None:
        if "pieces" not in spec.world_options:
            raise UsageError(f"--pieces is an ooze option, not a {spec.name} one")
        options["pieces"] = pieces
    return spec.make_world(instance, **options), options


def lives_option(spec: GameSpec, lives: int | None) -> dict[str, Any]:
    """{"lives": N} for --lives N, refused (a usage error) for a game without lives."""
    if lives is None:
        return {}
    if not spec.has_lives:
        raise UsageError(f"--lives is for games with lives; {spec.name} has none")
    return {"lives": lives}


# -- verbs ----------------------------------------------------------------------------------
def cmd_play(args: argparse.Namespace) -> int:

    from rich.markup import escape

    from logic_agents.world.runner import run_episode

    spec = get_game(args.game or detect_game([args.map]))
    if args.agent is None:
        args.agent = spec.default_agent
    map_path, instance = load_one(args.map, spec)
    if args.agent in spec.interactive:
        if agent_options(args):
            raise UsageError(f"agent {args.agent} takes no agent options")
        world, world_options = world_for(spec, instance, args.lives, args.pieces)
        result, agent = _play_interactive(spec, world, instance, args)
        return _print_result(args, result, agent, instance, make_console(), False)
    console = make_console()
    options = agent_options(args)
    if args.explain:
        # with --json stdout holds one JSON object only, so explanations go to stderr
        out = make_console(stderr=True) if args.json else console
        options["explain"] = lambda lines: out.print(escape("\n".join(lines)))
    agent = build_agent(spec, args.agent, options)
    world, world_options = world_for(spec, instance, args.lives, args.pieces)
    show = not (args.quiet or args.json)
    render_markup = _markup_renderer(spec)

    def on_step(obs: Any, action: Any, reward: float) -> None:
        why = getattr(agent, "why", "")
        console.print(f"\n[bold]{action}[/bold]" + (f"  [dim]({why})[/dim]" if why else ""))
        console.print(render_markup(obs))

    trace = open_trace(args, spec, instance, map_path, world_options)
    if show:
        console.print(f"[bold]{spec.name}[/bold] {escape(instance.name)}  agent [bold]{agent.name}[/bold]"
                      f"  seed {args.seed}")
        first, _ = spec.make_world(instance, **world_options).reset(seed=args.seed)
        console.print(render_markup(first))
    try:
        result = run_episode(world, agent, args.seed, trace, game=spec.name,
                             map_name=instance.name, on_step=on_step if show else None)
    finally:
        if trace is not None:
            trace.close()
    return _print_result(args, result, agent, instance, console, show)


def open_trace(args: argparse.Namespace, spec: GameSpec, instance: Any, map_path: str,
               world_options: dict) -> Any:
    """The --trace writer (None without --trace): the instance goes in the trace, so it
    replays anywhere; an existing file is kept unless --force."""
    from logic_agents.world.trace import Trace

    if not args.trace:
        return None
    refuse_overwrite(args.trace, args.force, "--trace")
    header: dict[str, Any] = {"map_path": portable_path(map_path), "world_options": world_options}
    if spec.format_instance is not None:
        header["instance"] = spec.format_instance(instance)
    return Trace(args.trace, **header)


def portable_path(source: str) -> str:
    """A map path relative to the working folder when it lies under it (else as given)."""
    try:
        return str(Path(source).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return source


def refuse_overwrite(target: str, force: bool, flag: str) -> None:
    """UsageError if `target` exists (and is not a device such as /dev/null) without --force."""
    path = Path(target)
    if path_exists(path) and path.is_file() and not force:
        raise UsageError(f"{target} exists; pass --force to overwrite it, or choose another "
                         f"{flag}")


def _play_interactive(spec: GameSpec, world: Any, instance: Any, args: argparse.Namespace):
    """Run a person's game in a curses screen; returns (result, agent)."""
    import curses

    from logic_agents.world.runner import run_episode

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(f"--agent {args.agent} needs a terminal (stdin and stdout a tty)")
    factory = spec.interactive[args.agent]
    trace = open_trace(args, spec, instance, str(args.map), {})

    def session(screen: Any) -> tuple[Any, Any]:
        with contextlib.suppress(curses.error):
            curses.curs_set(0)

        def show(text: str) -> None:
            screen.erase()
            rows, cols = screen.getmaxyx()
            for i, line in enumerate(text.splitlines()[: rows - 1]):
                with contextlib.suppress(curses.error):
                    screen.addstr(i, 0, line[: cols - 1])
            screen.refresh()

        agent = factory(read_key=screen.getkey, show=show)
        last: dict[str, Any] = {}
        try:
            result = run_episode(world, agent, args.seed, trace, game=spec.name,
                                 map_name=instance.name,
                                 on_step=lambda obs, action, reward: last.update(obs=obs))
        finally:
            if trace is not None:
                trace.close()
        board = spec.render(last["obs"]) if "obs" in last else ""
        show(board + f"\n{result.outcome.value.upper()} - press a key")
        screen.getkey()
        return result, agent

    return curses.wrapper(session)


def _print_result(args: argparse.Namespace, result: Any, agent: Any, instance: Any,
                  console: Any, show: bool) -> int:
    from rich.markup import escape

    if args.json:
        out = {
            "game": result.game, "map": result.map, "agent": result.agent, "seed": result.seed,
            "outcome": result.outcome.value, "won": result.won, "steps": result.steps,
            "guesses": result.guesses, "lives_left": result.extra.get("lives_left"),
            "time_s": round(result.time_s, 6),
        }
        out.update({k: result.extra[k] for k in get_game(result.game).result_keys
                    if k in result.extra})
        print(json.dumps(out))
    elif "score" in get_game(result.game).result_keys:  # a scored game ends, it is not lost
        ended = "truncated" if result.outcome.value == "truncated" else "ended"
        console.print(
            ("\n" if show else "")
            + f"[bold cyan]{ended.upper()}[/bold cyan] {escape(instance.name)} with "
            f"{agent.name}: score {result.extra.get('score')}, {result.extra.get('tiles')} "
            f"tiles, {result.extra.get('ticks')} ticks, {result.time_s:.3f}s")
    else:
        colour = "green" if result.won else "red"
        console.print(
            ("\n" if show else "")
            + f"[bold {colour}]{result.outcome.value.upper()}[/bold {colour}] {escape(instance.name)} "
            f"with {agent.name}: {result.steps} steps, {result.guesses} guesses, "
            + (f"{result.extra['lives_left']} lives left, " if "lives_left" in result.extra else "")
            + f"{result.time_s:.3f}s"
        )
        stopped = getattr(agent, "stopped", None)
        if stopped and not result.won:
            console.print(f"{escape(agent.name)} stopped at its {escape(stopped)} after "
                          f"{getattr(agent, 'nodes', 0):,} nodes")
    return 0


def _markup_renderer(spec: GameSpec):
    """The game's rich renderer, else its plain one with markup escaped."""
    if spec.render_markup is not None:
        return spec.render_markup
    from rich.markup import escape

    return lambda obs: escape(spec.render(obs))


def cmd_cnf(args: argparse.Namespace) -> int:
    from logic_agents.world.runner import run_episode

    spec = get_game(args.game or detect_game([args.map]))
    if args.agent is None:
        args.agent = spec.default_agent
    if args.output not in (None, "-"):
        refuse_overwrite(args.output, args.force, "-o")
    map_path, instance = load_one(args.map, spec)
    if spec.encode is not None:  # a static puzzle: its whole encoding, clues as unit clauses
        kb = spec.encode(instance)
        comments = [f"logic-agents {__version__} cnf", f"game {spec.name}",
                    f"puzzle {instance.name} ({portable_path(map_path)})"] + list(spec.cnf_legend)
        comments += [f"kb {f}" for f in kb.formulas[:200]]
        if len(kb.formulas) > 200:
            comments.append(f"kb ... {len(kb.formulas) - 200} more formulas")
        return _write_cnf(args, kb.to_dimacs(comments), {
            "file": args.output, "map": instance.name, "variables": kb.num_vars,
            "clauses": len(kb.clauses), "named": len(kb.names())})
    if args.query < 1:
        raise UsageError("--query counts from 1")
    options = agent_options(args)
    captured: dict[str, Any] = {}

    def on_query(event: Any) -> None:
        if event.index == args.query:
            captured["event"] = event
            raise _CnfCaptured

    accepted = accepted_options(spec.agents[args.agent]) if args.agent in spec.agents else None
    if accepted is not None and "on_query" not in accepted:
        raise UsageError(f"agent {args.agent} does not hold a knowledge base; use "
                         f"{spec.default_agent}")
    agent = build_agent(spec, args.agent, {**options, "on_query": on_query})
    world, _ = world_for(spec, instance, args.lives)
    with contextlib.suppress(_CnfCaptured):
        run_episode(world, agent, args.seed, game=spec.name, map_name=instance.name)
    if "event" not in captured:
        raise UsageError(
            f"{args.agent} made only {agent.queries} satisfiability test(s) on {instance.name} "
            f"with seed {args.seed}; ask for --query {max(agent.queries, 1)} or another --seed"
        )
    event = captured["event"]
    if hasattr(event, "legend"):  # a planner's query (ooze): its encoding and assumptions
        names = event.names()
        comments = [f"logic-agents {__version__} cnf", f"game {spec.name}",
                    f"instance {instance.name}", f"agent {args.agent}",
                    f"seed {args.seed} query {event.index} tick {event.step}"] + event.legend()
        return _write_cnf(args, event.to_dimacs(comments), {
            "file": args.output, "map": instance.name, "agent": args.agent, "seed": args.seed,
            "query": event.index, "step": event.step, "variables": event.num_vars,
            "clauses": event.num_clauses + len(event.assumptions), "named": len(names)})
    kb = event.kb
    comments = [
        f"logic-agents {__version__} cnf",
        f"game {spec.name}",
        f"map {instance.name} ({portable_path(map_path)})",
        f"agent {args.agent} encoding {getattr(agent, 'encoding', '-')} "
        f"global-count {'on' if getattr(agent, 'global_count', False) else 'off'}",
        f"seed {args.seed} query {event.index} step {event.observation.step}",
        "variables D_r_c: cell [r][c] holds a dagger; _aux_N: auxiliary (Tseitin or counter)",
        "SEL_n: selector of a formula that held for one test only (SEL_n >> formula); the "
        "last unit clauses assume this test's selectors",
    ]
    comments += [f"kb {f}" for f in kb.formulas]
    text = event.to_dimacs(comments)
    return _write_cnf(args, text, {
        "file": args.output, "map": instance.name, "agent": args.agent, "seed": args.seed,
        "query": event.index, "step": event.observation.step, "variables": event.num_vars,
        "clauses": event.num_clauses + len(event.assumptions), "named": len(kb.names())})


def _write_cnf(args: argparse.Namespace, text: str, summary: dict) -> int:
    """Write a DIMACS text to -o (or stdout) and report it, as one JSON object with --json."""
    to_stdout = args.output in (None, "-")
    if to_stdout and args.json:
        raise UsageError("--json describes the file written with -o FILE.cnf; give -o")
    if to_stdout:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text)
    except OSError as e:
        raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"wrote {args.output}: {summary['variables']} variables, {summary['clauses']} "
              f"clauses, {summary['named']} named", file=sys.stderr)
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    from pysat.solvers import Solver
    from rich.markup import escape
    from rich.table import Table

    from logic_agents.logic.dimacs import read_dimacs, stats
    from logic_agents.logic.oracle import check_solver_name

    cnf = read_dimacs(args.file)
    info = stats(cnf)
    model_names = None
    status = None
    if args.solve:
        with Solver(name=check_solver_name(args.solver, incremental=False),
                    bootstrap_with=cnf.clauses) as solver:
            sat = solver.solve()
            status = "SATISFIABLE" if sat else "UNSATISFIABLE"
            if sat:
                model = solver.get_model()
                model_names = {cnf.names[abs(v)]: v > 0 for v in model if abs(v) in cnf.names}
    if args.json:
        out = {"file": str(args.file), **info}
        if args.solve:
            out["status"] = status
            out["model"] = model_names
        print(json.dumps(out))
        return 0
    console = make_console()
    table = Table(title=str(args.file), show_header=False)
    for key in ("variables", "clauses", "named", "auxiliary", "unused", "literals"):
        table.add_row(key, str(info[key]))
    table.add_row("clause lengths",
                  "  ".join(f"{k}:{v}" for k, v in info["clause_lengths"].items()))
    console.print(table)
    for line in cnf.comments[:6]:
        console.print(f"[dim]c {escape(line)}[/dim]")
    if args.limit:
        console.print(f"[bold]first {min(args.limit, len(cnf.clauses))} clauses[/bold]")
        for clause in cnf.clauses[: args.limit]:
            console.print("  " + escape(" ∨ ".join(cnf.literal_name(lit) for lit in clause) or "⊥"))
    if args.solve:
        console.print(f"s {status}")
        if model_names is not None:
            true_names = [n for n, v in model_names.items() if v]
            console.print(f"v true: {' '.join(true_names) or '(none)'}")
            console.print(f"v false: {sum(not v for v in model_names.values())} named variables")
    return 0


def cmd_maps(args: argparse.Namespace) -> int:

    from rich.table import Table

    rows = []
    for spec in games().values():
        if args.game and spec.name != args.game:
            continue
        root = MAPS_ROOT / spec.maps_dir
        files = [p for suffix in ("*.txt", "*.tsv") for p in root.rglob(suffix)]
        for path in sorted(files) if root.is_dir() else []:
            row = {"game": spec.name, "path": str(path.relative_to(MAPS_ROOT.parent))}
            if spec.load_all is not None:  # a file of many puzzles
                instances = spec.load_all(path)
                instance = instances[0]
                row["name"] = path.stem
                row["puzzles"] = len(instances)
            else:
                instance = spec.load(path)
                row["name"] = instance.name
            if isinstance(getattr(instance, "size", None), str):  # games that say WxH
                row["size"] = instance.size
            elif hasattr(instance, "height"):
                row["size"] = f"{instance.height}x{instance.width}"
            if hasattr(instance, "total_daggers"):
                row["daggers"] = instance.total_daggers
                row["lives"] = instance.lives
            rows.append(row)
    rows.sort(key=lambda r: (r["game"], _natural(r["path"])))
    if args.json:
        print(json.dumps(rows))
        return 0
    table = Table(title=f"shipped maps ({len(rows)})")
    columns = list(dict.fromkeys(k for row in rows for k in row)) or ["game", "name", "path"]
    for col in columns:
        table.add_column(col)
    for row in rows:
        table.add_row(*[str(row.get(col, "")) for col in columns])
    make_console().print(table)
    return 0


def _natural(text: str) -> list:
    import re

    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def preset_from_args(args: argparse.Namespace):
    """The preset named by --preset, or a custom one from --width/--height/--daggers/--gold."""
    from logic_agents.games.daggers.generate import custom_preset, get_preset

    sizes = [args.width, args.height, args.daggers]
    if args.preset:
        if any(v is not None for v in sizes + [args.gold]):
            raise UsageError("give either --preset or --width/--height/--daggers, not both")
        preset = get_preset(args.preset)
        if args.topology and args.topology != preset.topology:
            raise UsageError(f"preset {preset.name} is {preset.topology}; drop --topology")
        return preset
    if any(v is None for v in sizes):
        raise UsageError("give --preset P, or all of --width W --height H --daggers K")
    return custom_preset(args.height, args.width, args.daggers, args.gold or 0,
                         args.topology or "square", args.lives or 1)


def cmd_generate(args: argparse.Namespace) -> int:
    from logic_agents.games.daggers.board import format_map
    from logic_agents.games.daggers.board import load as load_map
    from logic_agents.games.daggers.generate import generate_maps

    if args.count < 1:
        raise UsageError("--count must be at least 1")
    if (args.start is not None or args.safe_start) and args.game != "daggers":
        raise UsageError("--start and --safe-start are for daggers maps")
    if args.game == "sudoku":
        return _generate_sudoku(args)
    if args.game == "undead":
        return _generate_undead(args)
    if args.game == "mazes":
        return _generate_mazes(args)
    if args.shapes is not None:
        raise UsageError("--shapes is for mazes")
    if args.size is not None or args.clues is not None:
        raise UsageError("--size and --clues are for sudoku and undead")
    if args.difficulty is not None:
        raise UsageError("--difficulty is for undead")
    preset = preset_from_args(args)
    maps = generate_maps(preset, args.count, args.seed, args.start, not args.safe_start)
    out = Path(args.output)
    paths = [out / f"{instance.name}.txt" for instance in maps]
    for path in paths:
        refuse_existing(path, args.force, args.resume)
    written, kept = [], 0
    for instance, path in zip(maps, paths):
        if args.resume and _loads(load_map, path):
            kept += 1
            continue
        write_file(path, format_map(instance))
        written.append(str(path))
    if args.json:
        print(json.dumps({"preset": preset.name, "seed": args.seed, "files": written,
                          "kept": kept}))
    else:
        print(f"wrote {len(written)} {preset.name} maps ({preset.height}x{preset.width}, "
              f"{preset.daggers} daggers, {preset.topology}) to {out}" + _kept(kept))
    return 0


def _loads(load: Any, path: Path) -> bool:
    """Whether `path` holds an instance `load` reads (a resumed run keeps it)."""
    if not (path_exists(path) and path.is_file()):
        return False
    try:
        load(path)
    except LogicAgentsError:
        return False
    return True


def cmd_compare(args: argparse.Namespace) -> int:

    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from logic_agents import batch

    spec = get_game(args.game or detect_game(args.maps))
    if args.agents is None:
        args.agents = ",".join(spec.agents)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not agents:
        raise UsageError("--agents names no agent")
    for name in agents:
        if name not in spec.agents:
            raise UnknownName(f"unknown agent {name!r}; choose from {', '.join(spec.agents)}")
    if args.runs < 1:
        raise UsageError("--runs must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.resume and not args.out:
        raise UsageError("--resume continues an --out file; give --out")
    if args.address and args.backend != "ray":
        raise UsageError("--address goes with --backend ray")
    entries = batch.entries_from_references(args.maps, spec)
    if args.generate:
        if spec.name != "daggers":
            raise UsageError("--generate makes sweeper maps; it goes with --game daggers")
        from logic_agents.games.daggers.generate import generate_maps, get_preset

        for name in args.generate.split(","):
            preset = get_preset(name.strip())
            entries += [batch.MapEntry(m, preset.name)
                        for m in generate_maps(preset, args.count, args.seed, args.start,
                                               not args.safe_start)]
    if (args.start is not None or args.safe_start) and not args.generate:
        raise UsageError("--start and --safe-start shape --generate maps; give --generate")
    if not entries:
        raise UsageError("no maps: give MAP_OR_DIR or --generate PRESET")
    options = agent_options(args)
    for name in agents:
        build_agent(spec, name, options)  # refuse options an agent does not take, up front
    world_options = lives_option(spec, args.lives)
    total = len(entries) * args.runs * len(agents)
    err = make_console(stderr=True)
    wins = dict.fromkeys(agents, 0)
    played = dict.fromkeys(agents, 0)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=total)

        def on_row(row: Any) -> None:
            wins[row.agent] += row.won
            played[row.agent] += 1
            live = "  ".join(f"{a} {100 * wins[a] / played[a]:.1f}%" for a in agents if played[a])
            progress.update(task, advance=1, description=live)

        try:
            rows = batch.compare(
                agents, entries, runs=args.runs, seed=args.seed, jobs=args.jobs, game=spec.name,
                out=args.out, resume=args.resume, backend=args.backend, address=args.address,
                agent_options=dict.fromkeys(agents, options) if options else None,
                world_options=world_options, on_row=on_row)
        except KeyboardInterrupt:
            saved = f"; finished games are in {args.out}, continue with --resume" if args.out else ""
            err.print(f"{PROG}: interrupted after {sum(played.values())} games{saved}")
            return 130
        progress.update(task, completed=total)
    scored = "score" in spec.result_keys  # Ooze: a score, not a win, is what a game yields
    summary = batch.summarize(rows, agents, groups=list(dict.fromkeys(e.group for e in entries)),
                              scored=scored)
    if args.plot:
        from logic_agents.plot import plot_win_rates

        plot_win_rates(summary, args.plot)
    if args.json:
        print(json.dumps(summary))
        return 0
    console = make_console()
    table = Table(title=f"{len(entries)} maps x {args.runs} runs, seed {args.seed} (paired)")
    columns = (("agent", "group", "games", "mean score [95% CI]", "median", "max", "ticks",
                "time/game s") if scored else
               ("agent", "group", "games", "wins", "win rate % [95% CI]", "steps", "guesses",
                "time/game s"))
    for col in columns:
        table.add_column(col, justify="left" if col in ("agent", "group") else "right")
    for name, stats in summary["agents"].items():
        rows_to_show = [("all", stats)]
        if len(stats["groups"]) > 1:
            rows_to_show += list(stats["groups"].items())
        for group, st in rows_to_show:
            if scored:
                sc = st["score"]
                table.add_row(name if group == "all" else "", escape(group), str(st["games"]),
                              f"{sc['mean']:.1f} [{sc['ci95'][0]:.1f}, {sc['ci95'][1]:.1f}]",
                              f"{sc['median']:g}", f"{sc['max']:g}", f"{st['mean_steps']:.1f}",
                              f"{st['mean_time_s']:.4f}")
                continue
            lo, hi = st["ci95"]
            table.add_row(name if group == "all" else "", escape(group), str(st["games"]),
                          str(st["wins"]),
                          f"{100 * st['win_rate']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]",
                          f"{st['mean_steps']:.1f}", f"{st['mean_guesses']:.2f}",
                          f"{st['mean_time_s']:.4f}")
    console.print(table)
    for name, stats in summary["agents"].items():
        counters = ", ".join(f"{k} {v:.1f}" for k, v in stats["mean_stats"].items())
        if counters:
            console.print(f"{name} means per game: {counters}")
    tied = [p for p in summary["pairs"] if p["only_a_won"] == p["only_b_won"] == 0]
    if tied:
        same = ("scored the same in every paired game" if scored else "never split a game "
                "(every paired game was won by both or lost by both)")
        console.print(f"{len(tied)} pair(s) of agents {same}: "
                      + ", ".join(f"{p['a']}/{p['b']}" for p in tied))
    for pair in summary["pairs"]:
        if pair in tied:
            continue
        verdict = (f"{pair['better']} is better" if pair["significant"]
                   else "no significant difference")
        if scored:
            console.print(f"{pair['a']} vs {pair['b']}: {pair['paired_games']} paired games; "
                          f"{pair['a']} scored more in {pair['only_a_won']}, {pair['b']} in "
                          f"{pair['only_b_won']}; exact sign test p = {pair['p_value']:.3g}: "
                          f"{verdict}")
            continue
        console.print(f"{pair['a']} vs {pair['b']}: {pair['paired_games']} paired games; only "
                      f"{pair['a']} won {pair['only_a_won']}, only {pair['b']} won "
                      f"{pair['only_b_won']}; exact McNemar p = {pair['p_value']:.3g}: {verdict}")
    if args.out:
        console.print(f"rows: {args.out}")
    if args.plot:
        console.print(f"plot: {args.plot}")
    return 0


def _puzzles_from(items: list[str], spec: GameSpec) -> list[Any]:
    """Puzzles from files (every puzzle in each) and from puzzles written on the command line."""
    import dataclasses

    out = []
    for k, item in enumerate(items, start=1):
        label = f"<argument {k}>"
        source, parsed = resolve(item, spec, every=True, label=label)
        if source == label and not ("#" in item or "\t" in item):  # unnamed inline puzzles
            parsed = [dataclasses.replace(p, name=f"puzzle {k}") for p in parsed]
        out += parsed
    return out


def solve_games() -> list[str]:
    return [name for name, spec in games().items() if spec.solve is not None]


def cmd_solve(args: argparse.Namespace) -> int:
    import time

    from rich.markup import escape

    from logic_agents.logic.oracle import check_solver_name

    spec = get_game(args.game or detect_game(args.puzzles, default="sudoku"))
    if spec.solve is None:
        raise UnknownName(f"solve knows {', '.join(solve_games())}, not {spec.name!r}")
    if args.solver is not None:
        check_solver_name(args.solver)
    puzzles = _puzzles_from(args.puzzles, spec)
    console = make_console()
    for puzzle in puzzles:
        started = time.perf_counter()
        result = spec.solve(puzzle, args.unique, args.solver)
        elapsed = time.perf_counter() - started
        for found in (result.solution, result.second):
            if found is not None and not spec.is_solution(puzzle, found):  # pragma: no cover
                raise LogicAgentsError(f"internal error: {puzzle.name} got a wrong solution")
        status = "unsat" if result.status == "unsat" else "solved"
        unique = {"unique": True, "multiple": False}.get(result.status) if args.unique else None
        if args.json:
            out = {"game": spec.name, "puzzle": puzzle.name, "status": status, "unique": unique,
                   "solution": (spec.solution_json(puzzle, result.solution)
                                if result.solution is not None else None),
                   "time_s": round(elapsed, 6)}
            if result.second is not None:
                out["second"] = spec.solution_json(puzzle, result.second)
            print(json.dumps(out), flush=True)
            continue
        console.print(f"[bold]{escape(puzzle.name)}[/bold] ({escape(spec.describe(puzzle))})")
        if result.solution is not None:
            console.print(escape(spec.show_solution(puzzle, result.solution)))
        verdict = {"unique": "solved, unique", "multiple": "solved, NOT unique",
                   "solved": "solved", "unsat": "unsatisfiable: no solution"}[result.status]
        console.print(f"{verdict} in {1000 * elapsed:.2f} ms")
        if result.second is not None:
            console.print("a second solution:\n" + escape(spec.show_solution(puzzle, result.second)))
        console.print()
    return 0


def _generate_sudoku(args: argparse.Namespace) -> int:
    from logic_agents.games.sudoku.board import format_line
    from logic_agents.games.sudoku.generate import iter_puzzles

    if args.size is None or not args.size.isdigit():
        raise UsageError("give --size N (4, 9, 16 or 25)")
    _only_daggers_flags(args)
    if args.difficulty is not None:
        raise UsageError("--difficulty is for undead")
    size = int(args.size)
    out = Path(args.output)
    path = out / f"sudoku{size}-s{args.seed}.txt"
    header = (f"# generated by logic-agents {__version__}: unique {size}x{size} Sudoku "
              f"puzzles, seed {args.seed}, clues {args.clues if args.clues is not None else 'fewest'}\n")
    puzzles = []
    with LineFile(path, header, resume=args.resume, force=args.force) as f:
        todo = iter_puzzles(size, args.count, args.seed, args.clues, skip=range(f.held))
        for p in streamed(todo, max(0, args.count - f.held), "puzzles"):
            f.write(format_line(p, p.name))  # each puzzle is written once proven unique
            puzzles.append(p)
    if args.json:
        print(json.dumps({"game": "sudoku", "seed": args.seed, "files": [str(path)],
                          "kept": f.held, "clues": [p.clues for p in puzzles]}))
    else:
        made = (f"({min(p.clues for p in puzzles)}-{max(p.clues for p in puzzles)} clues) "
                if puzzles else "")
        print(f"wrote {len(puzzles)} unique {size}x{size} puzzles {made}to {path}"
              + _kept(f.held))
    return 0


def _kept(held: int) -> str:
    return f"; kept the {held} already there" if held else ""


def _only_daggers_flags(args: argparse.Namespace) -> None:
    if any(v is not None for v in (args.preset, args.width, args.height, args.daggers, args.gold,
                                   args.topology, args.lives)):
        raise UsageError("--preset/--width/--height/--daggers/--gold/--topology/--lives are for "
                         "daggers")


def _generate_undead(args: argparse.Namespace) -> int:
    import re

    from logic_agents.games.undead.board import format_game_id
    from logic_agents.games.undead.generate import iter_puzzles

    _only_daggers_flags(args)
    if args.clues is not None:
        raise UsageError("--clues is for sudoku")
    m = re.fullmatch(r"(\d+)x(\d+)", args.size or "")
    if not m:
        raise UsageError("give --size WxH, such as 7x7 or 20x20")
    width, height = int(m.group(1)), int(m.group(2))
    out = Path(args.output)
    tag = f"-{args.difficulty}" if args.difficulty else ""
    path = out / f"undead{width}x{height}{tag}-s{args.seed}.tsv"
    header = (f"# generated by logic-agents {__version__}: unique {width}x{height} "
              f"Undead puzzles, seed {args.seed}, difficulty {args.difficulty or 'any'}\n"
              "# columns: game ID, name, solution\n")
    made = []
    with LineFile(path, header, resume=args.resume, force=args.force) as f:
        todo = iter_puzzles(width, height, args.count, args.seed, args.difficulty,
                            skip=range(f.held))
        for g in streamed(todo, max(0, args.count - f.held), "puzzles"):
            # each puzzle is written once proven unique
            f.write(f"{format_game_id(g.puzzle)}\t{g.puzzle.name}\t{g.solution}")
            made.append(g)
    seconds = [g.seconds for g in made] or [0.0]
    if args.json:
        print(json.dumps({"game": "undead", "seed": args.seed, "files": [str(path)],
                          "kept": f.held,
                          "puzzles": [{"name": g.puzzle.name, "id": format_game_id(g.puzzle),
                                       "share_propagated": round(g.share, 4),
                                       "redraws": g.rounds, "givens": g.givens,
                                       "seconds": round(g.seconds, 4)} for g in made]}))
    else:
        print(f"wrote {len(made)} unique {width}x{height} Undead puzzles to {path} in "
              f"{sum(seconds):.2f}s (max {max(seconds):.2f}s per puzzle; "
              f"{sum(g.givens for g in made)} givens in all)" + _kept(f.held))
    return 0


def _generate_mazes(args: argparse.Namespace) -> int:
    import re

    from logic_agents.games.mazes.board import format_board, load_board
    from logic_agents.games.mazes.generate import iter_boards

    _only_daggers_flags(args)
    if args.clues is not None or args.difficulty is not None:
        raise UsageError("--clues and --difficulty are for sudoku and undead")
    m = re.fullmatch(r"(\d+)(?:x(\d+))?", args.size or "")
    if not m:
        raise UsageError("give --size N (N x N) or HxW, such as 9 or 12x15")
    height = int(m.group(1))
    width = int(m.group(2) or height)
    out = Path(args.output)
    paths = [out / f"maze{height}x{width}-s{args.seed}-{k + 1}.txt" for k in range(args.count)]
    for path in paths:
        refuse_existing(path, args.force, args.resume)
    kept = {k for k, path in enumerate(paths) if args.resume and _loads(load_board, path)}
    written, made = [], []
    todo = iter_boards(height, args.count, args.seed, args.shapes, width=width, skip=kept)
    for g in streamed(todo, args.count - len(kept), "mazes"):
        path = out / f"{g.board.name}.txt"
        write_file(path, format_board(g.board, f"Exactly One Mazes {g.board.name} "
                                      f"({height}x{width}, {len(g.board.shapes)} shapes); "
                                      f"generated by logic-agents {__version__}, seed "
                                      f"{args.seed}; unique"))
        written.append(str(path))
        made.append(g)
    if args.json:
        print(json.dumps({"game": "mazes", "seed": args.seed, "files": written,
                          "kept": len(kept),
                          "boards": [{"name": g.board.name, "shapes": len(g.board.shapes),
                                      "path_length": len(g.solution), "rounds": g.rounds,
                                      "restarts": g.restarts, "seconds": round(g.seconds, 4)}
                                     for g in made]}))
    else:
        secs = [g.seconds for g in made] or [0.0]
        print(f"wrote {len(made)} unique {height}x{width} mazes to {out} in {sum(secs):.2f}s "
              f"(max {max(secs):.2f}s per board)" + _kept(len(kept)))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from logic_agents.world.trace import replay

    report = replay(args.trace)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"trace agrees: {report['steps']} steps replayed, outcome {report['outcome']}, "
              f"score {report['score']}")
    return 0


# -- parser --------------------------------------------------------------------------------
def _preset_epilog() -> str:
    from logic_agents.games.daggers.generate import PRESETS

    return "Presets: " + "; ".join(f"{p.name} ({p.height}x{p.width}/{p.daggers}, {p.about})"
                                   for p in PRESETS.values())


def limit_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-limits", dest="no_limits", action="store_true",
                   help="lift the size limits on input (board cells, CNF variables) on purpose")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Agents that play and solve logic games by reasoning with SAT.",
        epilog="Example: logic-agents play maps/daggers/2018/HARD1.txt --agent satx",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    sub.required = True

    def episode_flags(p: argparse.ArgumentParser, agent_help: str) -> None:
        """What every verb that plays an episode takes: map, agent, seed, lives, game, options."""
        p.add_argument("map", metavar="MAP", help="map file (FILE:K for the K-th puzzle of a file), "
                       "a shipped map's name such as HARD1, or an Undead game ID")
        p.add_argument("--agent", default=None, help=agent_help)
        p.add_argument("--seed", type=_integer, default=0, help="seed of world and agent (default: 0)")
        p.add_argument("--lives", type=_positive_int, default=None,
                       help="starting lives (default: the map's, else 1)")
        p.add_argument("--game", default=None,
                       help="game of the map (default: detected from its folder or content)")
        add_agent_flags(p)
        limit_flag(p)

    p = sub.add_parser("play", help="run one agent on one map",
                       description="Run one agent on one map and show the board after each move.")
    episode_flags(p, agent_help="daggers: rpx, spx, satx (default satx); sudoku: sat, logic, "
                  "norvig, ea-repair, ea-multi (default sat); undead: sat, logic, brute-force, "
                  "dfs-square, dfs-path, dfs-path-tight (default sat); mazes: sat, bfs, dfs, ids, ucs, "
                  "greedy, astar, human (default sat); ooze: sat, rbfs, greedy (default sat)")
    p.add_argument("--quiet", action="store_true", help="print only the outcome")
    p.add_argument("--pieces", default=None, metavar="SEQ",
                   help="ooze: the first pieces, as glyphs from |-+qecz (then the seeded RNG)")
    p.add_argument("--json", action="store_true", help="print one JSON result object only")
    p.add_argument("--explain", action="store_true",
                   help="daggers prob: at each guess, print the safest candidate cells with "
                   "their exact dagger probabilities (to stderr with --json)")
    p.add_argument("--trace", metavar="FILE", help="write a JSONL trace of every step (with the "
                   "instance itself, so it replays anywhere)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --trace file")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("cnf", help="write the SAT agent's knowledge base as DIMACS",
                       description="Play the SAT agent until its K-th satisfiability test and "
                       "write the knowledge base it holds then, with named-variable comments.")
    episode_flags(p, agent_help="daggers: an agent with a knowledge base (default satx); "
                  "puzzles: ignored, the whole encoding is written")
    p.add_argument("--query", type=_integer, default=1, metavar="K",
                   help="which satisfiability test, counting from 1 (default: 1)")
    p.add_argument("-o", "--output", metavar="FILE.cnf", help="output file (default: stdout)")
    p.add_argument("--force", action="store_true", help="overwrite an existing -o file")
    p.add_argument("--json", action="store_true", help="print one JSON object describing the file")
    p.set_defaults(func=cmd_cnf)

    p = sub.add_parser("inspect", help="summarise, list and solve a DIMACS file",
                       description="Print the sizes of a DIMACS file, its clauses by variable "
                       "name, and optionally a model.")
    p.add_argument("file", metavar="FILE.cnf")
    p.add_argument("--limit", type=_integer, default=20, metavar="N",
                   help="list the first N clauses by name (default: 20; 0 lists none)")
    p.add_argument("--solve", action="store_true", help="solve it and print the model by name")
    p.add_argument("--solver", default="cadical195", choices=SOLVERS, metavar="NAME",
                   help="solver for --solve (default: cadical195)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    limit_flag(p)
    p.set_defaults(func=cmd_inspect)

    p = sub.add_parser(
        "generate", help="write random maps of a preset or size",
        description="Write random maps in the standard format (every start hint opens an "
        "area), unique Sudoku puzzles in line format, or unique Undead puzzles as TSV (game "
        "ID, name, solution).")
    p.epilog_from = _preset_epilog
    p.add_argument("game", choices=["daggers", "sudoku", "undead", "mazes"],
                   help="daggers (the sweeper family), sudoku, undead or mazes")
    p.add_argument("--size", help="sudoku: N (4, 9, 16, 25); undead: WxH (such as 7x7, 20x20); "
                   "mazes: N or HxW")
    p.add_argument("--shapes", type=_integer, metavar="K",
                   help="mazes: at most K L-tetrominoes (default: as many as fit)")
    p.add_argument("--difficulty", choices=["easy", "normal", "tricky"],
                   help="undead: the share of cells unit propagation fills (easy >= 97%%, "
                   "normal 90-97%%, tricky < 90%%; see docs/FORMATS.md)")
    p.add_argument("--clues", type=_integer, help="sudoku: stop removing at this many clues "
                   "(default: remove while the solution stays unique)")
    p.add_argument("--preset", help="a preset name (see below)")
    p.add_argument("--width", type=_positive_int)
    p.add_argument("--height", type=_positive_int)
    p.add_argument("--daggers", type=_integer, metavar="K")
    p.add_argument("--gold", type=_integer, metavar="G", help="gold mines (default 0)")
    p.add_argument("--topology", choices=["square", "hex"], help="default square")
    p.add_argument("--lives", type=_positive_int, help="starting lives written in the header")
    p.add_argument("--count", type=_integer, default=10, help="how many maps (default 10)")
    p.add_argument("--start", type=_cell, metavar="R,C", help="daggers: the first probe, kept "
                   "clear so that it opens an area (default 0,0; 3,3 is the 'modern' opening "
                   "of published solver records)")
    p.add_argument("--safe-start", action="store_true", help="daggers: keep only the first "
                   "probe clear, not its neighbours; it is safe but may show a number (the "
                   "'classic' start rule)")
    p.add_argument("--seed", type=_integer, default=0, help="seed of the generator (default 0)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write into "
                   "(each map or puzzle is written as soon as it is made)")
    p.add_argument("--force", action="store_true", help="overwrite files already there")
    p.add_argument("--resume", action="store_true",
                   help="finish an interrupted run: keep the maps or puzzles already written "
                   "(the same options make the same ones) and make the rest")
    p.add_argument("--json", action="store_true", help="print the written files as JSON")
    limit_flag(p)
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser(
        "compare", help="compare agents' win rates over many maps and seeds (paired)",
        description="Every agent plays every map --runs times; run i on map m uses the same "
        "seed for every agent. Rows stream to --out as games finish; Ctrl-C loses none.",
        epilog="Example: logic-agents compare maps/daggers/2018 --agents rpx,spx,satx --runs 100 "
        "--out runs.csv --plot winrate.png")
    p.add_argument("maps", nargs="*", metavar="MAP_OR_DIR",
                   help="map files, folders of maps, or shipped map names")
    p.add_argument("--agents", default=None,
                   help="comma-separated (default: every agent of the game)")
    p.add_argument("--runs", type=_integer, default=10, help="runs per map and agent (default 10)")
    p.add_argument("--seed", type=_integer, default=0, help="study seed (default 0)")
    p.add_argument("--jobs", type=_integer, default=None, help="worker processes (default: all cores)")
    p.add_argument("--out", metavar="FILE.csv|FILE.jsonl", help="stream one row per game here")
    p.add_argument("--resume", action="store_true", help="skip the runs already in --out")
    p.add_argument("--plot", metavar="FILE.png", help="win rate per group with CI bars "
                   "(extra 'plot')")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--backend", choices=["process", "ray"], default="process",
                   help="process pool (default) or Ray (extra 'ray')")
    p.add_argument("--address", metavar="HOST:PORT",
                   help="with --backend ray: join the running Ray cluster whose head is at "
                        "HOST:PORT (default: start a Ray for this run)")
    p.add_argument("--generate", metavar="PRESET[,PRESET]",
                   help="also play --count generated maps of each preset, made from --seed")
    p.add_argument("--count", type=_integer, default=10, help="maps per --generate preset (default 10)")
    p.add_argument("--start", type=_cell, metavar="R,C", help="the first probe of --generate "
                   "maps, kept clear so that it opens an area (default 0,0)")
    p.add_argument("--safe-start", action="store_true", help="--generate maps keep only the "
                   "first probe clear, not its neighbours (the 'classic' start rule)")
    p.add_argument("--lives", type=_positive_int, default=None, help="starting lives")
    p.add_argument("--game", default=None,
                   help="game of the maps (default: detected from their folder or content)")
    add_agent_flags(p)
    limit_flag(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser(
        "solve", help="solve puzzles and say whether each solution is unique",
        description="Solve every puzzle of the files (one per line; Undead: TSV whose first "
        "column is a game ID, or pictures) or given on the command line (a Sudoku line, an "
        "Undead game ID).",
        epilog="Examples: logic-agents solve maps/sudoku/norvig_top95.txt --unique --json; "
        "logic-agents solve '4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3' --unique")
    p.add_argument("puzzles", nargs="+", metavar="FILE_OR_PUZZLE")
    p.add_argument("--game", choices=["sudoku", "undead", "mazes"], default=None,
                   help="the puzzle's game (default: detected from the folder or content)")
    p.add_argument("--unique", action="store_true",
                   help="also prove uniqueness (a second solution is shown if there is one)")
    p.add_argument("--solver", default=None, metavar="NAME",
                   help="PySAT solver (default: as measured: sudoku cadical195 for 9x9, "
                   "glucose4 otherwise; undead glucose4)")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle, one per line")
    limit_flag(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("maps", help="list the shipped maps", description="List the shipped maps.")
    p.add_argument("--game", default=None, help="only this game's maps")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=cmd_maps)

    p = sub.add_parser("replay", help="re-run a trace and check it",
                       description="Re-run a --trace file in a fresh world; exit 2 if any step "
                       "differs.")
    p.add_argument("trace", metavar="TRACE.jsonl")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    limit_flag(p)
    p.set_defaults(func=cmd_replay)
    return parser


def _integer(text: str) -> int:
    """An argparse type: an integer in ASCII digits (no '٣' or '３'), at most 12 of them."""
    value = int_or_none(text.strip())
    if value is None:
        raise argparse.ArgumentTypeError(f"not an integer (digits 0-9): {text[:40]!r}")
    return value


def _positive_int(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def _positive_float(text: str) -> float:
    if not re.fullmatch(r"[0-9]{1,12}(\.[0-9]{0,12})?|\.[0-9]{1,12}", text.strip()):
        raise argparse.ArgumentTypeError(f"not a number (digits 0-9): {text[:40]!r}")
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _cell(text: str) -> tuple[int, int]:
    """An argparse type: a cell written R,C (0-based row and column)."""
    parts = [int_or_none(part.strip()) for part in text.split(",")]
    if len(parts) != 2 or None in parts:
        raise argparse.ArgumentTypeError(f"not a cell R,C: {text[:40]!r}")
    r, c = parts
    if r < 0 or c < 0:
        raise argparse.ArgumentTypeError(f"row and column must not be negative, got {text}")
    return r, c


def main(argv: list[str] | None = None) -> int:
    """Run the command line; every way it can fail on purpose is one stderr line and exit 2,
    Ctrl-C is one line and exit 130, and a closed stdout (`| head`) ends it quietly."""
    parser = build_parser()
    args = parser.parse_args(argv)
    lift_limits(bool(getattr(args, "no_limits", False)))
    try:
        code = args.func(args)
        sys.stdout.flush()  # a full disk or a closed pipe is seen here, not at exit
        return code
    except LogicAgentsError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as e:
        return _fail(f"cannot write: {e.strerror or e}" + (f": {e.filename}" if e.filename else ""))
    except RecursionError:
        return _fail("input nested too deeply to read")
    except Exception as e:
        if "keyboard interrupt" in str(e).lower():  # PySAT's solvers turn SIGINT into an error
            return _interrupted()
        raise
    finally:
        lift_limits(False)


def _fail(message: str) -> int:
    with contextlib.suppress(OSError):
        print(f"{PROG}: error: {message}", file=sys.stderr, flush=True)
    return 2


def _interrupted() -> int:
    with contextlib.suppress(OSError):
        print(f"{PROG}: interrupted", file=sys.stderr, flush=True)
    return 130


def _quiet_stdout() -> None:
    """After `| head` closed the pipe: send what is left to /dev/null, so that flushing stdout
    at exit raises nothing (Python's documented recipe)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
