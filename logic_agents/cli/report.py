"""`logic-agents report`: a study rebuilt from its results file, no game played again.

The summary, the paired tests (--baseline: only those with a baseline agent), the grades and
the study page come from the rows and the study record beside them (study.results.Study.load);
the replay pages, and each student's in --feedback, are drawn from the traces compare kept
beside them (study.traces: the games as they were played, time-outs included).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.markup import escape

from logic_agents.cli.common import VERB_HELP, ParserMaker
from logic_agents.cli.study_outputs import (
    baseline_of,
    check_outputs,
    output_flags,
    page_replays,
    play_again,
    public_view,
    replays_flag,
    report_failures,
    say_notes,
    write_graded,
)
from logic_agents.ground.output import make_console
from logic_agents.study.feedback import write_feedback
from logic_agents.study.grades import integrity_notes
from logic_agents.study.record import recorded_seed
from logic_agents.study.report import print_summary
from logic_agents.study.results import Study
from logic_agents.study.summary import per_map
from logic_agents.study.traces import Traces, traces_path
from logic_agents.web.study import write_study
from logic_agents.world.seeds import study_key


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "report", help=VERB_HELP["report"],
        description="Rebuild a study's summary, grades and page from its results file (the "
        "--out of compare) and the study record beside it, without playing any game. The "
        "games agents failed are said on stderr, one line per agent. Exit code: 0 (2: bad "
        "input); compare's own exit code said whether games failed")
    p.epilog_from = lambda: ("Example: logic-agents report runs.csv --grades grades.csv "
                             "--html class.html --baseline spx,satx. ")
    p.add_argument("results", metavar="RESULTS", help="a results file (.csv or .jsonl) that "
                   "compare --out wrote, with its study record beside it")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--html", metavar="FILE.html", help="write the study page (leaderboard, "
                   "failures by agent, paired tests, maps, games) and its replay pages, drawn "
                   "from the traces compare kept beside RESULTS")
    replays_flag(p, " (of those whose trace compare kept)")
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing --html page or --grades file")
    output_flags(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_outputs(args)
    study = Study.load(args.results, baseline_of(args))
    err = make_console(stderr=True)
    summary = study.summary
    if args.grades:
        write_graded(args, study.grades(), err)
    # the games as compare played them: the pages are drawn, no game is played again
    traces = Traces.read(traces_path(args.results))
    if args.feedback:
        written, notes = write_feedback(args.feedback, study.game, summary, study.rows,
                                        study.sources,
                                        play_again(study.sources, study.game, args.results),
                                        traces.get)
        say_notes(err, notes)
        err.print(f"feedback: {escape(args.feedback)} ({written} folders, one per agent)")
    if args.html:
        title = (f"{study.game}: {len(summary.agents)} agents, "
                 f"{len(study.rows)} games" + ("" if args.public else
                                               f", seed {study.meta.get('seed', '')}"))
        shown, shown_summary = public_view(
            args, study.game, study.rows, summary,
            study_key(recorded_seed(Path(args.results))) if args.public else b"",
            list(dict.fromkeys(r.group for r in study.rows)))
        by_map = per_map(shown, list(shown_summary.agents), shown_summary.scored,
                         list(dict.fromkeys(r.group for r in shown))) if args.public \
            else study.by_map
        replays = "none" if args.public else page_replays(args, len(shown))
        links, notes = write_study(args.html, shown_summary.to_json(), shown, title,
                                   traces.get, None, study.meta,
                                   [m.to_json() for m in by_map], replays, args.public,
                                   play_again(study.sources, study.game, args.results),
                                   integrity_notes(study.grades()))
        say_notes(err, notes)
        err.print(f"study page: {escape(args.html)}" + (" (public)" if args.public else
                                                        f" ({len(links)} replay pages beside it)"))
    if any(st.errors + st.timeouts for st in summary.agents.values()):
        report_failures(study.rows, err)
    if args.json:
        print(json.dumps(summary.to_json()))
        return 0
    runs = max((row.run for row in study.rows), default=-1) + 1
    maps = len({(row.group, row.map) for row in study.rows})
    print_summary(make_console(), summary, maps, runs, study.meta.get("seed", ""))
    return 0

