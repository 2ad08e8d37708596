"""The agents of a study, as its command line names them.

Concepts:
- agent_names(args, spec): --agents (its globs expanded), then --submissions; with --only,
  the named ones alone (study.regrade: the others' modules are not read).
- study_agents(args, spec): each under a name of its own, described once per command
  (others' agents where no sandbox is available: stopped before any of their code is read).
"""

from __future__ import annotations

import argparse

from logic_agents.cli.common import agent_entries
from logic_agents.errors import UsageError
from logic_agents.referee.agents import distinct_names, named_reference
from logic_agents.study.submissions import expand_agents, has_glob, submissions
from logic_agents.world.spec import AgentEntry, GameSpec


def agent_names(args: argparse.Namespace, spec: GameSpec) -> list[str]:
    """The agents as the study names them: --agents (its globs expanded), then
    --submissions."""
    students = (submissions(args.submissions, args.submission_class)
                if args.submissions else [])
    if args.agents is None:
        return _only(students or list(spec.playing_agents()), getattr(args, "only", None))
    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not names:
        raise UsageError("--agents names no agent")
    return _only([str(n) for n in expand_agents(names)] + students, getattr(args, "only", None))


def _only(names: list[str], only: list[str] | None) -> list[str]:
    """The agents --only names (by their study name, or as --agents wrote them), or all."""
    if not only:
        return names
    chosen = [n for n in names if n in only or named_reference(n)[0] in only]
    found = {n for c in chosen for n in (c, named_reference(c)[0])}
    missing = [o for o in only if o not in found]
    if missing:
        listed = ", ".join(named_reference(n)[0] or n for n in names[:8])
        raise UsageError(f"--only {missing[0]}: no agent of this command is named so (it "
                         f"names {listed}{' ...' if len(names) > 8 else ''})")
    return chosen


def study_agents(args: argparse.Namespace, spec: GameSpec) -> list[AgentEntry]:
    """The study's agents, each under a name of its own (described once per command)."""
    if getattr(args, "study_agents", None) is None:
        # others' agents where no sandbox is available: stop before any of their code is read
        if args.submissions:
            args.isolation.refuse_unsandboxed(f"--submissions {args.submissions}")
        if args.agents and any(has_glob(a) for a in args.agents.split(",")):
            args.isolation.refuse_unsandboxed("a glob in --agents")
        names = agent_names(args, spec)
        entries, args.renamed = distinct_names(agent_entries(spec, names, args), names)
        args.study_agents = entries
    return list(args.study_agents)
