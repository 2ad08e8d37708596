"""The three agents: completion on every official map, determinism, encodings, the cnf hook."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers import (
    AGENTS,
    DaggersObservation,
    DaggersWorld,
    SatAgent,
    parse,
    single_point_moves,
)
from logic_agents.games.daggers.encode import (
    clue_formula,
    dagger_key,
    encode,
    encode_naive,
    frontier,
    reduced_clue_formula,
)
from logic_agents.logic.oracle import SatOracle, Verdict
from logic_agents.world.core import Outcome
from logic_agents.world.runner import run_episode

from ...conftest import MAPS


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_every_agent_finishes_every_official_map(official_maps, agent):
    for name, instance in official_maps.items():
        result = run_episode(DaggersWorld(instance), AGENTS[agent](), seed=3, map_name=name)
        assert result.outcome in (Outcome.WON, Outcome.LOST), (name, result)
        assert result.steps >= 1


def test_satx_wins_hard1_without_guessing(official_maps):
    result = run_episode(DaggersWorld(official_maps["HARD1"]), SatAgent(), seed=0)
    assert result.won and result.guesses == 0
    assert result.stats["queries"] >= 1


def test_same_seed_same_trajectory(official_maps):
    instance = official_maps["HARD10"]

    def actions(seed):
        out = []
        run_episode(DaggersWorld(instance), AGENTS["satx"](), seed,
                    on_step=lambda obs, a, r: out.append(str(a)))
        return out

    assert actions(5) == actions(5)
    assert any(actions(s) != actions(5) for s in range(6, 12))  # seeds do matter somewhere


def test_clue_is_exactly_k_never_exactly_one():
    obs, _ = DaggersWorld(parse(". . d\n. . d\nd . .\n")).reset(seed=0)
    assert obs.at((1, 1)) == "3"
    assert clue_formula(obs, (1, 1)).k == 3
    assert str(reduced_clue_formula(obs, (1, 1))).startswith("Exactly(3,")


def test_single_point_rules():
    flag_case = DaggersObservation(grid=(("1", "?"), ("1", "1")), lives=1, total_daggers=1, step=0)
    assert [str(m) for m in single_point_moves(flag_case)] == ["flag 0 1"]
    probe_case = DaggersObservation(grid=(("1", "F", "?"), ("1", "1", "1")), lives=1,
                                    total_daggers=1, step=0)
    assert [str(m) for m in single_point_moves(probe_case)] == ["probe 0 2"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["beginner", "cs5011-medium", "tornado-medium"]))
def test_open_clues_follow_the_grid_as_a_full_scan_does(seed, preset):
    """An agent's OpenClues, updated from the cells that changed, yields exactly what a full
    scan yields for the clues with a covered neighbour, in the same order, through probes,
    flags, unflags (a clue regains a covered neighbour) and hits."""
    import random

    from logic_agents.games.daggers.agents import OpenClues
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.games.daggers.world import DaggersAction, clue_neighbourhoods

    rng = random.Random(seed)
    board = generate_maps(PRESETS[preset], 1, seed)[0]
    world = DaggersWorld(board)
    obs, info = world.reset(seed=seed)
    clues = OpenClues()
    for _ in range(60):
        full = [t for t in clue_neighbourhoods(obs) if t[2]]
        assert clues.neighbourhoods(obs) == full
        if world.outcome is not None or info.get("truncated"):
            break
        flagged = [c for c in obs.cells() if obs.at(c) == "F"]
        covered = obs.unknown_cells()
        if flagged and rng.random() < 0.3:
            action = DaggersAction("unflag", rng.choice(flagged))
        elif covered:
            action = DaggersAction(rng.choice(["probe", "flag", "flag"]), rng.choice(covered))
        else:
            break
        obs, _, terminated, truncated, info = world.step(action)
        info = {**info, "truncated": truncated}


def test_open_clues_start_again_on_another_board():
    """OpenClues keys cells by their index on the board: fed a board of another size, it
    forgets the last one (an index there is another cell here) and reads the new one whole."""
    from logic_agents.games.daggers.agents import OpenClues
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.games.daggers.world import clue_neighbourhoods

    clues = OpenClues()
    for preset in ("beginner", "intermediate", "beginner"):
        obs, _ = DaggersWorld(generate_maps(PRESETS[preset], 1, 5, (2, 2), True)[0]).reset(seed=1)
        full = [t for t in clue_neighbourhoods(obs) if t[2]]
        assert clues.neighbourhoods(obs) == full
        assert clues.open == {cell for cell, *_ in full}


def test_sympy_route_agrees_with_tseitin_route(official_maps):
    """At every SAT test of a tseitin game, the naive KB of the same observation decides alike."""
    compared = 0
    for name in ("EASY2", "MEDIUM3", "HARD4", "HARD10"):
        events = []
        agent = SatAgent(global_count=False, on_query=lambda e, events=events: events.append(
            (e.observation, dict(e.verdicts))))
        run_episode(DaggersWorld(official_maps[name]), agent, seed=1)
        for obs, verdicts in events:
            kb, skipped = encode_naive(obs)
            with SatOracle(kb) as oracle:
                for cell, verdict in verdicts.items():
                    naive = oracle.verdict(dagger_key(cell))
                    if skipped == 0 or naive is not Verdict.UNKNOWN:
                        assert naive is verdict, (name, cell)
                    compared += 1
    assert compared > 20


def test_encode_one_observation(official_maps):
    obs, _ = DaggersWorld(official_maps["HARD1"]).reset(seed=0)
    kb = encode(obs, global_count=True)
    assert "Exactly(25," in kb.pretty()
    naive = encode(obs, method="sympy")
    assert naive.clauses and all(isinstance(x, int) for c in naive.clauses for x in c)
    assert frontier(obs)


def test_shipped_map_count():
    assert len(MAPS) == 30
