"""Endgame: when few placements of the daggers remain, the probe that maximises the chance
of winning, found by exact search over those placements.

Concepts:
- placements(obs, limit) (placements.py): every placement of the remaining daggers on the
  covered cells that agrees with the clues and the total, or None past `limit`.
- What a probe shows: in a given placement, probing a safe cell uncovers its clue, and a 0
  uncovers its neighbours in turn (gold reads as 0 and cascades the same way). Placements that
  show the same thing stay together; the others are ruled out.
- win_probability(state): the best, over covered cells, of the chance the probe is safe times
  the expected win probability of what it shows; a dagger costs a life and is shown. The game
  is won when every covered cell is a dagger. A cell safe in every remaining placement is
  probed first without trying the others (it only adds information). One placement left is a
  win; two are told apart by a cell safe in both that shows different clues, or else are a
  coin toss (a win with a life to spare). States are memoised; a node budget bounds the
  search (None when it runs out, and the caller guesses by probability instead).
- Regions: with one life, covered regions that touch no other and whose placements combine
  freely are separate games, searched alone; the win probability is their product.
- The compiled search (_endgame.c, `KERNEL`): the same search in C, node for node and memo
  for memo, used when the package was built with it (512 placements and cells at most);
  EndgameSearch's _win and _value are the fallback, and both give the same doubles
  (tests/games/daggers/test_endgame_kernel.py). LOGIC_AGENTS_PURE_PYTHON=1 turns it off, as
  it does the odds' kernel.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from types import ModuleType

from logic_agents.games.daggers.components import PURE_PYTHON_VARIABLE
from logic_agents.games.daggers.placements import placements
from logic_agents.games.daggers.world import (
    COVERED,
    FLAGGED,
    HIT,
    DaggersObservation,
    clue_value,
)
from logic_agents.world.view import Cell

COMPILED: ModuleType | None  # the compiled search as built (None: no C compiler at install)
try:
    from logic_agents.games.daggers import _endgame as COMPILED
except ImportError:  # not built: the search below
    COMPILED = None
# the search asked: the compiled one unless turned off (tests compare both)
KERNEL = None if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0") else COMPILED


class _OutOfBudget(Exception):
    pass


def best_probe(obs: DaggersObservation, limit: int = 300, budget: int = 200_000
               ) -> tuple[Cell, float] | None:
    """The covered cell whose probe maximises the win probability, and that probability;
    None if more than `limit` placements remain, the search exceeds `budget` nodes, or no
    covered cell is safe in any placement.

    With one life, covered regions that touch no other (no cell of one next to a cell of
    another) whose placements combine freely (every placement is one of each region's) are
    separate games: what a probe shows in one says nothing about another, and both must be
    won, so the win probability is the product of theirs, each searched alone."""
    return searched_probe(obs, limit, budget)[0]


def searched_probe(obs: DaggersObservation, limit: int = 300, budget: int = 200_000
                   ) -> tuple[tuple[Cell, float] | None, EndgameSearch | None]:
    """best_probe, and the search over the whole board that found it (None when the board
    was split into regions, or there was no search): its `resume` answers later positions
    of the same game from the positions this search met."""
    worlds = placements(obs, limit)
    if not worlds:
        return None, None
    table = obs.neighbours
    covered = tuple(obs.unknown_cells())
    known_daggers = frozenset(c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT))
    if all(len(w) == len(covered) for w in worlds):
        return None, None  # every covered cell is a dagger: nothing is left to probe
    parts = _regions(covered, worlds, table) if obs.lives == 1 else None
    whole = None
    try:
        if parts is None:
            whole = EndgameSearch(covered, worlds, known_daggers, table, obs.lives, budget)
            scored = whole.scores()
        else:
            searched = [EndgameSearch(cells, region_worlds, known_daggers, table, 1,
                                      budget).scores() for cells, region_worlds in parts]
            # a region's best win chance (1 when it has nothing left to probe)
            bests = [max((v for v, _ in found), default=1.0) for found in searched]
            scored = []
            for r, found in enumerate(searched):
                others = 1.0
                for o, best in enumerate(bests):
                    if o != r:
                        others *= best
                scored += [(v * others, c) for v, c in found]
    except _OutOfBudget:
        return None, None
    daggers_at = {c: sum(c in w for w in worlds) for c in covered}
    return _choose(scored, daggers_at.__getitem__), whole


def _choose(scored: list[tuple[float, Cell]], daggers_at: Callable[[Cell], int]
            ) -> tuple[Cell, float]:
    """The best win chance and its cell: among equal chances (within rounding), the one that
    is a dagger in the fewest placements, then the first in reading order."""
    best = max(v for v, _ in scored)
    cell = min((c for v, c in scored if v >= best - 1e-12), key=lambda c: (daggers_at(c), c))
    return cell, best


def _regions(covered: tuple[Cell, ...], worlds: list[frozenset[Cell]], table: Mapping[Cell, tuple[Cell, ...]]
             ) -> list[tuple[tuple[Cell, ...], list[frozenset[Cell]]]] | None:
    """The covered cells split into regions that are separate games, each with its own
    placements (in first-seen order), or None when there is only one."""
    parent = {c: c for c in covered}

    def find(c: Cell) -> Cell:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for c in covered:
        for n in table[c]:
            if n in parent:
                parent[find(c)] = find(n)
    groups: dict[Cell, list[Cell]] = {}
    for c in covered:
        groups.setdefault(find(c), []).append(c)
    if len(groups) < 2:
        return None
    parts = []
    combinations = 1
    for cells in groups.values():
        inside = frozenset(cells)
        seen = dict.fromkeys(w & inside for w in worlds)
        parts.append((tuple(cells), list(seen)))
        combinations *= len(seen)
    return parts if combinations == len(worlds) else None


def _members(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class EndgameSearch:
    """The exact search over one endgame's placements, with its memo: `scores()` ranks the
    covered cells; `resume(obs, budget)` answers a later position of the same game as
    best_probe would, from the positions this search met (the next guess of an endgame is
    mostly one of them). Worlds (placements) and cells are bits, so that a search state is
    three small integers; past `budget` search nodes a call raises _OutOfBudget."""

    # slots: the search reads these fields in its innermost loop
    __slots__ = ("covered", "worlds", "lives", "budget", "nodes", "index", "everything",
                 "dagger_bits", "around_bits", "known_around", "dagger_worlds",
                 "partitions", "win", "near_known", "cascades", "compiled", "_words")

    def __init__(self, covered: tuple[Cell, ...], worlds: list[frozenset[Cell]],
                 known_daggers: frozenset[Cell], table: Mapping[Cell, tuple[Cell, ...]],
                 lives: int, budget: int):
        self.covered, self.worlds, self.lives, self.budget = covered, worlds, lives, budget
        self.nodes = 0
        index = self.index = {c: i for i, c in enumerate(covered)}
        self.everything = (1 << len(covered)) - 1
        self.dagger_bits = [sum(1 << index[c] for c in w) for w in worlds]
        # per covered cell, its covered neighbours as bits: its clue differs between two
        # placements exactly when they hold different numbers of daggers there
        self.around_bits = [sum(1 << index[n] for n in table[c] if n in index) for c in covered]
        self.known_around = [sum(n in known_daggers for n in table[c]) for c in covered]
        # per cell: the worlds in which it is a dagger, and (lazily) the worlds grouped by
        # what probing it shows, so that a search step costs one pass over a few groups, not
        # over every world
        self.dagger_worlds = [sum(1 << w for w, bits in enumerate(self.dagger_bits)
                                  if bits >> i & 1) for i in range(len(covered))]
        self.partitions: dict[int, list[tuple[int, int]]] = {}
        # the cells next to a known dagger (their clue is never 0), and per world the
        # cascades met so far, by the 0 they start from
        self.near_known = sum(1 << j for j, k in enumerate(self.known_around) if k)
        self.cascades: dict[int, dict[int, tuple[tuple[int, tuple[int, ...]], int]]] = {}
        self.win = cache(self._win)  # the memo: (worlds, open cells, lives) -> win chance
        # the compiled search, when built: it keeps its own memo and node count, and every
        # question (value, budget) goes to it; sets cross as little-endian 64-bit words
        self.compiled: object | None = None
        self._words = (8 * ((len(worlds) + 63) // 64), 8 * ((len(covered) + 63) // 64))
        if KERNEL is not None:
            cell_bytes = self._words[1]
            self.compiled = KERNEL.new(
                len(covered), len(worlds),
                b"".join(bits.to_bytes(cell_bytes, "little") for bits in self.dagger_bits),
                b"".join(bits.to_bytes(cell_bytes, "little") for bits in self.around_bits),
                bytes(self.known_around), budget)

    def scores(self) -> list[tuple[float, Cell]]:
        """(win probability, cell) for the covered cells worth probing first, safest first:
        the best of them and every cell that may tie it (none when every cell is a dagger in
        every placement)."""
        if all(bits == self.everything for bits in self.dagger_bits):
            return []
        scored = self._top((1 << len(self.worlds)) - 1, list(range(len(self.covered))), 0,
                           self.lives)
        return [(v, self.covered[i]) for v, i in scored]

    def _shows(self, w: int, i: int) -> tuple[tuple[int, tuple[int, ...]], int]:
        """What probing the safe cell i uncovers in world w when its clue is 0: the cells it
        opens, cascading through 0s, as bits, with the clues of those that are not 0 (in
        bit order), and those cells as bits. Cells open before show the same clue in every
        world still in play, so including them does not split worlds that agree. Every 0
        of the cascade opens the same cells, so one flood answers them all (`cascades`)."""
        known = self.cascades.get(w)
        if known is None:
            known = self.cascades[w] = {}
        found = known.get(i)
        if found is not None:
            return found
        daggers = self.dagger_bits[w]
        around_bits, members = self.around_bits, _members
        clued = self.near_known  # the cells whose clue is not 0 in this world
        for d in members(daggers):
            clued |= around_bits[d]
        zeros = self.everything & ~clued & ~daggers
        opened = frontier = 1 << i
        while frontier:  # breadth first, each 0 once
            grow = 0
            for j in members(frontier & zeros):
                grow |= around_bits[j]
            frontier = grow & ~opened
            opened |= grow
        known_around = self.known_around
        clues = tuple(known_around[j] + (daggers & around_bits[j]).bit_count()
                      for j in members(opened & clued))
        found = (opened, clues), opened
        for j in members(opened & zeros):
            known[j] = found
        return found

    def _partition(self, i: int) -> list[tuple[int, int]]:
        """The worlds where cell i is safe, grouped by what its probe shows: (worlds, cells
        it opens), both as bits."""
        found = self.partitions.get(i)
        if found is None:
            # keyed by the clue alone when it is not 0 (most probes: nothing cascades, and
            # the cell's clue is all it shows), else by the cells the cascade opens and their
            # clues (_shows)
            groups: dict[int | tuple[int, tuple[int, ...]], list[int]] = {}
            cell, around, base = 1 << i, self.around_bits[i], self.known_around[i]
            for w, daggers in enumerate(self.dagger_bits):
                if daggers & cell:
                    continue
                clue = base + (daggers & around).bit_count()
                shown: int | tuple[int, tuple[int, ...]] = clue
                bits = cell
                if clue == 0:
                    shown, bits = self._shows(w, i)
                group = groups.get(shown)
                if group is None:
                    groups[shown] = [1 << w, bits]
                else:
                    group[0] |= 1 << w
            found = self.partitions[i] = [(mask, bits) for mask, bits in groups.values()]
        return found

    def _value(self, i: int, worlds_now: int, open_: int, lives: int) -> float:
        """The win probability after probing cell i (0 for a certain dagger)."""
        n = worlds_now.bit_count()
        out = 0.0
        win = self.win
        for mask, bits in self.partitions.get(i) or self._partition(i):
            group = mask & worlds_now
            if group:
                out += group.bit_count() / n * win(group, open_ | bits, lives)
        hit = worlds_now & self.dagger_worlds[i]
        if hit and hit != worlds_now and lives > 1:
            out += hit.bit_count() / n * win(hit, open_ | 1 << i, lives - 1)
        return out

    def _win(self, worlds_now: int, open_: int, lives: int) -> float:
        nodes = self.nodes = self.nodes + 1
        if nodes > self.budget:
            raise _OutOfBudget
        dagger_bits, around_bits, members = self.dagger_bits, self.around_bits, _members
        rest = worlds_now & (worlds_now - 1)
        if rest == 0:
            return 1.0  # one placement left: every safe cell is known
        if rest & (rest - 1) == 0:  # two left: told apart by a safe probe, or a coin toss
            a = dagger_bits[(worlds_now & -worlds_now).bit_length() - 1]
            b = dagger_bits[rest.bit_length() - 1]
            if lives > 1:
                return 1.0  # a hit shows which one, and a life is left to finish
            near = 0  # only the cells next to where they differ can show different clues
            for j in members(a ^ b):
                near |= around_bits[j]
            for c in members(near & ~(a | b)):
                if (a & around_bits[c]).bit_count() != (b & around_bits[c]).bit_count():
                    return 1.0
            return 0.5
        some = (worlds_now & -worlds_now).bit_length() - 1
        everything, dagger_worlds = self.everything, self.dagger_worlds
        # won: every covered cell not yet open is a dagger (then it is so in every world, as
        # all worlds hold the same number of daggers)
        if dagger_bits[some] | open_ == everything:
            return 1.0
        unopened = everything & ~open_
        # a cell safe in every world is probed first: it only adds information and must
        # be probed anyway, so no other order wins more often
        for i in members(unopened):
            if not worlds_now & dagger_worlds[i]:
                return self._value(i, worlds_now, open_, lives)
        n = worlds_now.bit_count()
        best = 0.0
        for hits, i in sorted(((worlds_now & dagger_worlds[i]).bit_count(), i)
                              for i in members(unopened)):
            if lives == 1 and (n - hits) / n <= best:
                break  # safest first, and with one life a probe wins at most when it is safe
            best = max(best, self._value(i, worlds_now, open_, lives))
            if best >= 1.0:
                break
        return best

    def _top(self, worlds_now: int, cells: list[int], open_: int, lives: int
             ) -> list[tuple[float, int]]:
        n = worlds_now.bit_count()
        scored = []
        best_value = 0.0
        value = self._value if self.compiled is None else self._compiled_value
        for hits, i in sorted(((worlds_now & self.dagger_worlds[i]).bit_count(), i)
                              for i in cells):
            if lives == 1 and (n - hits) / n < best_value - 1e-12:
                break  # as in _win(): no safer than the best, it cannot win more often
            scored.append((value(i, worlds_now, open_, lives), i))
            best_value = max(best_value, scored[-1][0])
        return scored

    def _compiled_value(self, i: int, worlds_now: int, open_: int, lives: int) -> float:
        """_value, asked of the compiled search (the module that made it, whatever KERNEL
        says now)."""
        assert COMPILED is not None
        world_bytes, cell_bytes = self._words
        found: float | None = COMPILED.value(self.compiled, i,
                                           worlds_now.to_bytes(world_bytes, "little"),
                                           open_.to_bytes(cell_bytes, "little"), lives)
        if found is None:
            raise _OutOfBudget
        return found

    def resume(self, obs: DaggersObservation, budget: int) -> tuple[Cell, float] | None:
        """best_probe for a later position of the same game, as a state of this search (its
        memo answers what it met before); None when `obs` is not one (a cell covered again,
        a life gained) or the search runs out of budget."""
        grid = obs.grid
        if not set(obs.unknown_cells()) <= self.index.keys():
            return None
        dagger_bits, dagger_worlds = self.dagger_bits, self.dagger_worlds
        worlds_now, open_, lost, flagged = (1 << len(self.worlds)) - 1, 0, 0, 0
        for i, (r, c) in enumerate(self.covered):
            shown = grid[r][c]
            if shown == COVERED:
                continue
            if shown in (FLAGGED, HIT):
                worlds_now &= dagger_worlds[i]
                if shown == HIT:
                    open_ |= 1 << i
                    lost += 1
                else:
                    flagged |= 1 << i
                continue
            clue = clue_value(shown)
            if clue is None:
                return None
            open_ |= 1 << i
            agree = 0
            for w in _members(worlds_now):
                if (not dagger_bits[w] >> i & 1 and self.known_around[i]
                        + (dagger_bits[w] & self.around_bits[i]).bit_count() == clue):
                    agree |= 1 << w
            worlds_now = agree
        if not worlds_now or obs.lives != self.lives - lost:
            return None
        cells = list(_members(self.everything & ~open_ & ~flagged))
        if all(worlds_now & dagger_worlds[i] == worlds_now for i in cells):
            return None  # every covered cell is a dagger: nothing is left to probe
        self.nodes, self.budget = 0, budget
        if self.compiled is not None:
            assert COMPILED is not None
            COMPILED.restart(self.compiled, budget)
        try:
            scored = self._top(worlds_now, cells, open_, obs.lives)
        except _OutOfBudget:
            return None
        return _choose([(v, self.covered[i]) for v, i in scored],
                       lambda c: (worlds_now & dagger_worlds[self.index[c]]).bit_count())
