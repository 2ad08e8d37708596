"""`logic-agents view`: a self-contained HTML page to watch a game step by step.

From a trace (`view TRACE.jsonl -o game.html`) or from a game it plays first (`view MAP
--agent satx -o game.html`, with the agent's explanations on). The page holds its data and
script inline and makes no network request, so it can be mailed or attached to a report.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from logic_agents.cli.common import (
    VERB_HELP,
    ParserMaker,
    caps_flags,
    caps_of,
    episode_flags,
    examples,
    portable_path,
    refuse_overwrite,
)
from logic_agents.cli.episode import EXIT_AGENT_FAILED, failed_result, print_result, report_agent_failure
from logic_agents.cli.fairplay import isolation_flags
from logic_agents.cli.play import game_options as play_options
from logic_agents.cli.play import prepare
from logic_agents.errors import AgentFailed, LogicAgentsError, TraceMismatch, UsageError
from logic_agents.ground.inputs import printable
from logic_agents.ground.output import make_console
from logic_agents.referee.clock import Clock
from logic_agents.referee.pool import run_child
from logic_agents.web import episode_data, game_page, record_episode
from logic_agents.world.agents import build_agent, explaining
from logic_agents.world.core import EpisodeResult
from logic_agents.world.declared import Option
from logic_agents.world.guard import plugin_code


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "view", help=VERB_HELP["view"],
        description="Write one self-contained HTML page (no network) that "
        "steps through a game: the board per step, the last move, the why of "
        "each proven move with the cells of its proof, a guess's odds, the "
        "counters. Keys: left/right, Home/End, space plays; #step=K opens step K.")
    p.epilog_from = lambda: (examples("view", "{example} --agent {agent} -o game.html")
                             + "From a trace: logic-agents play MAP --trace t.jsonl; "
                             "logic-agents view t.jsonl -o game.html.")
    episode_flags(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.html", help="the page to write")
    p.add_argument("--force", action="store_true", help="overwrite an existing page")
    p.add_argument("--json", action="store_true", help="print one JSON object: the page written, "
                   "its game, map, agent, seed, steps, outcome and size in bytes")
    caps_flags(p)
    isolation_flags(p)
    p.set_defaults(run=run, game_options=game_options)


def is_trace(reference: str) -> bool:
    """A file that starts with a trace's `begin` record."""
    path = Path(reference)
    try:
        with path.open("rb") as f:
            head = f.read(64).lstrip()
    except OSError:
        return False
    return head.startswith(b"{") and b'"type":"begin"' in head.replace(b" ", b"")


def game_options(args: argparse.Namespace) -> list[tuple[str, Option]]:
    return [] if is_trace(args.map) else play_options(args)


def run(args: argparse.Namespace) -> int:
    if not args.output.endswith((".html", ".htm")):
        raise UsageError(f"-o {args.output}: the page is HTML; name it FILE.html")
    refuse_overwrite(args.output, args.force, "-o")
    failure = None
    if is_trace(args.map):
        if args.agent:
            raise UsageError("--agent plays a map; a trace already holds its agent's moves")
        data = episode_data(args.map)
    else:
        game = prepare(args)
        spec, map_path, instance, entry = game.spec, game.map_path, game.instance, game.entry
        options, wopts = game.options, game.world_options
        if entry.interactive:
            raise UsageError(f"--agent {entry.name} needs a person; play it with `play`, "
                             "--trace FILE, then view FILE")
        def recorded(clock: Clock) -> tuple[EpisodeResult, str | None]:
            """The game with its trace, in a child (a stuck agent can be stopped there, and
            Ctrl-C never lands inside its solver): (result, trace text or None)."""
            try:
                agent = build_agent(entry, explaining(entry, options), clock)  # whys shown
            except AgentFailed as e:
                return failed_result(spec, instance, entry.name, args.seed, e), None
            try:
                world = clock.world(lambda: spec.make_world(instance, **wopts))
            except AgentFailed as e:  # the game's own code failed: said as compare says it
                return failed_result(spec, instance, entry.name, args.seed, e), None
            return record_episode(spec, world, agent, args.seed, instance,
                                  portable_path(map_path), wopts, clock)

        outcome, lost = run_child(recorded, caps_of(args), quiet_stdout=True)
        if lost is not None:
            lost.agent = entry.name
            outcome = failed_result(spec, instance, entry.name, args.seed, lost), None
        result, text = outcome
        if text is None:  # no game to show: the agent failed before it, or was killed
            return print_result(args, spec, result, {}, make_console(), False)
        try:
            with plugin_code(f"{spec.name}'s own code, drawing the game",
                             passes=(LogicAgentsError,)):
                data = episode_data(args.output, text=text)
        except TraceMismatch as e:
            raise TraceMismatch(f"{spec.name}'s world does not replay the game it just played "
                                f"({e}); is it deterministic? `logic-agents games --check "
                                f"{spec.name}` says") from None
        failure = result  # an agent that failed: the page shows the game up to its failure
    with plugin_code("drawing the page", passes=(LogicAgentsError,)):
        page = game_page(data)
    Path(args.output).write_text(page, encoding="utf-8")
    if args.json:
        print(json.dumps({"file": args.output, "game": data["game"], "map": data["map"],
                          "agent": data["agent"], "seed": data["seed"],
                          "steps": len(data["frames"]) - 1, "outcome": data["outcome"],
                          "bytes": len(page.encode("utf-8"))}))
    else:
        print(printable(f"wrote {args.output}: {data['game']} {data['map']}, agent "
                        f"{data['agent']}, {len(data['frames']) - 1} steps, {data['outcome']} "
                        f"({len(page) // 1024} KiB)"))
    return EXIT_AGENT_FAILED if failure is not None and report_agent_failure(failure) else 0
