"""Lights Out as tiles and keys (world.view): lit and dark cells; space presses."""

from __future__ import annotations

from lights_game.board import ON
from lights_game.world import LightsAction, LightsObservation, press
from logic_agents.world import view

PALETTE = {"on": ("#ffd43b", "#7a4d00"), "off": ("#343a40", "#adb5bd")}


def board_view(obs: LightsObservation) -> view.BoardView:
    tiles = tuple(view.Tile("●" if ch == ON else "", "on" if ch == ON else "off")
                  for row in obs.lights for ch in row)
    lit = sum(row.count(ON) for row in obs.lights)
    return view.BoardView(obs.puzzle.height, obs.puzzle.width, tiles, PALETTE,
                          counters=(("on", lit), ("presses", obs.step)))


def act_at(obs: LightsObservation, cell: view.Cell, key: str) -> LightsAction | None:
    return press(*cell) if key == "primary" else None


RULES = ("Turn every light off. Pressing a cell toggles it and its four neighbours (up, "
         "down, left, right).")

VIEW = view.View(glyphs="●", board=board_view, cells_of=lambda action: (action.cell,),
                 controls=view.Controls(act_at, primary="press", secondary="", rules=RULES))
