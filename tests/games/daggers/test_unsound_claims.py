"""Unsound claims (issue 68, item 4): the referee checks every move claimed proved against
the hidden board, so a knowledge base unfaithful to the rules is caught even where every
certificate passes.

- the 2018 seed's KB ("exactly one" for every clue, whatever its value): its proofs check,
  yet a move it proves is wrong; the row is an `UnsoundClaim` error at its step, with the
  minimal set of the KB's formulas the claim rested on (the wrong one shown as told);
- satx's own KB over random small boards: every proved move is checked by the referee, every
  certificate accepted, never an unsound claim (a property test; thousands when slow);
- a student's agent whose why says `proved` is held to it, in its own words; the flag
  travels with a why from a player process (remote._why) and through a trace.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers import DaggersWorld, SatAgent
from logic_agents.games.daggers import encode as daggers_encode
from logic_agents.games.daggers.world import DaggersAction
from logic_agents.referee.remote import _why
from logic_agents.world.core import Why
from logic_agents.world.runner import run_episode
from tests.games.daggers.test_soundness import boards, random_board


def _seeds_kb(monkeypatch):
    """The 2018 seed's unsound KB: every clue above 0 told as "exactly one"."""
    shown = daggers_encode.shown_clue
    monkeypatch.setattr(daggers_encode, "shown_clue", lambda obs, cell: min(shown(obs, cell), 1))


def test_the_seeds_unsound_kb_is_caught_though_its_proofs_check(monkeypatch):
    _seeds_kb(monkeypatch)
    caught = []
    for k in range(40):  # the first boards, in order: deterministic
        board = random_board(k, 5, 5, 0.3)
        agent = SatAgent(certify=True)
        result = run_episode(DaggersWorld(board, lives=3), agent, 1)
        if result.error and result.error.startswith("UnsoundClaim"):
            caught.append((board, agent, result))
    assert caught, "the seed's KB makes a wrong move on one of the first 40 boards"
    board, agent, result = caught[0]
    tally = agent.knowledge.tally
    assert tally.claims == tally.certified > 0  # every proof the checker saw was accepted
    error = result.error
    assert "as proved safe, but it holds a dagger" in error or \
        "as a proved dagger, but it holds none" in error, error
    # what it rested on: the KB's formulas, the clue's told one in sight ("Exactly(...)")
    assert "the claim rested on: (" in error and "clue " in error and "[Exactly(" in error
    assert "(in act() at step" in error


def test_satx_agrees_with_the_board_in_the_referees_hands():
    # the sound KB on the same boards: no unsound claim, the games end as games do
    for k in range(40):
        result = run_episode(DaggersWorld(random_board(k, 5, 5, 0.3), lives=3),
                             SatAgent(certify=True), 1)
        assert not result.error, (k, result.error)
        assert result.stats["claims"] == result.stats["certified"]


def _referee_checks(board, seed, global_count, solver):
    agent = SatAgent(global_count=global_count, certify=True, solver=solver)
    result = run_episode(DaggersWorld(board, lives=3), agent, seed)
    assert not result.error, result.error  # no unsound claim, no uncertified one
    stats = result.stats
    assert stats["claims"] == stats["certified"]
    if stats["proved_safe"] + stats["proved_dagger"]:
        assert stats["claims"] > 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards, st.integers(0, 1000), st.booleans(), st.sampled_from(["cadical195", "glucose4"]))
def test_every_certificate_and_every_claim_checks_on_random_boards(board, seed, global_count,
                                                                    solver):
    _referee_checks(board, seed, global_count, solver)


@pytest.mark.slow
@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards, st.integers(0, 1000), st.booleans(), st.sampled_from(["cadical195", "glucose4"]))
def test_every_certificate_and_every_claim_checks_on_thousands_of_boards(board, seed,
                                                                         global_count, solver):
    _referee_checks(board, seed, global_count, solver)


class Boaster:
    """A student's agent: probes in reading order, each probe claimed proved."""

    name = "boaster"

    def reset(self, seed=None):
        self.why = None

    def act(self, obs):
        cell = next(c for c in obs.cells() if obs.at(c) == "?")
        self.why = Why(f"I am sure {cell} is safe", proved=True)
        return DaggersAction("probe", cell)


def test_a_students_proved_move_is_held_to_it_in_its_own_words():
    board = random_board(3, 5, 5, 0.3)
    result = run_episode(DaggersWorld(board, lives=3), Boaster(), 1)
    assert result.error.startswith("UnsoundClaim: ("), result.error
    assert "the claim rested on: I am sure" in result.error


def test_the_proved_flag_travels_with_a_why():
    why = Why("(1, 2) is safe: clue 1 at (0, 2)", [(0, 2)], proved=True)
    assert why.to_json()["proved"] is True
    assert Why.from_json(why.to_json()).proved
    assert _why(why.to_json()).proved  # as a player process sends it
    assert not _why({"text": "a guess"}).proved
    sure = Why("(1, 2) is safe", proved=True, certified=7)
    assert Why.from_json(sure.to_json()).certified == 7
    for forged in (-1, True, "7"):
        assert Why.from_json({"text": "x", "certified": forged}).certified is None
    # a player process's word that its proofs checked is no certificate: never taken
    assert _why(sure.to_json()).certified is None and _why(sure.to_json()).proved
