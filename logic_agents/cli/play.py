"""`logic-agents play`: one agent (registered, or a class of yours) on one instance."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from logic_agents.cli.common import (
    VERB_HELP,
    ParserMaker,
    agent_entries,
    agents_epilog,
    caps_flags,
    caps_of,
    declared_flags,
    episode_flags,
    examples,
    game_of,
    given_options,
    load_one,
    markup_renderer,
    portable_path,
    refuse_overwrite,
    world_options,
)
from logic_agents.cli.episode import failed_result, print_result
from logic_agents.cli.fairplay import isolation_flags
from logic_agents.display.terminal import Watcher
from logic_agents.errors import AgentFailed, LogicAgentsError, UsageError
from logic_agents.ground.output import make_console, natural_key
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import Clock
from logic_agents.referee.pool import run_child
from logic_agents.solving.puzzle import CappedSearchAgent
from logic_agents.study.record import read_study, recorded_seed
from logic_agents.world.agents import build_agent, explaining, resolve_agent
from logic_agents.world.core import AnyAgent, AnyWorld, EpisodeResult, own_name
from logic_agents.world.declared import Option
from logic_agents.world.options import integer, nonnegative_float
from logic_agents.world.registry import get_game
from logic_agents.world.resolve import MAP_SUFFIXES, locate, resolve
from logic_agents.world.runner import run_episode
from logic_agents.world.seeds import agent_seed, study_key
from logic_agents.world.spec import AgentEntry, GameSpec
from logic_agents.world.trace import Trace, trace_header
from logic_agents.world.values import Instance


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "play", help=VERB_HELP["play"],
        description="Run one agent on one map and show the board after each move. "
        "The agent plays in a child process under the caps below; if it raises, "
        "returns an action the world refuses or runs past a cap, play says where, "
        "shows the agent's own traceback frames and exits with code 3.")
    p.epilog_from = lambda: (examples("play", "{example} --agent {agent}")
                             + "An agent of yours: --agent my_agent.py:MyAgent. "
                             + agents_epilog())
    episode_flags(p)
    p.add_argument("--agent-seed", dest="agent_seed", type=integer, default=None, metavar="N",
                   help="the seed the agent's reset gets (default: one derived from --seed); "
                   "a study's 'play it again' command gives the one its game's agent got")
    p.add_argument("--study", metavar="RESULTS.csv", default=None,
                   help="play a game of that study again: MAP is a map's name in it (GROUP/NAME "
                   "where two groups share a name), read from its record (a generated board "
                   "too); the agent's seed and the caps are the study's unless given")
    p.add_argument("--quiet", action="store_true", help="print only the outcome")
    p.add_argument("--json", action="store_true", help="print one JSON result object only")
    p.add_argument("--explain", action="store_true",
                   help="agents that explain their moves say why: satx and prob give the "
                   "minimal set of clues that proves each move, prob the odds of each guess "
                   "(with --quiet, only the moves and their whys)")
    p.add_argument("--delay", type=nonnegative_float, default=None, metavar="S",
                   help="watch: redraw the board in place after each move, the move and its "
                   "why under it, waiting S seconds between moves (instead of printing every "
                   "board)")
    p.add_argument("--every-board", action="store_true",
                   help="print the board after every move (by default a terminal redraws one "
                   "board in place, and a pipe gets the moves, the last board and the result)")
    p.add_argument("--trace", metavar="FILE", help="write a JSONL trace of every step (with the "
                   "instance itself, so it replays anywhere)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --trace file")
    caps_flags(p)
    isolation_flags(p)
    p.add_argument("--in-process", dest="in_process", action="store_true",
                   help="play in this process, not a child (to step through your agent with "
                   "a debugger such as pdb); the move and game caps then stop only code that "
                   "runs Python, and the memory cap is not set")
    p.set_defaults(run=run, game_options=game_options)


def game_options(args: argparse.Namespace) -> list[tuple[str, Option]]:
    """The flags this game and agent add (the second parsing pass)."""
    if getattr(args, "study", None):  # the agent is read under the study's own limits
        study_limits(args, read_study(Path(args.study)), args.study)
    spec = study_game(args.study) if getattr(args, "study", None) else game_of(args, [args.map])
    args.agent = args.agent or spec.default_agent
    flags = [(f"{spec.name} world", o) for o in spec.options]
    return flags + declared_flags(agent_entries(spec, [args.agent], args), spec)


def open_trace(args: argparse.Namespace, spec: GameSpec, instance: Instance, map_path: str,
               options: Record) -> Trace | None:
    """The --trace writer (None without --trace): the instance goes in the trace, so it
    replays anywhere; an existing file is kept unless --force."""

    if not args.trace:
        return None
    refuse_overwrite(args.trace, args.force, "--trace")
    return Trace(args.trace, **trace_header(spec, instance, portable_path(map_path), options))


@dataclass(frozen=True)
class OneGame:
    """What a verb that plays one episode (play, view) plays: the game, where the instance
    came from, the instance, the agent, its options and the world's."""

    spec: GameSpec
    map_path: str
    instance: Instance
    entry: AgentEntry
    options: Record
    world_options: Record


def prepare(args: argparse.Namespace) -> OneGame:
    if getattr(args, "study", None):
        spec, map_path, instance = from_study(args, args.study)
    else:
        spec = game_of(args, [args.map])
        map_path, instance = load_one(args.map, spec)
    (entry,) = agent_entries(spec, [args.agent or spec.default_agent], args)
    options = given_options(args, [entry], spec)[entry.name]
    return OneGame(spec, map_path, instance, entry, options, world_options(spec, args))


def study_limits(args: argparse.Namespace, record: Record, results: str) -> None:
    """The study's own limits on its players (--import-timeout, --max-processes: its
    record's), unless the command gives its own: a module that hangs while it is read is
    stopped where the study stopped it."""
    limits = record.get("limits")
    if limits is None:
        return  # a study of an older version: the defaults
    timeout, processes = (limits.get("import_timeout"), limits.get("max_processes")) \
        if isinstance(limits, dict) else (None, None)
    if not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0
            and type(processes) is int and processes > 0):
        raise UsageError(f"--study {results}: its record's limits are not an import timeout "
                         "and a number of processes")
    changes: dict[str, float | int] = {}
    if getattr(args, "import_timeout", None) is None:
        changes["import_timeout"] = float(timeout)
    if getattr(args, "max_processes", None) is None:
        changes["max_processes"] = processes
    if changes and getattr(args, "isolation", None) is not None:
        args.isolation = dataclasses.replace(args.isolation, **changes)


def study_game(results: str) -> GameSpec:
    """The game of the study whose results file is `results` (from its record)."""
    return get_game(str(read_study(Path(results)).get("game", "")))


def from_study(args: argparse.Namespace, results: str) -> tuple[GameSpec, str, Instance]:
    """(the game, where the map came from, the map) of `play MAP --study RESULTS.csv`.

    The map is read from the study's record, which keeps every instance as the game writes
    it; the agent's seed is the one the study's game gave (derived from the record's seed,
    secret or not: whoever holds the record may replay its games) unless --agent-seed is
    given, and the caps and the players' limits are the study's unless given.
    """
    record = read_study(Path(results))
    study_limits(args, record, results)
    spec = get_game(str(record.get("game", "")))
    if args.game and args.game != spec.name:
        raise UsageError(f"--study {results} is a study of {spec.name}, not {args.game}")
    texts, instances = record.get("texts"), record.get("instances")
    if not isinstance(texts, list) or not isinstance(instances, list) or \
            len(texts) != len(instances) or not all(isinstance(i, dict) for i in instances):
        raise UsageError(f"--study {results}: its record keeps no maps (a study of an older "
                         "logic-agents): name the map's file instead")
    found = [(i, t) for i, t in zip(instances, texts)
             if args.map in (i.get("name"), f"{i.get('group')}/{i.get('name')}")]
    if not found:
        names = sorted({str(i.get("name")) for i in instances})
        raise UsageError(f"--study {results}: no map {args.map!r} in it (it has "
                         f"{', '.join(names[:8])}{' ...' if len(names) > 8 else ''})")
    if len({(i.get("group"), t) for i, t in found}) > 1:
        raise UsageError(f"--study {results}: two groups have a map {args.map!r}; name it "
                         f"GROUP/NAME ({', '.join(str(i.get('group')) for i, _ in found)})")
    where = f"{results}.study.json#{args.map}"
    instance = spec.instances.parse(str(found[0][1]), where)
    if args.agent_seed is None:
        args.agent_seed = agent_seed(args.seed, study_key(recorded_seed(Path(results))))
    caps = record.get("caps")
    caps = caps if isinstance(caps, dict) else {}
    for name in ("move_timeout", "game_timeout", "memory_cap"):
        if getattr(args, name, None) is None:
            setattr(args, name, caps.get(name) or 0)  # 0: no cap, as the study had
    return spec, where, instance


def run(args: argparse.Namespace) -> int:
    game = prepare(args)
    spec, map_path, instance, entry = game.spec, game.map_path, game.instance, game.entry
    options, wopts = game.options, game.world_options
    if entry.interactive:
        world = spec.make_world(instance, **wopts)
        result, about = _play_interactive(spec, entry, options, world, instance, map_path, wopts,
                                          args)
        return print_result(args, spec, result, about, make_console(), False)
    console = make_console()
    if args.explain:
        # agents that prove their moves only do so when asked (it costs solver calls);
        # the others' `why`, if they keep one, is shown anyway. With --json stdout holds one
        # JSON object only, so explanations go to stderr
        out = make_console(stderr=True) if args.json else console
        options = explaining(entry, options, lambda lines: out.print(escape("\n".join(lines))))
    show = not (args.quiet or args.json)
    if show and args.delay is None and not args.every_board and console.is_terminal:
        args.delay = 0.0  # a terminal: one board, redrawn in place, as --delay draws it
    trace = open_trace(args, spec, instance, map_path, wopts)
    if show and args.delay is None:
        console.print(f"[bold]{spec.name}[/bold] {escape(instance.name)}  agent "
                      f"[bold]{escape(entry.name)}[/bold]  seed {args.seed}")
        try:  # the game's own code; should it fail, the game below fails with its words
            first, _ = Clock().world(lambda: spec.make_world(instance, **wopts).reset(
                seed=args.seed))
        except AgentFailed:
            first = None
        if first is not None:
            console.print(markup_renderer(spec)(first))

    def episode(clock: Clock) -> tuple[EpisodeResult, Record]:
        """The game, in the process that plays it (a child, so a stuck agent can be
        stopped): (the result, what print_result reads off the agent)."""
        try:
            return _episode(args, spec, entry, options, instance, wopts, trace, console, show,
                            clock)
        finally:
            if trace is not None:
                trace.close()

    caps = caps_of(args)
    if args.in_process:
        outcome, lost = episode(Clock(caps)), None
    else:
        outcome, lost = run_child(episode, caps, quiet_stdout=args.json)
    if lost is not None:
        lost.agent = entry.name
        result, about = failed_result(spec, instance, entry.name, args.seed, lost), {}
    else:
        result, about = outcome
    return print_result(args, spec, result, about, console, show)


def _episode(args: argparse.Namespace, spec: GameSpec, entry: AgentEntry, options: Record,
             instance: Instance, wopts: Record, trace: Trace | None, console: Console, show: bool,
             clock: Clock) -> tuple[EpisodeResult, Record]:

    try:
        agent = build_agent(entry, options, clock)
    except AgentFailed as e:
        return failed_result(spec, instance, entry.name, args.seed, e), {}
    try:
        world = clock.world(lambda: spec.make_world(instance, **wopts))
    except AgentFailed as e:  # the game's own code failed: said as compare's row says it
        return failed_result(spec, instance, entry.name, args.seed, e), {}
    if show and args.delay is not None:
        return _watch(args, spec, world, agent, instance, wopts, trace, console, clock)
    render_markup = markup_renderer(spec)
    explained = args.explain and not args.json  # --quiet --explain: the moves and their whys

    last: list[object] = []

    def on_step(obs: object, action: object, reward: float) -> None:
        why = clock.last_why
        move = f"[bold]{escape(str(action))}[/bold]" + (f"  [dim]({escape(str(why))})[/dim]"
                                                        if why else "")
        if not (show and args.every_board):  # the moves; a pipe gets the last board after
            console.print(move)
            last[:] = [obs]
            return
        console.print("\n" + move)
        console.print(render_markup(obs))

    result = run_episode(world, agent, args.seed, trace, game=spec.name, map_name=instance.name,
                         on_step=on_step if show or explained else None, clock=clock,
                         agent_seed=args.agent_seed)
    if show and last:
        console.print(render_markup(last[0]))
    return result, about_agent(agent)


def about_agent(agent: object) -> Record:
    """What print_result says of an agent after its game (a search's cap), as plain values
    that cross from the process that played."""
    if not isinstance(agent, CappedSearchAgent):
        return {"stopped": "", "nodes": 0}
    return {"stopped": agent.stopped or "", "nodes": agent.nodes}


def _watch(args: argparse.Namespace, spec: GameSpec, world: AnyWorld, agent: AnyAgent,
           instance: Instance, wopts: Record, trace: Trace | None, console: Console,
           clock: Clock) -> tuple[EpisodeResult, Record]:
    """`play --delay S`: one board redrawn in place (terminal.Watcher)."""

    title = f"{spec.name} {instance.name}  agent {own_name(agent) or ''}  seed {args.seed}"
    with Watcher(spec, console, args.delay, title) as watcher:
        first, _ = spec.make_world(instance, **wopts).reset(seed=args.seed)
        watcher.show(first)
        result = run_episode(world, agent, args.seed, trace, game=spec.name,
                             map_name=instance.name, clock=clock, agent_seed=args.agent_seed,
                             on_step=lambda obs, action, reward: watcher.show(
                                 obs, action, clock.last_why or "", reward))
    return result, about_agent(agent)


def next_puzzle_after(reference: str, spec: GameSpec) -> Callable[[Instance], Instance] | None:
    """What human play's `n` plays after an instance: the next puzzle of its file (4x4de:1,
    then 4x4de:2), else the next file of its folder (HARD1, then HARD2), wrapping around;
    None when the reference names no file (an inline puzzle: `n` changes the seed)."""

    path = locate(reference, spec)
    if path is None:
        return None
    puzzles = resolve(str(path), spec, every=True)[1]
    if len(puzzles) > 1:
        names = [p.name for p in puzzles]
        return lambda current: puzzles[(names.index(current.name) + 1) % len(puzzles)
                                       if current.name in names else 0]
    siblings = sorted((p for p in path.parent.iterdir() if p.suffix in MAP_SUFFIXES),
                      key=lambda p: natural_key(p.name))

    def following(current: Instance) -> Instance:
        at = next((k for k, p in enumerate(siblings) if p.stem == current.name), -1)
        for step in range(1, len(siblings) + 1):
            try:
                return resolve(str(siblings[(at + step) % len(siblings)]), spec)[1][0]
            except LogicAgentsError:  # a file of the folder that is not this game's: skip it
                continue
        return current

    return following


def _play_interactive(spec: GameSpec, entry: AgentEntry, options: Record, world: AnyWorld,
                      instance: Instance, map_path: str, wopts: Record,
                      args: argparse.Namespace) -> tuple[EpisodeResult, Record]:
    """A person's game in the terminal (logic_agents.display.tui); returns (result, agent)."""
    from logic_agents.display.tui import Scripted, play_human

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(f"--agent {entry.name} needs a terminal (stdin and stdout a tty)")
    hint_entry = resolve_agent(spec, spec.hint_agent)

    def hint_agent() -> AnyAgent:
        return build_agent(hint_entry, explaining(hint_entry))

    def make_trace(played: Instance, seed: int | None) -> Trace | None:
        """The trace of the game the person ended on (after `n`, the new puzzle's)."""
        args.seed = seed
        return open_trace(args, spec, played, map_path if played is instance else played.name,
                          wopts)

    result = play_human(spec, instance, wopts, args.seed, make_trace, hint_agent,
                        next_puzzle_after(args.map, spec))
    return result, about_agent(Scripted([]))
