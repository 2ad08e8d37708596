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
