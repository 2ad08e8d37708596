"""Ooze on the command line: no map file, --pieces, a JSON result anyone can re-score."""

import json

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
    code, out, _ = run(capsys, "play", "ooze", "--pieces", "+czq-", "--json")
    data = json.loads(out)
    assert code == 0 and data["pieces"].startswith("+czq-")
    assert data["actions"][:5] == ["place 3 2", "place 3 1", "place 4 1", "place 4 2",
                                   "place 2 2"]
    code, _, err = run(capsys, "play", "ooze", "--pieces", "+x")
    assert code == 2 and "--pieces:1:2: unknown piece 'x'" in err


def test_a_trace_of_an_ooze_game_replays(capsys, tmp_path):
    trace = tmp_path / "ooze.jsonl"
    code, _, _ = run(capsys, "play", "ooze", "--pieces", "|c", "--trace", str(trace), "--quiet")
    assert code == 0
    code, out, _ = run(capsys, "replay", str(trace), "--json")
    assert code == 0 and json.loads(out)["steps"] >= 1  # a mismatch exits non-zero
