"""`logic-agents compare`: a paired study of agents (registered or your own) over instances.

The summary follows the game's objective: win rates with Wilson intervals and McNemar tests
for `win` games, mean scores with intervals and sign tests for `score` games.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from logic_agents.cli.common import (
    PROG,
    VERB_HELP,
    ParserMaker,
    agents_epilog,
    caps_flags,
    caps_of,
    declared_flags,
    examples,
    game_flag,
    game_of,
    given,
    given_options,
    limit_flag,
    refuse_overwrite,
    stop_listening,
    world_options,
)
from logic_agents.cli.episode import EXIT_AGENT_FAILED
from logic_agents.cli.fairplay import isolation_flags
from logic_agents.cli.study_agents import agent_names, study_agents
from logic_agents.cli.study_outputs import (
    baseline_of,
    check_outputs,
    kept_traces,
    output_flags,
    replays_flag,
    report_failures,
    say_notes,
    seed_words,
    write_outputs,
)
from logic_agents.cli.study_progress import StudyBar
from logic_agents.errors import UsageError
from logic_agents.ground.output import make_console
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import HEADROOM_MIB
from logic_agents.study import batch, seeding
from logic_agents.study.entries import MapEntry, entries_from_references
from logic_agents.study.grades import source_of
from logic_agents.study.record import read_study
from logic_agents.study.report import print_summary
from logic_agents.study.settings import StudySettings
from logic_agents.study.summary import summarize
from logic_agents.study.traces import Traces
from logic_agents.world.declared import Option
from logic_agents.world.options import integer, positive_int
from logic_agents.world.registry import games, get_game
from logic_agents.world.seat import Elsewhere
from logic_agents.world.spec import AgentEntry, GameSpec, Generator


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "compare", help=VERB_HELP["compare"],
        description="Every agent plays every map --runs times; run i on map m uses the same "
        "seed for every agent. Rows stream to --out as games finish; Ctrl-C loses none. "
        "Each game is played in a worker process under the caps below: a game whose agent "
        "raises, returns an action the world refuses, exits or runs past a cap is a row with "
        "outcome error or timeout, and the study goes on. Exit code: 0, or 3 when some games "
        "ended in error or timeout (2: bad input, 130: interrupted).")
    p.epilog_from = lambda: (examples("compare", "{example} --agents {agents} --runs 100 --out "
                                      "runs.csv --plot plot.png")
                             + "An agent of yours: --agents NAME,my_agent.py:MyAgent. "
                             + agents_epilog())
    p.add_argument("maps", nargs="*", metavar="MAP_OR_DIR",
                   help="instance files, folders of them, shipped names or inline instances")
    p.add_argument("--agents", default=None, metavar="A,B,...",
                   help="comma-separated registered agents or FILE.py:CLASS / MODULE:CLASS; "
                   "NAME=FILE.py:CLASS plays it as NAME; a quoted glob "
                   "('students/*/agent.py:Agent') is every file it matches, each named by "
                   "what the * matched (default: every agent of the game, or none with "
                   "--submissions)")
    p.add_argument("--submissions", metavar="DIR",
                   help="a class's folder: each DIR/NAME.py, or DIR/NAME/agent.py (with its "
                   "helper modules beside it), plays as NAME (docs/teach.md)")
    p.add_argument("--submission-class", dest="submission_class", default="Agent",
                   metavar="CLASS", help="the class each submission defines (default Agent)")
    p.add_argument("--stop-on-broken", dest="stop_on_broken", action="store_true",
                   help="stop before any game when an agent's file does not read (a syntax "
                   "or import error, an import past the cap); by default its games are "
                   "error rows that say why, and the study goes on")
    p.add_argument("--runs", type=positive_int, default=10,
                   help="runs per map and agent (default 10)")
    p.add_argument("--seed", type=_study_seed, default=None, metavar="N|random",
                   help="study seed. N is public: anyone who knows it can rebuild every game "
                   "(and generated map). `random` draws one the players cannot guess, kept "
                   "secret in the study record beside --out (a resume takes it from there). "
                   "Default: random when any agent plays in a player process (a file or "
                   "module agent), else 0")
    p.add_argument("--jobs", type=positive_int, default=None,
                   help="worker processes (default: all cores)")
    p.add_argument("--memory-budget", dest="memory_budget", type=positive_int, default=None,
                   metavar="MIB", help="the most the study's players may hold together: each "
                   f"worker's player may take --memory-cap + {HEADROOM_MIB} MiB, so --jobs is "
                   "chosen (or checked) to fit; e.g. --memory-budget 1536 --memory-cap 256 "
                   "plays on two workers")
    p.add_argument("--out", metavar="FILE.csv|FILE.jsonl", help="stream one row per game here")
    p.add_argument("--resume", action="store_true",
                   help="continue the study in --out: play only the games it does not hold. "
                   "The study must be the same (maps and their contents, agents and their "
                   "files, options, grouping, seed); --runs may grow. Games that ended in "
                   "error or timeout count as played")
    p.add_argument("--retry-errors", dest="retry_errors", action="store_true",
                   help="with --resume: play again the games that ended in error or timeout")
    p.add_argument("--only", action="append", metavar="NAME", default=None,
                   help="with --resume: regrade this agent alone (repeatable): only its module "
                   "is read and only its games are played, all of them when its file changed "
                   "(its failed ones with --retry-errors); every other row stands")
    p.add_argument("--plot", metavar="FILE.png", help="win rates (or scores) per group with "
                   "95%% intervals (extra 'plot')")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--html", metavar="FILE.html", help="write a study page: the summary, bars "
                   "with intervals, the paired tests and a link per game to its replay page "
                   "(in FILE_replays/, drawn from the study's own trace of the game: no game "
                   "is played again, and a time-out has one too)")
    replays_flag(p)
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing --html page or --plot file")
    p.add_argument("--backend", choices=["process", "ray"], default="process",
                   help="process pool (default) or Ray (extra 'ray')")
    p.add_argument("--address", metavar="HOST:PORT",
                   help="with --backend ray: join the running Ray cluster whose head is at "
                        "HOST:PORT (default: start a Ray for this run)")
    p.add_argument("--generate", metavar="SPEC",
                   help="also play --count instances made by the game's generator from SPEC "
                   "and --seed (SPEC is the game's: `logic-agents generate GAME --help`)")
    p.add_argument("--count", type=positive_int, default=10,
                   help="instances per --generate item (default 10)")
    p.add_argument("--lives", type=positive_int, default=None, help="starting lives")
    p.add_argument("--group-by", dest="group_by", default="auto",
                   choices=("auto", "folder", "file", "map", "preset"),
                   help="how the summary groups instances: auto (default: the preset, else the "
                   "file of a file of many instances, else the folder), folder, file, map "
                   "(each its own), preset")
    output_flags(p)
    game_flag(p, "the maps")
    limit_flag(p)
    caps_flags(p)
    isolation_flags(p)
    p.set_defaults(run=run, game_options=game_options)


def _study_seed(text: str) -> int | str:
    return "random" if text.strip() == "random" else integer(text)


def _game(args: argparse.Namespace) -> GameSpec:
    """The study's game: --game, else its maps' game, else the one game that generates
    instances for `compare --generate`."""

    if args.game or args.maps and not args.generate:
        return game_of(args, args.maps)
    if args.generate:  # before the maps: a flag of the generator's game (--start 3,3) is not
        # known yet on the first reading, so its value would pass for a map
        makers = [n for n, s in games().items()
                  if (g := s.get(Generator)) is not None and g.for_compare is not None]
        if len(makers) == 1:
            return get_game(makers[0])
        raise UsageError(f"--generate: give --game (one of {', '.join(makers)})")
    raise UsageError("no maps: give MAP_OR_DIR or --generate")


def game_options(args: argparse.Namespace) -> list[tuple[str, Option]]:
    spec = _game(args)
    flags = [(f"{spec.name} world", o) for o in spec.options]
    generator = spec.get(Generator)
    if generator is not None:
        flags += [(f"{spec.name} --generate", o) for o in generator.compare_options]
    return flags + declared_flags(study_agents(args, spec), spec)


def run(args: argparse.Namespace) -> int:
    """The study the command line asks for: checked, planned once, played, then written."""
    spec = _game(args)
    names = agent_names(args, spec)
    entries_of_agents = study_agents(args, spec)
    options = _checked(args, spec, names, entries_of_agents)
    err = make_console(stderr=True)
    say_notes(err, args.renamed)
    entries = _instances(args, spec, err)
    labels = [e.name for e in entries_of_agents]  # rows name agents so
    # --only: the study's other agents, as its record names them (their modules not read)
    held = read_study(Path(args.out)) if args.only and Path(args.out).exists() else {}
    everyone = [str(a.get("name")) for a in held.get("agents", [])
                if isinstance(a, dict)] if held else labels
    baseline = baseline_of(args)
    for name in baseline:  # before the first game, not after hours of them
        if name not in everyone:
            raise UsageError(f"--baseline {name}: no agent of the study is named so")
    total = len(entries) * args.runs * len(names)
    scored = spec.objective == "score"
    settings = StudySettings(
        runs=args.runs, seed=args.seed, seed_secret=args.seed_secret, seed_asked=args.seed_asked,
        jobs=args.jobs, game=spec.name, out=args.out, isolation=args.isolation,
        resume=args.resume, retry_errors=args.retry_errors, only=tuple(args.only or ()),
        backend=args.backend, address=args.address,
        agent_options={k: v for k, v in options.items() if v},
        world_options=world_options(spec, args), caps=caps_of(args),
        stop_on_broken=args.stop_on_broken)
    # the games the pages draw, as they were played (with --out, beside it for report)
    traces = Traces(keep=kept_traces(args, total))
    study_notes: list[str] = []  # what the study says of itself (the plan's, the sweep's)
    with StudyBar(err, labels, total, scored) as bar:
        try:
            with batch.planned(names, entries, settings, study_notes.append) as plan:
                rows = batch.play(plan, bar.on_row, traces)
        except KeyboardInterrupt:
            return _interrupted(args, err, study_notes, bar.done)
        bar.finish()
    summary = summarize(rows, everyone, groups=list(dict.fromkeys(e.group for e in entries)),
                        scored=scored, baseline=baseline)
    references = held.get("references") if held else None
    sources = {**(references if isinstance(references, dict) else {}),
               **{e.name: source_of(e, spec) for e in entries_of_agents}}
    write_outputs(args, spec, summary, rows, entries, sources, traces, err)
    say_notes(err, study_notes, args.renamed)  # a rename was said before the study
    # a regrade (--only) answers for the agents it played; the others' rows were said before
    judged = set(labels) if args.only else set(summary.agents)
    failed = sum(st.errors + st.timeouts for a, st in summary.agents.items() if a in judged)
    if failed:
        report_failures([r for r in rows if r.agent in judged], err)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        console = make_console()
        print_summary(console, summary, len(entries), args.runs, seed_words(args))
        if args.out:
            console.print(f"rows: {escape(args.out)}")
        if args.plot:
            console.print(f"plot: {escape(args.plot)}")
    return EXIT_AGENT_FAILED if failed else 0


def _checked(args: argparse.Namespace, spec: GameSpec, names: list[str],
             agents: list[AgentEntry]) -> Record:
    """The agents' options, once every flag is checked against the others (before the first
    game, not after hours of them); the study's seed chosen into `args`."""
    for entry in agents:
        if entry.interactive:
            raise UsageError(f"agent {entry.name} needs a person; compare plays without one")
    if len(set(names)) != len(names):
        raise UsageError("--agents names an agent twice")
    check_outputs(args)
    if args.plot:
        from logic_agents.display.plot import check_plot_target

        refuse_overwrite(args.plot, args.force, "--plot")
        check_plot_target(args.plot)
    if args.resume and not args.out:
        raise UsageError("--resume continues an --out file; give --out")
    if args.retry_errors and not args.resume:
        raise UsageError("--retry-errors goes with --resume")
    if args.only and not args.resume:
        raise UsageError("--only regrades agents of a study; give --out FILE --resume")
    if args.address and args.backend != "ray":
        raise UsageError("--address goes with --backend ray")
    options = given_options(args, agents, spec)  # refuses what none declares
    # a secret seed unless one is given: the players cannot rebuild their games from it
    # (a file agent whose module does not read counts: it is a player's, not the referee's)
    args.isolated = any(isinstance(e.factory, Elsewhere) for e in agents)
    chosen = seeding.study_seed(args.seed, args.isolated, args.out, args.resume)
    args.seed, args.seed_secret, args.seed_asked = chosen.value, chosen.secret, chosen.asked
    args.jobs = jobs_within(args.memory_budget, caps_of(args).memory_cap, args.jobs)
    return options


def jobs_within(budget: int | None, cap: int | None, jobs: int | None) -> int | None:
    """The workers a --memory-budget allows: each one's player may hold its cap and the
    interpreter's headroom, so `budget // (cap + headroom)` of them, at most one per core;
    --jobs past that is refused, and so is a budget with no memory cap to count by."""
    if budget is None:
        return jobs
    if cap is None:
        raise UsageError("--memory-budget counts by --memory-cap; give one (--memory-cap 0 "
                         "lifts the cap, and a budget cannot be kept without it)")
    each = cap + HEADROOM_MIB
    fits = budget // each
    if fits < 1:
        raise UsageError(f"--memory-budget {budget} MiB holds no worker: each may take "
                         f"--memory-cap {cap} + {HEADROOM_MIB} MiB = {each} MiB")
    if jobs is not None and jobs > fits:
        raise UsageError(f"--jobs {jobs} x ({cap} + {HEADROOM_MIB} MiB) = {jobs * each:,} MiB "
                         f"is past --memory-budget {budget:,} MiB: give --jobs {fits}, or a "
                         "smaller --memory-cap")
    return jobs if jobs is not None else max(1, min(fits, os.cpu_count() or 1))


def _instances(args: argparse.Namespace, spec: GameSpec, err: Console) -> list[MapEntry]:
    """The maps named, and the boards --generate makes."""
    entries = entries_from_references(args.maps, spec, args.group_by)
    generator = spec.get(Generator)
    generate_options = {o.name for o in generator.compare_options} if generator else set()
    if args.generate:
        if generator is None or generator.for_compare is None:
            raise UsageError(f"{spec.name} has no generator for --generate")
        entries += [MapEntry(instance, group) for instance, group in
                    generator.for_compare(args.generate, args.count, args.seed,
                                          {name: given(args, name)
                                           for name in generate_options})]
        if args.isolated and not args.seed_secret:
            err.print(f"note: --seed {args.seed} is public: an agent that knows it can rebuild "
                      "the generated maps; leave --seed out for a secret one")
    elif any(given(args, name) not in (None, False) for name in generate_options):
        named = ", ".join("--" + n.replace("_", "-") for n in sorted(generate_options)
                          if given(args, n) not in (None, False))
        raise UsageError(f"{named} shape --generate instances; give --generate")
    if not entries:
        raise UsageError("no maps: give MAP_OR_DIR or --generate")
    return entries


def _interrupted(args: argparse.Namespace, err: Console, notes: list[str], done: int) -> int:
    """Ctrl-C or SIGTERM: what the study did on its way out, and where its games are."""
    stop_listening()  # saying so must not be cut short by a second Ctrl-C
    say_notes(err, notes, args.renamed)  # what the study did on its way out (shared channels)
    if not done:  # stopped while the first games (or a class's modules) were still going
        err.print(f"{PROG}: interrupted")
        return 130
    saved = f"; finished games are in {args.out}, continue with --resume" if args.out else ""
    err.print(f"{PROG}: interrupted after {done} games{saved}")
    return 130
