"""Ooze: the timed pipe-laying game (RULES.md §4), registered with the shared world.

Concepts: `ooze` is the built-in instance (no map file); `--pieces SEQ` fixes the first pieces
(a world option, so traces replay). Agents: greedy, rbfs (the course report's), sat (the
planner on one incremental SAT oracle).
"""

from __future__ import annotations

from collections.abc import Iterator

from logic_agents.errors import FormatError
from logic_agents.games.ooze.agents import GreedyOozeAgent
from logic_agents.games.ooze.planner import SatOozeAgent
from logic_agents.games.ooze.rbfs import RbfsOozeAgent
from logic_agents.games.ooze.view import VIEW
from logic_agents.games.ooze.world import (
    OozeAction,
    OozeInstance,
    OozeObservation,
    OozeWorld,
    load_instance,
    parse_pieces,
    render,
)
from logic_agents.ground.inputs import ascii_int
from logic_agents.ground.shapes import Record
from logic_agents.world import spec
from logic_agents.world.declared import Option
from logic_agents.world.options import positive_int

AGENTS = {"greedy": GreedyOozeAgent, "rbfs": RbfsOozeAgent, "sat": SatOozeAgent}


def make_world(instance: OozeInstance, *, pieces: str | None = None,
               max_ticks: int | None = None) -> OozeWorld:
    return OozeWorld(pieces=parse_pieces(pieces) if pieces is not None else instance.pieces,
                     max_ticks=max_ticks if max_ticks is not None else instance.max_ticks)


def format_instance(instance: OozeInstance) -> str:
    """`ooze`, or `ooze pieces=SEQ max_ticks=N` for an instance with fixed pieces or a cap."""
    out = ["ooze"]
    if instance.pieces:
        out.append(f"pieces={instance.pieces}")
    if instance.max_ticks is not None:
        out.append(f"max_ticks={instance.max_ticks}")
    return " ".join(out)


def parse_instance(text: str, source: str = "<instance>") -> OozeInstance:
    words = text.split()
    if not words or words[0] != "ooze":
        raise FormatError("an ooze instance is written 'ooze [pieces=SEQ] [max_ticks=N]'",
                          source, 1, 1)
    fields = dict(w.partition("=")[::2] for w in words[1:])
    if set(fields) - {"pieces", "max_ticks"}:
        raise FormatError(f"unknown ooze field in {text[:60]!r}", source, 1, 1)
    ticks = fields.get("max_ticks")
    return OozeInstance(pieces=parse_pieces(fields.get("pieces", ""), source),
                        max_ticks=None if ticks is None else ascii_int(ticks, "max_ticks", source,
                                                                       1, 1, low=1))


def illegal_actions(obs: OozeObservation) -> Iterator[object]:
    # the rules turn every well-formed but refused action into a wait; only what is not an
    # OozeAction at all is illegal
    yield "place 3 2"
    yield ("place", (3, 2))


AGENT_HELP = {
    "greedy": "place the current piece at the pipe's open end if it fits, else park it far "
              "away; never destroy",
    "rbfs": "the course report's agent: a utility over main and sub-pipes, best and "
            "second-best placements 5 pieces deep, destroys a blocking piece",
    "sat": "the planner: routes of --horizon tiles and placements of the visible queue on one "
           "incremental SAT oracle; maximises the guaranteed extension, then the pieces on the "
           "route"}

def _observation(obs: OozeObservation) -> Record:
    return {"board": [[list(cell), glyph] for cell, glyph in obs.board],
            "filled": [[list(cell), list(channels)] for cell, channels in obs.filled],
            "queue": obs.queue, "clock": obs.clock, "score": obs.score, "tiles": obs.tiles,
            "head": list(obs.head), "heading": list(obs.heading), "next_flow": obs.next_flow}


def _observation_from(record: Record) -> OozeObservation:
    def cell(value: list[int]) -> tuple[int, int]:
        return int(value[0]), int(value[1])

    return OozeObservation(tuple((cell(c), str(g)) for c, g in record["board"]),
                           tuple((cell(c), tuple(int(k) for k in ks))
                                 for c, ks in record["filled"]),
                           str(record["queue"]), int(record["clock"]), int(record["score"]),
                           int(record["tiles"]), cell(record["head"]), cell(record["heading"]),
                           int(record["next_flow"]))


SPEC = spec.GameSpec(
    name="ooze", description="Ooze: lay pipe from a queue of pieces ahead of the flowing ooze",
    make_world=make_world, agents=spec.agents_from(AGENTS, AGENT_HELP), render=render,
    instances=spec.Instances(read=lambda path: [load_instance(path)], parse=parse_instance,
                             format=format_instance, sample=lambda: OozeInstance(max_ticks=200)),
    actions=spec.Actions(from_json=OozeAction.from_json, illegal=illegal_actions),
    default_agent="sat", example="ooze", objective="score",
    options=(Option("pieces", str, None, "the first pieces, as glyphs from |-+qecz (then "
                         "the seeded RNG)", metavar="SEQ"),
             Option("max_ticks", int, None, "end the game after N ticks", metavar="N",
                         parse=positive_int)),
    capabilities=(VIEW, spec.Inline(lambda text, source: [load_instance(text)]),
                  spec.Detection(lambda text, file: 2 if file is None and text == "ooze" else 0),
                  spec.Results(words=lambda r: (f"score {r.extra.get('score')}, "
                                                f"{r.extra.get('tiles')} tiles, "
                                                f"{r.extra.get('ticks')} ticks"),
                               keys=("score", "ticks", "tiles", "pieces", "actions")),
                  spec.Observations(_observation, _observation_from)),
)

__all__ = ["AGENTS", "GreedyOozeAgent", "RbfsOozeAgent", "SatOozeAgent", "OozeAction",
           "OozeInstance", "OozeWorld", "SPEC"]
