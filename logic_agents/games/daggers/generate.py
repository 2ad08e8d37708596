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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic_agents.errors import GenerationError, UnknownName, UsageError
from logic_agents.games.daggers.board import (
    DAGGER,
    GOLD,
    MAX_CELLS,
    TOPOLOGIES,
    DaggersMap,
    format_map,
    neighbours,
)
from logic_agents.games.daggers.board import load as load_map
from logic_agents.world.declared import Option
from logic_agents.world.generated import kept_files, write_file
from logic_agents.world.options import cell as cell_option
from logic_agents.world.options import integer, positive_int
from logic_agents.world.spec import GenerateReport, GenerateRequest, Generator
from logic_agents.world.view import Cell


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


DIGITS = "012345678"


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
    if height * width > MAX_CELLS:  # the loader refuses such a map: it is never written
        raise GenerationError(f"a {height}x{width} board has {height * width:,} cells; maps "
                              f"hold at most {MAX_CELLS:,}")
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
        golds: set[Cell] = set()
        if gold:  # (sampling none draws nothing from rng: the same maps either way)
            calm = [cell for cell in table
                    if cell not in placed and cell not in starts
                    and not any(n in placed for n in table[cell])]
            if len(calm) < gold:
                continue
            golds = set(rng.sample(calm, gold))
        counts = [[0] * width for _ in range(height)]
        for cell in placed:  # each dagger counts once for each of its neighbours
            for r, c in table[cell]:
                counts[r][c] += 1
        # shared one-letter strings: a board is small (and a study makes one a game)
        grid = [[DIGITS[k] for k in row] for row in counts]
        for r, c in placed:
            grid[r][c] = DAGGER
        for r, c in golds:
            grid[r][c] = GOLD
        tokens = tuple(map(tuple, grid))
        return DaggersMap(name=name, tokens=tokens, lives=lives, starts=tuple(starts),
                          topology=topology, preset=preset, comments=comments)
    raise GenerationError(f"found no placement with {gold} gold clear of daggers in {attempts} tries")


def generate_maps(preset: Preset, count: int, seed: int,
                  start: Cell | None = None, opening: bool = True,
                  seed_shown: bool = True) -> list[DaggersMap]:
    """`count` maps of a preset from one seed (map i is the i-th draw of Random(seed)).

    `start` moves the first start hint from the [0,0] corner (the records of modern
    Minesweeper solvers open at (3,3), for instance); GenerationError if it is off the board.
    `opening=False` keeps only the start cells clear, not their neighbours: the first probe is
    safe but may show a number (the "classic" rule of JSMinesweeper's 40.7% expert figure).
    `seed_shown=False` leaves the seed out of the maps' names and comments (`compare
    --generate`, whose seed may be a secret the players must not learn from a map's name)."""
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
            opening=opening, preset=preset.name,
            name=f"{preset.name}-s{seed}-{i:04d}" if seed_shown else f"{preset.name}-{i:04d}",
            comments=(f"generated by logic-agents: preset {preset.name}"
                      + (f", seed {seed}" if seed_shown else "") + f", map {i}"
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


# -- `logic-agents generate daggers` and `compare --generate` ---------------------------------
def _options() -> tuple[Option, ...]:
    return (
        Option("preset", str, None, "a preset name (see below)"),
        Option("width", int, None, "", parse=positive_int),
        Option("height", int, None, "", parse=positive_int),
        Option("daggers", int, None, "", metavar="K", parse=integer),
        Option("gold", int, None, "gold mines (default 0)", metavar="G", parse=integer),
        Option("topology", str, None, "default square", choices=("square", "hex")),
        Option("lives", int, None, "starting lives written in the header", parse=positive_int),
        *_start_options(),
    )


def _start_options() -> tuple[Option, ...]:
    return (
        Option("start", tuple, None, "the first probe, kept clear so that it opens an area "
               "(default 0,0; 3,3 is the 'modern' opening of published solver records)",
               metavar="R,C", parse=cell_option),
        Option("safe_start", bool, None, "keep only the first probe clear, not its "
               "neighbours; it is safe but may show a number (the 'classic' start rule)"),
    )


def preset_from_options(options: Mapping[str, Any]) -> Preset:
    """The preset named by `preset`, or a custom one from width/height/daggers/gold."""

    sizes = [options.get("width"), options.get("height"), options.get("daggers")]
    if options.get("preset"):
        if any(v is not None for v in [*sizes, options.get("gold")]):
            raise UsageError("give either --preset or --width/--height/--daggers, not both")
        preset = get_preset(options["preset"])
        topology = options.get("topology")
        if topology and topology != preset.topology:
            raise UsageError(f"preset {preset.name} is {preset.topology}; drop --topology")
        return preset
    height, width, daggers = options.get("height"), options.get("width"), options.get("daggers")
    if height is None or width is None or daggers is None:
        raise UsageError("give --preset P, or all of --width W --height H --daggers K")
    return custom_preset(height, width, daggers, options.get("gold") or 0,
                         options.get("topology") or "square", options.get("lives") or 1)


def _generate(request: GenerateRequest) -> GenerateReport:
    options = request.options
    preset = preset_from_options(options)
    maps = generate_maps(preset, request.count, request.seed, options.get("start"),
                         not options.get("safe_start"))
    out = Path(request.output)
    paths = [out / f"{instance.name}.txt" for instance in maps]
    kept = kept_files(paths, load_map, request.force, request.resume)
    written = []
    for k, (instance, path) in enumerate(zip(maps, paths)):
        if k not in kept:
            write_file(path, format_map(instance))
            written.append(str(path))
    return GenerateReport(written, len(written), len(kept),
                          f"{preset.name} maps ({preset.height}x{preset.width}, {preset.daggers} "
                          f"daggers, {preset.topology}) to {out}", {"preset": preset.name})


def _for_compare(text: str, count: int, seed: int,
                 options: Mapping[str, Any]) -> list[tuple[Any, str]]:
    out = []
    for name in text.split(","):
        preset = get_preset(name.strip())
        out += [(m, preset.name) for m in generate_maps(preset, count, seed, options.get("start"),
                                                        not options.get("safe_start"),
                                                        seed_shown=False)]
    return out


def _epilog() -> str:
    return "Presets: " + "; ".join(f"{p.name} ({p.height}x{p.width}/{p.daggers}, {p.about})"
                                   for p in PRESETS.values())


GENERATOR = Generator(
    options=_options(), generate=_generate, epilog=_epilog, for_compare=_for_compare,
    compare_options=_start_options(),
    help="random maps of a preset or size; every start hint opens an area",
)
