"""The endgame search: its win probability is what the agent then achieves, exactly.

On a tiny board every placement of the daggers consistent with the first observation is
equally likely. Playing prob (certainties, then the endgame search) on each of them, the share
of placements won must equal the win probability the search promised at the start.
"""

import itertools
from fractions import Fraction

import pytest

from logic_agents.games.daggers import DaggersMap, DaggersWorld, ProbAgent
from logic_agents.games.daggers.board import neighbours
from logic_agents.games.daggers.endgame import best_probe, placements
from logic_agents.games.daggers.world import COVERED
from logic_agents.world.runner import run_episode


def board(height, width, daggers, lives=1):
    table = neighbours(height, width)
    rows = tuple(tuple("d" if (r, c) in daggers else str(sum(n in daggers for n in table[(r, c)]))
                       for c in range(width)) for r in range(height))
    return DaggersMap(name="tiny", tokens=rows, lives=lives)


CASES = [(3, 3, 2, 1), (2, 5, 2, 1), (3, 4, 3, 1), (3, 4, 3, 2), (4, 4, 3, 1)]


@pytest.mark.parametrize("height,width,count,lives", CASES)
def test_the_promised_win_probability_is_achieved_exactly(height, width, count, lives):
    cells = [(r, c) for r in range(height) for c in range(width)]
    start_zone = {(0, 0)} | set(neighbours(height, width)[(0, 0)])
    checked = 0
    for daggers in itertools.combinations([c for c in cells if c not in start_zone], count):
        world = DaggersWorld(board(height, width, set(daggers), lives))
        obs, info = world.reset(seed=0)
        if world.outcome is not None or not any(obs.at(c) == COVERED for c in cells):
            continue  # won by the opening alone
        worlds = placements(obs, limit=10_000)
        promised = best_probe(obs, limit=10_000)
        assert worlds and promised is not None
        won = 0
        for placement in worlds:
            game = DaggersWorld(board(height, width, set(placement), lives))
            result = run_episode(game, ProbAgent(endgame=10_000), seed=0)
            won += result.won
        assert Fraction(won, len(worlds)) == Fraction(promised[1]).limit_denominator(10**6)
        checked += 1
        if checked >= 6:
            break
    assert checked


def test_out_of_budget_or_too_many_placements_gives_none():
    world = DaggersWorld(board(4, 4, {(3, 3), (2, 3), (3, 1)}))
    obs, _ = world.reset(seed=0)
    assert best_probe(obs, limit=0) is None  # one placement is more than none
    assert best_probe(obs, limit=10_000, budget=1) is None


def test_separate_regions_multiply_their_win_chances():
    """Two 50/50s far apart, one dagger in each: four placements, won with chance 1/4, the
    same as the search over all four placements finds."""
    from logic_agents.games.daggers.endgame import EndgameSearch
    from logic_agents.games.daggers.world import DaggersObservation

    grid = tuple(tuple(row) for row in ("?1001?", "?1001?"))
    obs = DaggersObservation(grid=grid, lives=1, total_daggers=2, step=0)
    cell, chance = best_probe(obs, limit=100)
    assert chance == 0.25 and cell == (0, 0)
    whole = EndgameSearch(tuple(obs.unknown_cells()), placements(obs, 100),
                          frozenset(), obs.neighbours, 1, 10_000).scores()
    assert max(v for v, _ in whole) == chance


def test_the_split_search_agrees_with_the_whole_search():
    """On every endgame position met in 150 small random games, the regions searched apart
    give the win chance the search over all placements gives, and a cell that achieves it."""
    import random

    from logic_agents.games.daggers.endgame import EndgameSearch, _regions
    from logic_agents.games.daggers.world import FLAGGED, HIT

    rng = random.Random(7)
    split = 0
    for _ in range(150):
        cells = [(r, c) for r in range(4) for c in range(7)]
        daggers = set(rng.sample([c for c in cells if c[0] + c[1] > 2], 6))
        world = DaggersWorld(board(4, 7, daggers))
        obs, _ = world.reset(seed=0)
        agent = ProbAgent()
        agent.reset(0)
        while world.outcome is None:
            worlds = placements(obs, 2_000)
            covered = tuple(obs.unknown_cells())
            if worlds and _regions(covered, worlds, obs.neighbours):
                split += 1
                known = frozenset(c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT))
                whole = EndgameSearch(covered, worlds, known, obs.neighbours, 1, 10**7).scores()
                found = best_probe(obs, limit=2_000, budget=10**7)
                assert found is not None
                best = max(v for v, _ in whole)
                assert abs(found[1] - best) < 1e-12
                assert any(c == found[0] and abs(v - best) < 1e-12 for v, c in whole)
            action = agent.act(obs)
            obs, *_ = world.step(action)
    assert split >= 10


def test_a_resumed_search_answers_as_a_new_one():
    """prob goes on from its last endgame search when the next guess comes; at every later
    position of 150 small random games (two lives in half of them), the answer is a new
    search's: the same win chance and the same cell."""
    import random

    from logic_agents.games.daggers.endgame import EndgameSearch, searched_probe

    rng = random.Random(11)
    resumed = 0
    for game in range(150):
        cells = [(r, c) for r in range(4) for c in range(7)]
        daggers = set(rng.sample([c for c in cells if c[0] + c[1] > 2], 6))
        world = DaggersWorld(board(4, 7, daggers, lives=1 + game % 2))
        obs, _ = world.reset(seed=0)
        agent = ProbAgent(endgame=0)  # guesses by the policy: positions the search did not pick
        agent.reset(0)
        kept: EndgameSearch | None = None
        while world.outcome is None:
            if kept is not None:
                again = kept.resume(obs, 10**7)
                fresh = best_probe(obs, limit=300, budget=10**7)
                if again is not None and fresh is not None:
                    resumed += 1
                    assert abs(again[1] - fresh[1]) < 1e-12 and again[0] == fresh[0]
            elif placements(obs, 300):
                _, kept = searched_probe(obs, limit=300, budget=10**7)
            obs, *_ = world.step(agent.act(obs))
    assert resumed >= 20
