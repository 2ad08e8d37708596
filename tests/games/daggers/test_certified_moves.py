"""satx --certify (issue 68): every UNSAT answer a proved move rests on is certified.

Random small boards: every claim is certified (as many certified as claimed), and every move
satx did not guess is right on the hidden board. A proof the checker rejects fails the game
in words: the row is an UncertifiedClaim error at its step, `play` exits 3, never a quiet
pass.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logic_agents.cli import main
from logic_agents.games.daggers import SatAgent
from logic_agents.logic import certify
from tests.games.daggers.test_soundness import boards, play_checked


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards, st.integers(0, 1000), st.booleans(), st.sampled_from(["cadical195", "glucose4"]))
def test_every_claim_of_satx_is_certified_and_true(board, seed, global_count, solver):
    agent = SatAgent(global_count=global_count, certify=True, solver=solver)
    play_checked(board, agent, seed)  # every move it did not guess is right on the board
    stats = agent.stats()
    assert stats["claims"] == stats["certified"]
    if stats["proved_safe"] + stats["proved_dagger"]:  # a proved cell rests on a claim
        assert stats["claims"] > 0


def test_play_certify_reports_its_claims(capsys):
    assert main(["play", "EASY2", "--agent", "satx", "--certify", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["claims"] == result["certified"] > 0


def test_a_rejected_proof_fails_the_game_in_words(monkeypatch, capsys):
    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 3, "drup", 0.0, "drup rejected the proof at step 2: the empty clause does not "
        "follow"))
    code = main(["play", "EASY2", "--agent", "satx", "--certify", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 3 and result["outcome"] == "error"
    assert result["error"].startswith("UncertifiedClaim: ~D_"), result["error"]
    assert "drup rejected the proof at step 2" in result["error"]
    assert "(in act() at step" in result["error"]


def test_a_certified_games_trace_marks_its_proved_moves(tmp_path, capsys):
    from logic_agents.web import episode_data

    trace = tmp_path / "hard2.jsonl"
    assert main(["play", "HARD2", "--agent", "satx", "--certify", "--trace", str(trace),
                 "--quiet"]) == 0
    frames = episode_data(trace)["frames"]
    certified = [f for f in frames if "certified" in f]
    assert certified and all(isinstance(f["certified"], int) for f in certified)
    # every move the SAT test proved is certified; a single-point or guessed one is not
    assert all(("is safe" in f["why"] or "SAT test" in f["why"] or "is a dagger" in f["why"])
               for f in certified)
    assert all("certified" not in f for f in frames if f.get("why", "").startswith(
        ("single point", "random guess")))
    assert sum(f["certified"] for f in certified) > 0  # and some proof had lemmas
