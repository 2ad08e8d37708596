"""What `compare` and `report` make of a study's rows besides the terminal's table: the
failures said on stderr, the grades, and the study page (private or public).

Concepts:
- report_failures: one line per agent whose games failed, with its first failure's words.
- published(argv) / study_meta(args): the command as a page shows it (--hide paths left out)
  and what a reader needs to make the study again.
- play_again(row, agents): the `play` command that plays a failed game again.
- write_html(...): the study page and its replays, drawn from the study's traces.
- write_outputs(...): everything compare writes once its games are played (--plot,
  --grades, --html, --feedback) and the notes on the seed and the sandbox.
- output_flags(parser): --grades, --baseline, --public, shared by compare and report.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import platform
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from logic_agents._version import __version__
from logic_agents.cli.common import PROG, caps_of, portable_path, refuse_overwrite
from logic_agents.cli.episode import world_fault
from logic_agents.cli.fairplay import limit_words
from logic_agents.display.plot import plot_summary
from logic_agents.errors import UsageError
from logic_agents.ground.inputs import printable
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import DEFAULT_CAPS, Caps
from logic_agents.study.aliases import public_names, read_aliases
from logic_agents.study.entries import MapEntry
from logic_agents.study.feedback import write_feedback
from logic_agents.study.grades import (
    first_failures,
    grade_rows,
    integrity_notes,
    read_roster,
    with_roster,
    write_grades,
)
from logic_agents.study.rows import Row
from logic_agents.study.summary import Summary, per_map, summarize
from logic_agents.study.traces import Traces
from logic_agents.web.study import REPLAYS, write_study
from logic_agents.world.registry import get_game
from logic_agents.world.seeds import agent_seed, study_key
from logic_agents.world.spec import GameSpec

# --replays auto: every game's page up to this many games (a 9,000-game study's pages took
# about 220 MB), else the games not won
AUTO_REPLAYS = 500
TITLE_AGENTS = 6  # agents a page's title names; a class's says how many


def output_flags(p: argparse.ArgumentParser) -> None:
    """The flags of what a study writes besides its rows (compare and report)."""
    p.add_argument("--grades", metavar="FILE.csv",
                   help="write one line per agent, best first: rank, agent, source, games, "
                   "wins, win rate and its 95%% interval, mean steps (or score), errors, "
                   "time-outs and its first failure")
    p.add_argument("--baseline", metavar="A,B", default=None,
                   help="test only the pairs with one of these agents (a class against spx "
                   "and satx), on the terminal, in --json and on the page")
    p.add_argument("--public", action="store_true",
                   help="write the --html page to publish: the leaderboard and counts, "
                   "without the command, hidden paths, seeds, error messages or replays")
    p.add_argument("--roster", metavar="FILE.csv", default=None,
                   help="with --grades: join a class roster's columns (an ID, an e-mail) "
                   "into the grades by its name column (the agents' names), for an LMS import")
    p.add_argument("--aliases", metavar="FILE.csv", default=None,
                   help="with --public: the names the page shows for the students, a CSV "
                   "with the columns name and alias (default: student-XXXXXX, stable for the "
                   "study and derived from its secret)")
    p.add_argument("--real-names", dest="real_names", action="store_true",
                   help="with --public: show the students' own names (their folders' names "
                   "may carry full names and IDs)")
    p.add_argument("--feedback", metavar="DIR", default=None,
                   help="write one folder per agent to hand back: its own page (its rank, "
                   "games, failures at its own lines, the commands that play them again, its "
                   "replays) and a results.json in Gradescope's autograder format")


def public_aliases(args: argparse.Namespace, game: str, summary: Summary, key: bytes
                   ) -> dict[str, str]:
    """Each agent's name on the --public page ({} without one, or with --real-names)."""
    if not args.public or args.real_names:
        return {}
    return public_names(summary.agents, get_game(game).agents, key,
                        getattr(args, "alias_table", None))


def public_view(args: argparse.Namespace, game: str, rows: Sequence[Row], summary: Summary,
                key: bytes, groups: Sequence[str]) -> tuple[list[Row], Summary]:
    """The rows and summary the page shows: with --public, each student under an alias
    (study.aliases), the game's own agents by name; as they are otherwise."""
    names = public_aliases(args, game, summary, key)
    if not names:
        return list(rows), summary
    shown = [dataclasses.replace(r, agent=names[r.agent]) for r in rows]
    baseline = () if summary.chosen else tuple(names[b] for b in summary.baseline)
    return shown, summarize(shown, [names[a] for a in summary.agents], groups=groups,
                            scored=summary.scored, baseline=baseline)


def write_graded(args: argparse.Namespace, grades: Sequence[Record], err: Console) -> None:
    """--grades, with --roster's columns joined; a roster name no agent has is a note."""
    extra: list[str] = []
    if args.roster_table is not None:
        extra, table = args.roster_table
        grades, missing = with_roster(grades, extra, table)
        if missing:
            err.print(f"note: --roster: {len(missing)} name(s) of the roster have no agent in "
                      f"the study: {escape(printable(', '.join(missing[:5])))}"
                      + (" ..." if len(missing) > 5 else ""))
    write_grades(args.grades, grades, extra)
    err.print(f"grades: {escape(args.grades)}")


def baseline_of(args: argparse.Namespace) -> tuple[str, ...]:
    if args.baseline is None:
        return ()
    names = tuple(n.strip() for n in args.baseline.split(",") if n.strip())
    if not names:
        raise UsageError("--baseline names no agent")
    return names


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any game, outputs that cannot be written (--html, --grades)."""
    if args.html and not args.html.endswith((".html", ".htm")):
        raise UsageError(f"--html {args.html}: the page is HTML; name it FILE.html")
    if args.html:
        refuse_overwrite(args.html, args.force, "--html")
    if args.grades and not args.grades.lower().endswith(".csv"):
        raise UsageError(f"--grades {args.grades}: the grades are CSV; name the file FILE.csv")
    if args.grades:
        refuse_overwrite(args.grades, args.force, "--grades")
    if args.public and not args.html:
        raise UsageError("--public is the form of the --html page; give --html FILE.html")
    if (args.aliases or args.real_names) and not args.public:
        raise UsageError(f"{'--aliases' if args.aliases else '--real-names'} names the "
                         "students on the public page; give --public (and --html FILE.html)")
    if args.aliases and args.real_names:
        raise UsageError("--aliases and --real-names: give one (the page shows either)")
    args.alias_table = read_aliases(args.aliases) if args.aliases else None
    if args.roster and not args.grades:
        raise UsageError("--roster joins its columns into the grades; give --grades FILE.csv")
    args.roster_table = read_roster(args.roster) if args.roster else None
    feedback = getattr(args, "feedback", None)
    if feedback and Path(feedback).exists() and not Path(feedback).is_dir():
        raise UsageError(f"--feedback {feedback}: a file is there; it is a folder's name")


def report_failures(rows: list[Row], err: Console) -> None:
    """One line per agent whose games failed: how many, and the first failure's words (the
    first by map, then run, as the grades' first_error says: not the first to end)."""
    first = first_failures(rows)
    count: dict[str, int] = {}
    for row in rows:
        if row.failed:
            count[row.agent] = count.get(row.agent, 0) + 1
    for agent, row in first.items():
        who = (f"the game's own code failed in {count[agent]} of agent "
               f"{escape(printable(agent))}'s game(s)" if world_fault(row.error or "")
               else f"agent {escape(printable(agent))} failed {count[agent]} game(s)")
        err.print(f"{PROG}: {who}; first on {escape(printable(row.map))} run {row.run}: "
                  f"{escape(printable(row.error or row.outcome))}")


def published(argv: list[str]) -> list[str]:
    """The command as a page shows it: what --hide names is a secret's place, left out."""
    shown, hidden_next = [], False
    for word in argv:
        if hidden_next:
            shown.append("PATH")
            hidden_next = False
        elif word == "--hide":
            shown.append(word)
            hidden_next = True
        elif word.startswith("--hide="):
            shown.append("--hide=PATH")
        else:
            shown.append(word)
    return shown


def seed_words(args: argparse.Namespace) -> str:
    """The study's seed as a page or a summary shows it: a secret one is never printed."""
    return "secret" if args.seed_secret else str(args.seed)


def study_meta(args: argparse.Namespace) -> dict[str, str]:
    """What a reader needs to make the study again: the command as typed, the version, the
    seed, and when it ran."""
    return {"command": "logic-agents " + shlex.join(published(args.argv)),
            "version": f"logic-agents {__version__}, Python {platform.python_version()}",
            "seed": seed_words(args), "runs": f"{args.runs} per map and agent",
            **({"fair play": args.isolation.unsandboxed()}
               if args.isolated and args.isolation.unsandboxed() else {}),
            "made": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}


def play_again(sources: dict[str, str], game: str, results: str | None = None,
               maps: Sequence[MapEntry] = (), caps: Caps | None = None,
               agent_key: bytes | None = None, limits: Sequence[str] = ()
               ) -> Callable[[Row], str]:
    """The `play` command that plays a failed game again, as it went in the study.

    With the study's results file (`results`), `play MAP --study RESULTS`: the map (a
    generated board too), the agent's seed and the caps come from its record, so it runs as
    printed for whoever holds that record (the teacher; a student has no record, and no
    secret seed). Without one: the map's file, the caps and the agent's own seed (from
    `agent_key`) are spelled out; "" for a map no file holds (generated, inline). `limits`:
    the study's own player limits (fairplay.limit_words), repeated in either form.
    """
    groups: dict[str, set[str]] = {}
    for entry in maps:
        groups.setdefault(entry.instance.name, set()).add(entry.group)
    files = {(e.group, e.instance.name): e.source for e in maps}

    def command(row: Row) -> str:
        source = sources.get(row.agent, "")
        agent = row.agent if source in ("", "builtin") else source
        if results:
            named = row.map if len(groups.get(row.map, ())) <= 1 else f"{row.group}/{row.map}"
            return shlex.join(["logic-agents", "play", named, "--study", results, "--agent",
                               agent, "--seed", str(row.seed), *limits])
        file = files.get((row.group, row.map), "")
        if maps and not file:
            return ""  # a generated or inline map: only the record keeps it (--out)
        capped = caps or DEFAULT_CAPS
        words = ["logic-agents", "play", portable_path(file) if file else row.map, "--game",
                 game, "--agent", agent, "--seed", str(row.seed)]
        if agent_key is not None:
            words += ["--agent-seed", str(agent_seed(row.seed, agent_key))]
        words += ["--move-timeout", f"{capped.move_timeout or 0:g}", "--game-timeout",
                  f"{capped.game_timeout or 0:g}", "--memory-cap", str(capped.memory_cap or 0),
                  *limits]
        return shlex.join(words)
    return command


def replays_flag(p: argparse.ArgumentParser, which: str = "") -> None:
    """--replays, of compare and report: which games of --html get a replay page."""
    p.add_argument("--replays", choices=["auto", *REPLAYS], default="auto",
                   help=f"which games of --html get a replay page{which}: all, lost (those "
                   f"not won), none; auto (default): all up to {AUTO_REPLAYS} games, else the "
                   "lost ones, so a large study's report stays small")


def page_replays(args: argparse.Namespace, games: int) -> str:
    """Which games of --html get a replay page (web.study.REPLAYS): --replays, its auto being
    every game up to AUTO_REPLAYS, else the lost ones."""
    if args.replays == "auto":
        return "all" if games <= AUTO_REPLAYS else "lost"
    return str(args.replays)


def kept_traces(args: argparse.Namespace, games: int) -> str:
    """Which games a study keeps the trace of (study.traces.KEEP): those --html draws, and
    the lost ones when --feedback hands each student theirs."""
    html = "none" if not args.html or args.public else page_replays(args, games)
    if html == "all":
        return "all"
    return "lost" if html == "lost" or args.feedback else "none"


def write_html(args: argparse.Namespace, spec: GameSpec, summary: Summary, rows: list[Row],
               entries: list[MapEntry], err: Console, traces: Traces,
               again: Callable[[Row], str], sources: Mapping[str, str]) -> None:
    """The study page and its replays, drawn from the study's own traces."""
    from rich.progress import Progress

    who = (", ".join(summary.agents) if len(summary.agents) <= TITLE_AGENTS
           else f"{len(summary.agents)} agents")
    title = (f"{spec.name}: {who} on {len(entries)} maps x {args.runs} runs"
             + ("" if args.public else f", seed {seed_words(args)}"))
    replays = "none" if args.public else page_replays(args, len(rows))
    with Progress(console=err, disable=not err.is_terminal) as progress:
        task = progress.add_task("replay pages", total=len(rows))
        links, notes = write_study(args.html, summary.to_json(), rows, title, traces.get,
                                   lambda done, total: progress.update(task, completed=done),
                                   study_meta(args),
                                   [m.to_json() for m in per_map(
                                       rows, list(summary.agents), summary.scored,
                                       list(dict.fromkeys(e.group for e in entries)))],
                                   replays, args.public, again,
                                   integrity_notes(grade_rows(summary, rows, sources)))
    say_notes(err, notes)
    which = {"all": "", "lost": ": the games not won; --replays all writes every game's",
             "none": ": --public" if args.public else ": --replays none"}[replays]
    err.print(f"study page: {args.html} ({len(links)} replay pages beside it{which})")


def say_notes(err: Console, notes: Sequence[str], said: Sequence[str] = ()) -> None:
    """Each note on stderr as `note: ...`, its text escaped (a student's name or words never
    drive the terminal); those in `said` (told before the study) are not said again."""
    for note in notes:
        if note and note not in said:
            err.print(f"note: {escape(printable(note))}")


def write_outputs(args: argparse.Namespace, spec: GameSpec, summary: Summary, rows: list[Row],
                  entries: list[MapEntry], sources: Mapping[str, str], traces: Traces,
                  err: Console) -> None:
    """What a study writes once its games are played, each from its rows and traces alone:
    --plot, --grades, --html (its replays drawn, its commands with the record) and
    --feedback (a student's command names the map's file: they have no record)."""
    if args.plot:
        plot_summary(summary.to_json(), args.plot)  # matplotlib is read there, when asked
    if args.grades:
        write_graded(args, grade_rows(summary, rows, sources), err)
    key, caps, limits = study_key(args.seed), caps_of(args), limit_words(args)
    if args.html:  # with --public, the students under aliases
        shown, shown_summary = public_view(args, spec.name, rows, summary, key,
                                           list(dict.fromkeys(e.group for e in entries)))
        write_html(args, spec, shown_summary, shown, entries, err, traces,
                   play_again(dict(sources), spec.name, args.out, entries, caps, key, limits),
                   sources)
    if args.feedback:
        written, notes = write_feedback(
            args.feedback, spec.name, summary, rows, sources,
            play_again(dict(sources), spec.name, None, entries, caps, key, limits), traces.get,
            public_aliases(args, spec.name, summary, key))
        say_notes(err, notes)
        err.print(f"feedback: {args.feedback} ({written} folders, one per agent)")
    if args.seed_secret:
        err.print("study seed: drawn at random and kept secret"
                  + (f" (in {args.out}.study.json, for --resume)" if args.out else ""))
    if args.isolated:
        say_notes(err, [args.isolation.unsandboxed(),
                        args.isolation.memory_words(caps.memory_cap)])
