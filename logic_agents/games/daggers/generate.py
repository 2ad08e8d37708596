"""Random maps of the sweeper family, and the published presets.

Concepts:
- Preset: size, daggers, gold, topology, start hints and lives of a named variant
  (cs5011-*, nettle-*, tornado-*, beginner/intermediate/expert, beginner-8x8).
- start_hints: the cells probed on reset: the [0,0] corner, plus the centre for Tornado.
- generate_map: one random map. Every hint opens an area: no dagger on a hint or next to it
  (with opening=False only the hint itself is kept clear: the "safe start" of classic
  Minesweeper). Gold goes on cells with no dagger around them, as the rules require.
- generate_maps: `count` maps from one seed; same seed, same maps; `start` moves the first
  hint (such as (3,3), the "modern" opening of published solver records).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from logic_agents.errors import GenerationError, UnknownName
from logic_agents.games.daggers.board import DAGGER, GOLD, TOPOLOGIES, Cell, DaggersMap, neighbours


@dataclass(frozen=True)
class Preset:
    name: str
    height: int
    width: int
    daggers: int
    gold: int = 0
    topology: str = "square"
    centre_hint: bool = False
    lives: int = 1
    about: str = ""


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("cs5011-easy", 5, 5, 4, gold=1, about="Daggers and Gold 2018, EASY size"),
        Preset("cs5011-medium", 8, 8, 10, gold=4, about="Daggers and Gold 2018, MEDIUM size"),
        Preset("cs5011-hard", 12, 12, 25, gold=3, about="Daggers and Gold 2018, HARD size"),
        Preset("nettle-easy", 5, 5, 5, about="Nettle Sweeper 2017, no gold"),
        Preset("nettle-medium", 9, 9, 10, about="Nettle Sweeper 2017, no gold"),
        Preset("nettle-hard", 10, 10, 20, about="Nettle Sweeper 2017, no gold"),
        Preset("tornado-small", 5, 5, 5, topology="hex", centre_hint=True,
               about="Tornado Sweeper, hex, hints [0,0] and the centre"),
        Preset("tornado-medium", 7, 7, 10, topology="hex", centre_hint=True,
               about="Tornado Sweeper, hex, hints [0,0] and the centre"),
        Preset("tornado-large", 11, 11, 28, topology="hex", centre_hint=True,
               about="Tornado Sweeper, hex, hints [0,0] and the centre"),
        Preset("beginner", 9, 9, 10, about="classic Minesweeper"),
        Preset("beginner-8x8", 8, 8, 10, about="classic Minesweeper's beginner board before "
               "Windows 2000 (Tu et al.'s beginner)"),
        Preset("intermediate", 16, 16, 40, about="classic Minesweeper"),
        Preset("expert", 16, 30, 99, about="classic Minesweeper, 30 wide x 16 high"),
    )
}


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownName(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None


def start_hints(height: int, width: int, centre: bool) -> tuple[Cell, ...]:
    hints: tuple[Cell, ...] = ((0, 0),)
    if centre and (height // 2, width // 2) != (0, 0):
        hints += ((height // 2, width // 2),)
    return hints


def generate_map(
    rng: random.Random,
    *,
    height: int,
    width: int,
    daggers: int,
    gold: int = 0,
    topology: str = "square",
    starts: tuple[Cell, ...] = ((0, 0),),
    lives: int = 1,
    opening: bool = True,
    name: str = "generated",
    preset: str = "",
    comments: tuple[str, ...] = (),
    attempts: int = 200,
) -> DaggersMap:
    """One random map whose start hints open an area (or, with opening=False, are merely
    safe); GenerationError if impossible."""
    if height < 1 or width < 1:
        raise GenerationError(f"a board needs at least one row and column, got {height}x{width}")
    if daggers < 0 or gold < 0:
        raise GenerationError("daggers and gold must not be negative")
    if topology not in TOPOLOGIES:
        raise UnknownName(f"unknown topology {topology!r}; choose one of {', '.join(TOPOLOGIES)}")
    table = neighbours(height, width, topology)
    protected = set(starts)
    if opening:
        for hint in starts:
            protected.update(table[hint])
    free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in protected]
    if daggers > len(free):
        raise GenerationError(
            f"{daggers} daggers do not fit: {len(free)} cells of the {height}x{width} board lie "
            f"away from the start hints"
        )
    for _ in range(attempts):
        placed = set(rng.sample(free, daggers))
        calm = [cell for cell in table
                if cell not in placed and cell not in starts
                and not any(n in placed for n in table[cell])]
        if len(calm) < gold:
            continue
        golds = set(rng.sample(calm, gold))
        tokens = tuple(
            tuple(
                DAGGER if (r, c) in placed
                else GOLD if (r, c) in golds
                else str(sum(n in placed for n in table[(r, c)]))
                for c in range(width)
            )
            for r in range(height)
        )
        return DaggersMap(name=name, tokens=tokens, lives=lives, starts=tuple(starts),
                          topology=topology, preset=preset, comments=comments)
    raise GenerationError(f"found no placement with {gold} gold clear of daggers in {attempts} tries")


def generate_maps(preset: Preset, count: int, seed: int,
                  start: Cell | None = None, opening: bool = True) -> list[DaggersMap]:
    """`count` maps of a preset from one seed (map i is the i-th draw of Random(seed)).

    `start` moves the first start hint from the [0,0] corner (the records of modern
    Minesweeper solvers open at (3,3), for instance); GenerationError if it is off the board.
    `opening=False` keeps only the start cells clear, not their neighbours: the first probe is
    safe but may show a number (the "classic" rule of JSMinesweeper's 40.7% expert figure)."""
    rng = random.Random(seed)
    starts = start_hints(preset.height, preset.width, preset.centre_hint)
    if start is not None:
        if not (0 <= start[0] < preset.height and 0 <= start[1] < preset.width):
            raise GenerationError(f"start {start[0]},{start[1]} is off the "
                                  f"{preset.height}x{preset.width} board")
        starts = (start,) + tuple(h for h in starts[1:] if h != start)
    return [
        generate_map(
            rng, height=preset.height, width=preset.width, daggers=preset.daggers,
            gold=preset.gold, topology=preset.topology, starts=starts, lives=preset.lives,
            opening=opening, name=f"{preset.name}-s{seed}-{i:04d}", preset=preset.name,
            comments=(f"generated by logic-agents: preset {preset.name}, seed {seed}, map {i}"
                      + (f", start {starts[0][0]},{starts[0][1]}" if start is not None else "")
                      + ("" if opening else ", safe start (not an opening)"),),
        )
        for i in range(count)
    ]


def custom_preset(height: int, width: int, daggers: int, gold: int = 0, topology: str = "square",
                  lives: int = 1) -> Preset:
    """A one-off preset from explicit sizes (hex boards get the centre hint, as Tornado does)."""
    return Preset(f"custom-{height}x{width}-{daggers}", height, width, daggers, gold=gold,
                  topology=topology, centre_hint=topology == "hex", lives=lives)
