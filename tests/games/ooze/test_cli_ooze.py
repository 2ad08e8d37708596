"""Ooze on the command line: no map file, --pieces, a JSON result anyone can re-score."""

import json

import pytest

from logic_agents.cli import main
from logic_agents.games.ooze.world import OozeAction, OozeWorld


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def rescore(pieces: str, actions: list[str]) -> tuple[int, int, int]:
    """Score, ticks and tiles of a game, replayed from its JSON on a fresh world."""
    world = OozeWorld(pieces=pieces)
    obs, _ = world.reset(seed=None)
    for text in actions:
        obs, _, terminated, truncated, _ = world.step(OozeAction.from_json(text))
        if terminated or truncated:
            break
    return obs.score, obs.clock, obs.tiles


@pytest.mark.slow
def test_play_ooze_json_can_be_rescored_independently(capsys):
    for seed in range(5):
        code, out, err = run(capsys, "play", "ooze", "--seed", str(seed), "--json")
        assert code == 0 and err == ""
        data = json.loads(out)
        assert {"score", "ticks", "tiles", "pieces", "actions"} <= set(data)
        assert len(data["actions"]) == data["ticks"]
        assert rescore(data["pieces"], data["actions"]) == (
            data["score"], data["ticks"], data["tiles"])


def test_pieces_fix_the_sequence_and_bad_pieces_are_located(capsys):
    code, out, _ = run(capsys, "play", "ooze", "--agent", "greedy", "--pieces", "+czq-", "--json")
    data = json.loads(out)
    assert code == 0 and data["pieces"].startswith("+czq-")
    assert data["actions"][:5] == ["place 2 3", "place 1 3", "place 1 4", "place 2 4",
                                   "place 2 2"]
    code, _, err = run(capsys, "play", "ooze", "--pieces", "+x")
    assert code == 2 and "--pieces:1:2: unknown piece 'x'" in err


def test_a_trace_of_an_ooze_game_replays(capsys, tmp_path):
    trace = tmp_path / "ooze.jsonl"
    code, _, _ = run(capsys, "play", "ooze", "--pieces", "|c", "--trace", str(trace), "--quiet")
    assert code == 0
    code, out, _ = run(capsys, "replay", str(trace), "--json")
    assert code == 0 and json.loads(out)["steps"] >= 1  # a mismatch exits non-zero


def test_compare_ooze_summarises_scores_not_win_rates(capsys):
    code, out, _ = run(capsys, "compare", "ooze", "--agents", "greedy", "--runs", "12", "--json")
    assert code == 0
    score = json.loads(out)["agents"]["greedy"]["score"]
    assert score["ci95"][0] <= score["mean"] <= score["ci95"][1] and score["max"] >= 0


def test_paired_scores_are_judged_by_a_sign_test():
    from logic_agents.study.rows import Row
    from logic_agents.study.summary import summarize

    def row(agent, run, score):
        return Row(agent, "ooze", ".", run, run, "lost", False, 10, 0, score, 0.0,
                   extra={"score": score})

    rows = [row("a", k, 30) for k in range(10)] + [row("b", k, 10) for k in range(10)]
    summary = summarize(rows, ["a", "b"], scored=True)
    pair = summary["pairs"][0]
    assert (pair["only_a_won"], pair["only_b_won"]) == (10, 0) and pair["better"] == "a"
    assert summary["agents"]["a"]["score"]["mean"] == 30


def test_a_game_of_ooze_ends_with_its_score_not_a_loss(capsys):
    code, out, _ = run(capsys, "play", "ooze", "--seed", "27", "--quiet")
    assert code == 0 and out.startswith("ENDED ooze with sat: score ")
    assert "LOST" not in out
