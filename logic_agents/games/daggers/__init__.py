"""Daggers and Gold: board, world, encode, agents, render; registered as game "daggers".

Agents: the 2018 report's rpx, spx and satx (agents.py), and prob (prob.py), which plays
the cells satx would prove (found from the exact odds) and guesses by exact dagger probability
(odds.py).

What an agent reads in an observation's grid: COVERED ("?"), FLAGGED ("F", a flag it
placed), HIT ("X", a dagger it probed, which cost a life), a clue "0"-"8" (daggers among the
neighbours) or GOLD ("g", found gold, a clue of 0); exported here for agents to compare with.
"""

from logic_agents.errors import LogicAgentsError
from logic_agents.games.daggers import agents as _report_agents
from logic_agents.games.daggers.agents import SatAgent
from logic_agents.games.daggers.board import GOLD, DaggersMap, format_map, load, parse
from logic_agents.games.daggers.clues import single_point_moves
from logic_agents.games.daggers.generate import GENERATOR
from logic_agents.games.daggers.knowledge import DaggersKB
from logic_agents.games.daggers.prob import ProbAgent
from logic_agents.games.daggers.render import VIEW, styled
from logic_agents.games.daggers.world import (
    COVERED,
    FLAGGED,
    HIT,
    DaggersAction,
    DaggersObservation,
    DaggersWorld,
    flag,
    observation_from,
    probe,
)
from logic_agents.ground.shapes import Record
from logic_agents.world import spec
from logic_agents.world.core import EpisodeResult
from logic_agents.world.resolve import shipped_maps
from logic_agents.world.values import Proofs

AGENTS = {**_report_agents.AGENTS, "prob": ProbAgent}
AGENT_HELP = {**_report_agents.AGENT_HELP,
              "prob": "satx's certain cells (read off the exact odds), then the guess with "
                      "the best exact odds (--explain prints the candidates and SAT's proofs)"}


def sniff(text: str, file: str = "<input>") -> int:
    """2 for a map that says it is one (a `lives:` or `gold:` header, or a dagger or gold
    token), 1 for one that merely parses, else 0."""
    heads = {line.split(":", 1)[0].strip().lower() for line in text.splitlines() if ":" in line}
    if heads & {"lives", "gold"}:
        return 2  # it says so, even if its board is broken: that error is the one to show
    try:
        parse(text, file)
    except LogicAgentsError:
        return 0
    tokens = {t for line in text.splitlines() if not line.lstrip().startswith("#")
              for t in line.split()}
    return 2 if heads & {"lives", "gold"} or tokens & {"d", "g", "D", "G"} else 1


def facts(instance: DaggersMap) -> Record:
    return {"size": f"{instance.height}x{instance.width}", "daggers": instance.total_daggers,
            "lives": instance.lives}


def summary_line(result: EpisodeResult) -> str:
    """What `play` says after the outcome: steps, guesses and lives left."""
    return (f"{result.steps} steps, {result.guesses} guesses, "
            f"{result.extra.get('lives_left')} lives left")


def illegal_actions(obs: DaggersObservation) -> list[DaggersAction]:
    """Actions the rules forbid in `obs` (for check_world)."""
    out = [probe(-1, 0), probe(0, obs.width), flag(obs.height, 0)]
    shown = [c for c in obs.cells() if obs.clue(c) is not None]
    if shown:
        out += [probe(*shown[0]), flag(*shown[0]), DaggersAction("unflag", shown[0])]
    return out


SAMPLE = "name: example\n0 1 d .\n1 2 . .\nd . . .\n. . . d\n"
LEGEND = ("variables D_r<row>c<col> (0-based): the cell holds a dagger; _aux_N: auxiliary "
          "(Tseitin or counter)",
          "SEL_n: selector of a formula that held for one test only (SEL_n >> formula); the "
          "last unit clauses assume this test's selectors")

SPEC = spec.GameSpec(
    name="daggers",
    description="Daggers and Gold (2018 AI course): Minesweeper with gold and lives",
    make_world=DaggersWorld, agents=spec.agents_from(AGENTS, AGENT_HELP), render=styled,
    instances=spec.Instances(read=lambda path: [load(path)], parse=parse, format=format_map,
                             sample=lambda: parse(SAMPLE), facts=facts),
    actions=spec.Actions(from_json=DaggersAction.from_json, illegal=illegal_actions),
    default_agent="satx", example="EASY1",
    capabilities=(VIEW, GENERATOR, spec.Lives(), spec.Results(words=summary_line),
                  spec.Shipped(shipped_maps("logic_agents", "maps", "daggers")),
                  spec.Detection(lambda text, file: 0 if file is None else sniff(text, file)),
                  spec.CnfLegend(LEGEND),
                  spec.Observations(DaggersObservation.to_json, observation_from),
                  Proofs(DaggersKB, lambda checker: DaggersKB(certify=checker))),
)

__all__ = [
    "AGENTS",
    "COVERED",
    "FLAGGED",
    "GOLD",
    "HIT",
    "DaggersAction",
    "DaggersMap",
    "DaggersObservation",
    "DaggersWorld",
    "ProbAgent",
    "SatAgent",
    "flag",
    "format_map",
    "load",
    "parse",
    "probe",
    "single_point_moves",
]
