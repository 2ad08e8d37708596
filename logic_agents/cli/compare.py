"""`logic-agents compare`: a paired study of agents (registered or your own) over instances.

The summary follows the game's objective: win rates with Wilson intervals and McNemar tests
for `win` games, mean scores with intervals and sign tests for `score` games.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

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
from logic_agents.cli.fairplay import isolation_flags, limit_words
from logic_agents.cli.study_agents import agent_names, study_agents
from logic_agents.cli.study_outputs import (
    AUTO_REPLAYS,
    baseline_of,
    check_outputs,
    kept_traces,
    output_flags,
    play_again,
    public_aliases,
    public_view,
    report_failures,
    seed_words,
    write_graded,
    write_html,
)
from logic_agents.cli.study_progress import LIVE_AGENTS, PROGRESS_LINE_S, progress_line
from logic_agents.errors import UsageError
from logic_agents.ground.inputs import printable
from logic_agents.ground.output import make_console
from logic_agents.study import batch, seeding
from logic_agents.study.entries import MapEntry, entries_from_references
from logic_agents.study.feedback import write_feedback
from logic_agents.study.grades import grade_rows, source_of
from logic_agents.study.record import read_study
from logic_agents.study.report import print_summary
from logic_agents.study.rows import Row
from logic_agents.study.settings import StudySettings
from logic_agents.study.summary import summarize
from logic_agents.study.traces import Traces
from logic_agents.web.study import REPLAYS
from logic_agents.world.declared import Option
from logic_agents.world.options import integer, positive_int
from logic_agents.world.registry import games, get_game
from logic_agents.world.seat import Elsewhere
from logic_agents.world.seeds import study_key
from logic_agents.world.spec import GameSpec, Generator

PROGRESS_EVERY_S = 0.1  # how often the live bar of a study is drawn


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
                   "(written in FILE_replays/; each game is re-played from its seed with "
                   "explanations on, which takes about as long again as the study)")
    p.add_argument("--replays", choices=["auto", *REPLAYS], default="auto",
                   help="which games of --html get a replay page: all, lost (those not won), "
                   f"none; auto (default): all up to {AUTO_REPLAYS} games, else the lost ones, "
                   "so a large study's report stays small")
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
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )


    spec = _game(args)
    names = agent_names(args, spec)
    entries_of_agents = study_agents(args, spec)
    for entry in entries_of_agents:
        if entry.interactive:
            raise UsageError(f"agent {entry.name} needs a person; compare plays without one")
    if len(set(names)) != len(names):
        raise UsageError("--agents names an agent twice")
    # every output is checked before the first game, not after hours of them
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
    options = given_options(args, entries_of_agents, spec)  # refuses what none declares
    # a secret seed unless one is given: the players cannot rebuild their games from it
    # (a file agent whose module does not read counts: it is a player's, not the referee's)
    args.isolated = any(isinstance(e.factory, Elsewhere) for e in entries_of_agents)
    chosen = seeding.study_seed(args.seed, args.isolated, args.out, args.resume)
    args.seed, args.seed_secret, args.seed_asked = chosen.value, chosen.secret, chosen.asked
    entries = entries_from_references(args.maps, spec, args.group_by)
    err = make_console(stderr=True)
    for note in args.renamed:
        err.print(f"note: {escape(printable(note))}")
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
    wopts = world_options(spec, args)
    total = len(entries) * args.runs * len(names)
    scored = spec.objective == "score"
    labels = [e.name for e in entries_of_agents]  # rows name agents so
    # --only: the study's other agents, as its record names them (their modules not read)
    held = read_study(Path(args.out)) if args.only and Path(args.out).exists() else {}
    everyone = [str(a.get("name")) for a in held.get("agents", [])
                if isinstance(a, dict)] if held else labels
    baseline = baseline_of(args)
    for name in baseline:  # before the first game, not after hours of them
        if name not in everyone:
            raise UsageError(f"--baseline {name}: no agent of the study is named so")
    # per agent: [games, sum of what summarize counts], kept as running totals (a list summed
    # at every row made a 20,000-game study quadratic: 0.06 ms a row by its end)
    tally: dict[str, list[float]] = {label: [0, 0.0] for label in labels}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                  disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=total)

        unshown = [0, 0.0]  # rows not yet on the bar, and when it was last drawn
        failing: set[str] = set()  # agents with a failed game so far
        started = said = time.monotonic()  # when the study began, when a line was last said

        def show() -> None:
            if len(tally) <= LIVE_AGENTS:
                live = "  ".join(
                    f"{a} {total / games:.1f}" if scored else f"{a} {100 * total / games:.1f}%"
                    for a, (games, total) in tally.items() if games)
            else:  # a class: who fails, not 200 win rates
                live = f"{len(failing)} of {len(tally)} agents failing"
            progress.update(task, advance=unshown[0], description=live)
            unshown[0], unshown[1] = 0, time.monotonic()

        def on_row(row: Row) -> None:
            count = tally[row.agent]
            count[0] += 1
            count[1] += (row.score or 0) if scored else row.won  # as summarize counts
            if row.failed:
                failing.add(row.agent)
            unshown[0] += 1
            # the bar is drawn ten times a second: updated at every row, it cost a study of
            # quick games 0.02 ms a game
            if time.monotonic() - unshown[1] >= PROGRESS_EVERY_S:
                show()
            nonlocal said
            if not err.is_terminal and time.monotonic() - said >= PROGRESS_LINE_S:
                said = time.monotonic()  # a log, not a terminal: a line a minute
                done = int(sum(c[0] for c in tally.values()))
                err.print(progress_line(done, total, said - started, len(failing)))

        study_notes: list[str] = []  # what the study says of itself (batch.compare's on_note)
        # the games the pages draw, as they were played (with --out, beside it for report)
        traces = Traces(keep=kept_traces(args, total))
        try:
            settings = StudySettings(
                runs=args.runs, seed=args.seed, seed_secret=args.seed_secret,
                seed_asked=args.seed_asked, jobs=args.jobs,
                game=spec.name, out=args.out, isolation=args.isolation,
                resume=args.resume, retry_errors=args.retry_errors,
                only=tuple(args.only or ()), backend=args.backend,
                address=args.address, agent_options={k: v for k, v in options.items() if v},
                world_options=wopts, caps=caps_of(args), stop_on_broken=args.stop_on_broken)
            rows = batch.compare(names, entries, settings, on_row=on_row,
                                 on_note=study_notes.append, traces=traces)
            show()
        except KeyboardInterrupt:
            stop_listening()  # saying so must not be cut short by a second Ctrl-C
            for note in study_notes:  # what the study did on its way out (shared channels)
                if note not in args.renamed:  # said already, before the study
                    err.print(f"note: {escape(printable(note))}")
            saved = f"; finished games are in {args.out}, continue with --resume" if args.out else ""
            err.print(f"{PROG}: interrupted after {sum(int(c[0]) for c in tally.values())} "
                      f"games{saved}")
            return 130
        progress.update(task, completed=total)
    summary = summarize(rows, everyone, groups=list(dict.fromkeys(e.group for e in entries)),
                        scored=scored, baseline=baseline)
    if args.plot:
        from logic_agents.display.plot import plot_summary

        plot_summary(summary.to_json(), args.plot)
    references = held.get("references") if held else None
    sources = {**(references if isinstance(references, dict) else {}),
               **{e.name: source_of(e, spec) for e in entries_of_agents}}
    if args.grades:
        write_graded(args, grade_rows(summary, rows, sources), err)
    key, caps = study_key(args.seed), caps_of(args)
    again = play_again(sources, spec.name, args.out, entries, caps, key, limit_words(args))
    if args.html:  # with --public, the students under aliases
        shown, shown_summary = public_view(args, spec.name, rows, summary, key,
                                           list(dict.fromkeys(e.group for e in entries)))
        write_html(args, spec, shown_summary, shown, entries, err, traces, again, sources)
    if args.feedback:  # a student's command names the map's file (they have no record)
        theirs = play_again(sources, spec.name, None, entries, caps, key, limit_words(args))
        written, notes = write_feedback(args.feedback, spec.name, summary, rows, sources,
                                        theirs, traces.get,
                                        public_aliases(args, spec.name, summary, key))
        for note in notes:
            err.print(f"note: {escape(printable(note))}")
        err.print(f"feedback: {args.feedback} ({written} folders, one per agent)")
    if args.seed_secret:
        err.print("study seed: drawn at random and kept secret"
                  + (f" (in {args.out}.study.json, for --resume)" if args.out else ""))
    unsandboxed = args.isolation.unsandboxed() if args.isolated else ""
    for note in [unsandboxed, *study_notes]:
        if note and note not in args.renamed:  # a rename was said before the study
            err.print(f"note: {escape(printable(note))}")
    uncounted = args.isolation.memory_words(caps_of(args).memory_cap) if args.isolated else ""
    if uncounted:
        err.print(f"note: {uncounted}")
    # a regrade (--only) answers for the agents it played; the others' rows were said before
    judged = set(labels) if args.only else set(summary.agents)
    failed = sum(st.errors + st.timeouts for a, st in summary.agents.items() if a in judged)
    code = EXIT_AGENT_FAILED if failed else 0
    if failed:
        report_failures([r for r in rows if r.agent in judged], err)
    if args.json:
        print(json.dumps(summary.to_json()))
        return code

    console = make_console()
    print_summary(console, summary, len(entries), args.runs, seed_words(args))
    if args.out:
        console.print(f"rows: {escape(args.out)}")
    if args.plot:
        console.print(f"plot: {escape(args.plot)}")
    return code
