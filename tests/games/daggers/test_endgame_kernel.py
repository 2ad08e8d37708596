"""prob's compiled endgame search (_endgame.c) gives exactly what the Python search gives: the
same win chances (the same doubles) for the same cells, the same search nodes counted, the
same answer past a budget, and the same memo after one (a resumed search then counts the same
nodes); a search past 512 placements or cells stays in Python; bad input is an exception,
not a crash. Under `make test` (CI_REQUIRE_KERNEL=1) it must have been built."""

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers import DaggersMap, DaggersWorld, ProbAgent, endgame
from logic_agents.games.daggers.board import neighbours
from logic_agents.games.daggers.endgame import EndgameSearch, _OutOfBudget, placements
from logic_agents.games.daggers.world import FLAGGED, HIT, DaggersObservation

from .compiled import needs_built

COMPILED = endgame.COMPILED
needs_kernel = needs_built(COMPILED, "the compiled endgame search")


def test_the_endgame_search_is_built_when_ci_requires_it():
    if os.environ.get("CI_REQUIRE_KERNEL"):
        assert COMPILED is not None, "make test installs the package with its C kernel"


def _board(height: int, width: int, daggers: set[tuple[int, int]], lives: int) -> DaggersMap:
    table = neighbours(height, width)
    rows = tuple(tuple("d" if (r, c) in daggers else str(sum(n in daggers for n in table[(r, c)]))
                       for c in range(width)) for r in range(height))
    return DaggersMap(name="tiny", tokens=rows, lives=lives)


def _search(obs: DaggersObservation, compiled: bool, budget: int) -> EndgameSearch:
    kept = endgame.KERNEL
    endgame.KERNEL = COMPILED if compiled else None
    try:
        known = frozenset(c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT))
        return EndgameSearch(tuple(obs.unknown_cells()), placements(obs, 400), known,
                             obs.neighbours, obs.lives, budget)
    finally:
        endgame.KERNEL = kept


def _nodes(search: EndgameSearch) -> int:
    return search.nodes if search.compiled is None else COMPILED.nodes(search.compiled)


def _scores(search: EndgameSearch) -> tuple[list[tuple[float, tuple[int, int]]] | None, int]:
    """(scores, or None past the budget; the nodes counted)."""
    try:
        return search.scores(), _nodes(search)
    except _OutOfBudget:
        return None, _nodes(search)


def _resumed(search: EndgameSearch, obs: DaggersObservation, budget: int
             ) -> tuple[object, int]:
    return search.resume(obs, budget), _nodes(search)


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(height=st.integers(3, 5), width=st.integers(3, 7), density=st.floats(0.1, 0.35),
       lives=st.integers(1, 3), seed=st.integers(0, 10**6), budget=st.sampled_from(
           [1, 5, 40, 300, 3_000, 10**7]), steps=st.integers(0, 12))
def test_the_compiled_search_is_the_python_search(height, width, density, lives, seed, budget,
                                                  steps):
    """At a position of a random small game (prob guessing by its policy, so that positions
    the search would avoid come up too): the same scores and nodes from both searches, under
    budgets that run out anywhere; then, on every later position of the game, the same
    answers and nodes from both searches resumed (with their memos as the first question
    left them)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(height) for c in range(width)]
    count = max(1, min(len(cells) - 5, round(density * len(cells))))
    daggers = set(rng.sample([c for c in cells if c[0] + c[1] > 2], min(count, len(cells) - 6)))
    world = DaggersWorld(_board(height, width, daggers, lives))
    obs, _ = world.reset(seed=seed)
    agent = ProbAgent(endgame=0)
    agent.reset(seed)
    for _ in range(steps):
        if world.outcome is not None:
            return
        obs, *_ = world.step(agent.act(obs))
    if world.outcome is not None or not placements(obs, 400):
        return
    python, compiled = _search(obs, False, budget), _search(obs, True, budget)
    assert compiled.compiled is not None
    assert _scores(compiled) == _scores(python)
    while world.outcome is None:
        obs, *_ = world.step(agent.act(obs))
        later = rng.choice([1, 20, 500, 10**7])
        assert _resumed(compiled, obs, later) == _resumed(python, obs, later)


@needs_kernel
def test_both_searches_answer_every_endgame_of_prob_the_same():
    """prob's own endgame questions over 25 small random games, whole, with prob's budget."""
    rng = random.Random(5)
    asked = 0
    for game in range(25):
        cells = [(r, c) for r in range(4) for c in range(7)]
        daggers = set(rng.sample([c for c in cells if c[0] + c[1] > 2], 6))
        world = DaggersWorld(_board(4, 7, daggers, 1 + game % 3))
        obs, _ = world.reset(seed=game)
        agent = ProbAgent()
        agent.reset(game)
        while world.outcome is None:
            if placements(obs, 300):
                asked += 1
                assert (_scores(_search(obs, True, 200_000))
                        == _scores(_search(obs, False, 200_000)))
            obs, *_ = world.step(agent.act(obs))
    assert asked >= 200


@needs_kernel
def test_past_512_cells_or_placements_the_python_search_runs():
    assert COMPILED.new(513, 1, bytes(8 * 9), bytes(513 * 8 * 9), bytes(513), 10) is None
    assert COMPILED.new(1, 513, bytes(513 * 8), bytes(8), bytes(1), 10) is None
    grid = tuple(tuple(row) for row in ("?1001?", "?1001?"))
    obs = DaggersObservation(grid=grid, lives=1, total_daggers=2, step=0)
    search = _search(obs, True, 10_000)
    assert search.compiled is not None and max(v for v, _ in search.scores()) == 0.25


@needs_kernel
@pytest.mark.parametrize("args", [
    (2, 1, bytes(7), bytes(16), bytes(2), 10),  # a world's set one byte short
    (2, 1, bytes(8), bytes(16), bytes(3), 10),  # a byte of known daggers too many
    (2, 1, b"\x04" + bytes(7), bytes(16), bytes(2), 10),  # a dagger on a third cell of two
    (2, 1, bytes(8), b"\x04" + bytes(15), bytes(2), 10),  # a neighbour past the last cell
    (2, 1, "no bytes", bytes(16), bytes(2), 10),
])
def test_bad_input_to_new_is_an_exception(args):
    with pytest.raises((TypeError, ValueError)):
        COMPILED.new(*args)


@needs_kernel
def test_bad_input_to_value_is_an_exception():
    search = COMPILED.new(2, 2, b"\x01" + bytes(7) + b"\x02" + bytes(7),
                          b"\x02" + bytes(7) + b"\x01" + bytes(7), bytes(2), 100)
    assert COMPILED.value(search, 0, b"\x03" + bytes(7), bytes(8), 1) == 0.5
    for bad in [(search, 2, b"\x03" + bytes(7), bytes(8), 1),  # no cell 2
                (search, 0, bytes(8), bytes(8), 1),  # no world
                (search, 0, b"\x03" + bytes(7), bytes(8), -1),  # lives below 0
                (search, 0, b"\x03", bytes(8), 1),  # a set too short
                (object(), 0, b"\x03" + bytes(7), bytes(8), 1)]:  # not a search
        with pytest.raises((TypeError, ValueError)):
            COMPILED.value(*bad)
    with pytest.raises((TypeError, ValueError)):
        COMPILED.nodes("not a search")
