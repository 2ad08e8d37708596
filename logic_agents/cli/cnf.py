"""`logic-agents cnf`: a knowledge base as DIMACS with named variables.

A static puzzle writes its whole encoding (its Puzzle capability's `encode`); a game played by
an agent that reasons with SAT writes the question the agent asked at its K-th test (the
logic.query.Query its `on_query` hook receives).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from logic_agents._version import __version__
from logic_agents.cli.common import (
    VERB_HELP,
    ParserMaker,
    agent_entries,
    agents_epilog,
    declared_flags,
    episode_flags,
    game_of,
    given_options,
    load_one,
    portable_path,
    refuse_overwrite,
    world_options,
)
from logic_agents.errors import ContractError, UsageError
from logic_agents.ground.shapes import Record
from logic_agents.logic.certify import prove_literals
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.query import Query
from logic_agents.world.agents import build_agent
from logic_agents.world.calls import PassThrough
from logic_agents.world.declared import Option, accepts
from logic_agents.world.options import integer
from logic_agents.world.runner import run_episode
from logic_agents.world.spec import CnfLegend, GameSpec, Puzzle
from logic_agents.world.values import Instance

MAX_KB_COMMENTS = 200


class _Captured(PassThrough):
    """Raised from the query hook to stop the episode once the wanted query is captured."""


def add_parser(sub: ParserMaker) -> None:
    p = sub.add_parser(
        "cnf", help=VERB_HELP["cnf"],
        description="Write a puzzle's whole encoding, or play an agent that "
        "reasons with SAT until its K-th satisfiability test and write the "
        "question it asked then, with named-variable comments.")
    p.epilog_from = agents_epilog
    episode_flags(p)
    p.add_argument("--query", type=integer, default=1, metavar="K",
                   help="which satisfiability test, counting from 1 (default: 1)")
    p.add_argument("-o", "--output", metavar="FILE.cnf", help="output file (default: stdout)")
    p.add_argument("--proof", metavar="FILE.drat", help="also write a DRAT proof (CaDiCaL "
                   "1.9.5's) that the question's clauses imply each literal it proved, one "
                   "unit clause each at the end; `inspect FILE.cnf --check-proof FILE.drat` "
                   "checks it")
    p.add_argument("--force", action="store_true", help="overwrite an existing -o file")
    p.add_argument("--json", action="store_true", help="print one JSON object describing the file")
    p.set_defaults(run=run, game_options=game_options)


def game_options(args: argparse.Namespace) -> list[tuple[str, Option]]:
    spec = game_of(args, [args.map])
    if spec.get(Puzzle) is not None and args.agent is None:
        return []
    args.agent = args.agent or _query_agent(spec)
    return declared_flags(agent_entries(spec, [args.agent], args), spec)


def _query_agent(spec: GameSpec) -> str:
    agents = spec.query_agents()
    if spec.default_agent in agents:
        return spec.default_agent
    if not agents:
        raise UsageError(
            f"{spec.name} has no Puzzle capability and none of its agents ({', '.join(spec.agents)}) "
            "takes an on_query hook, so cnf has nothing to write: give the SPEC a Puzzle(..., "
            "encode=...), or give a SAT agent's __init__ an on_query keyword and pass each "
            "question to it (docs/write-a-game.md, `cnf`)")
    return agents[0]


def run(args: argparse.Namespace) -> int:
    spec = game_of(args, [args.map])
    if args.output not in (None, "-"):
        refuse_overwrite(args.output, args.force, "-o")
    if args.proof:
        refuse_overwrite(args.proof, args.force, "--proof")
    map_path, instance = load_one(args.map, spec)
    head = [f"logic-agents {__version__} cnf", f"game {spec.name}"]
    if spec.get(Puzzle) is not None and args.agent is None:
        if args.proof:
            raise UsageError("--proof writes the proof of what an agent's question proved; a "
                             "puzzle's whole encoding proves nothing by itself (its "
                             "uniqueness: `solve --unique --certify`)")
        kb = spec.need(Puzzle, "cnf").encode(instance)
        if not isinstance(kb, KnowledgeBase):
            raise ContractError(f"{spec.name}: Puzzle.encode gave {type(kb).__name__}, not a "
                                "KnowledgeBase (logic_agents.logic)")
        comments = head + [f"puzzle {instance.name} ({portable_path(map_path)})",
                           *legend_of(spec)]
        comments += kb_comments([str(f) for f, _, _ in kb.told], [(s, e) for _, s, e in kb.told])
        return _write(args, kb.to_dimacs(comments), {
            "file": args.output, "map": instance.name, "variables": kb.num_vars,
            "clauses": len(kb.clauses), "named": len(kb.names())})
    args.agent = args.agent or _query_agent(spec)
    return _write_query(args, spec, instance, map_path, head)


def _write_query(args: argparse.Namespace, spec: GameSpec, instance: Instance, map_path: str,
                 head: list[str]) -> int:
    if args.query < 1:
        raise UsageError("--query counts from 1")
    (entry,) = agent_entries(spec, [args.agent], args)
    if not accepts(entry.factory, "on_query"):
        raise UsageError(f"agent {entry.name} asks no SAT solver (it has no on_query hook); "
                         f"use {', '.join(spec.query_agents()) or 'a SAT agent'}")
    asked: list[Query] = []  # every test the agent made, up to the one asked for

    def on_query(query: Query) -> None:
        asked.append(query)
        if query.index == args.query:
            raise _Captured

    options = given_options(args, [entry], spec)[entry.name]
    agent = build_agent(entry, {**options, "on_query": on_query})
    world = spec.make_world(instance, **world_options(spec, args))
    with contextlib.suppress(_Captured):
        run_episode(world, agent, args.seed, game=spec.name, map_name=instance.name)
    if not asked or asked[-1].index != args.query:
        raise UsageError(f"{entry.name} made only {len(asked)} satisfiability test(s) on "
                         f"{instance.name} with seed {args.seed}; ask for --query "
                         f"{max(len(asked), 1)} or another --seed")
    query = asked[-1]
    settings = query.settings()
    comments = head + [f"map {instance.name} ({portable_path(map_path)})",
                       f"agent {entry.name}" + (f" {settings}" if settings else ""),
                       f"seed {args.seed} query {query.index} step {query.step}"]
    comments += query.legend() or legend_of(spec)
    comments += kb_comments(query.formulas(), query.spans())
    if args.proof:
        _write_proof(args, query)
    return _write(args, query.to_dimacs(comments), {
        "file": args.output, "map": instance.name, "agent": entry.name, "seed": args.seed,
        "query": query.index, "step": query.step, "variables": query.num_vars,
        "clauses": query.num_clauses + len(query.assumptions), "named": len(query.names())})


def _write_proof(args: argparse.Namespace, query: Query) -> None:
    """The DRAT proof that the question's clauses imply each literal it proved."""
    proved = query.proved()
    if not proved:
        raise UsageError(f"query {query.index} proved nothing (every cell it asked about "
                         "can go either way): no proof to write; ask for another --query")
    lines = prove_literals(query.clauses() + [[a] for a in query.assumptions], proved)
    try:
        Path(args.proof).write_text("".join(line + "\n" for line in lines))
    except OSError as e:
        raise UsageError(f"cannot write {args.proof}: {e.strerror}") from None
    if not args.json:
        names = query.names()
        shown = ", ".join(f"{'~' if lit < 0 else ''}{names.get(abs(lit), abs(lit))}"
                          for lit in proved[:6]) + (" ..." if len(proved) > 6 else "")
        print(f"wrote {args.proof}: {len(lines) - len(proved) - 1} lemmas, then the "
              f"{len(proved)} literal(s) proved ({shown})", file=sys.stderr)


def kb_comments(formulas: list[str], spans: list[tuple[int, int]]) -> list[str]:
    """`c kb` lines (the first MAX_KB_COMMENTS formulas), then one `c kb-spans` line with the
    clause range of each, which `inspect --why` reads to say which formulas force a value."""
    shown = formulas[:MAX_KB_COMMENTS]
    out = [f"kb {f}" for f in shown]
    if len(formulas) > MAX_KB_COMMENTS:
        out.append(f"kb ... {len(formulas) - MAX_KB_COMMENTS} more formulas")
    if spans and len(spans) >= len(shown) and shown:
        out.append("kb-spans " + " ".join(f"{s}-{e}" for s, e in spans[: len(shown)]))
    return out


def _write(args: argparse.Namespace, text: str, summary: Record) -> int:
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


def legend_of(spec: GameSpec) -> list[str]:
    """The comment lines that explain the game's variable names (its CnfLegend)."""
    legend = spec.get(CnfLegend)
    return list(legend.lines) if legend is not None else []
