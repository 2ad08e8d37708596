"""The step loop, traces and replay, and the registry."""

import json

import pytest

from logic_agents import load, make_agent, make_world, run_episode
from logic_agents.errors import FormatError, TraceMismatch, UnknownName
from logic_agents.world.registry import games, get_game
from logic_agents.world.trace import Trace, read_trace, replay

from ..conftest import MAPS


def test_public_api_runs_an_episode():
    instance = load(MAPS[0])
    result = run_episode(make_world(instance, "daggers"), make_agent("satx", "daggers"), seed=0,
                         game="daggers",
                         map_name=instance.name)
    data = result.to_dict()
    assert data["outcome"] in ("won", "lost") and data["won"] == result.won
    json.dumps(data)
    assert "lives_left" in result.extra


def test_registry():
    assert "daggers" in games()
    with pytest.raises(UnknownName, match="daggers"):
        get_game("chess")
    with pytest.raises(UnknownName, match="rpx"):
        get_game("daggers").make_agent("alphazero")


@pytest.mark.parametrize("agent", ["rpx", "spx", "satx"])
def test_trace_replays(tmp_path, agent):
    path = tmp_path / "t.jsonl"
    map_path = [p for p in MAPS if p.stem == "HARD3"][0]
    instance = load(map_path)
    with Trace(path, map_path=str(map_path), world_options={"lives": 2}) as trace:
        result = run_episode(make_world(instance, "daggers", lives=2), make_agent(agent, "daggers"),
                             seed=4, trace=trace,
                             game="daggers", map_name=instance.name)
    begin, steps, end = read_trace(path)
    assert begin["seed"] == 4 and len(steps) == result.steps
    assert end["result"]["outcome"] == result.outcome.value
    report = replay(path)
    assert report["steps"] == result.steps and report["outcome"] == result.outcome.value


def test_tampered_trace_is_caught(tmp_path):
    path = tmp_path / "t.jsonl"
    map_path = MAPS[0]
    instance = load(map_path)
    with Trace(path, map_path=str(map_path)) as trace:
        run_episode(make_world(instance, "daggers"), make_agent("rpx", "daggers"), seed=1,
                    trace=trace, game="daggers")
    lines = path.read_text().splitlines()
    step = json.loads(lines[1])
    step["reward"] = 99
    lines[1] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TraceMismatch, match="step 1"):
        replay(path)


def test_bad_trace_files(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "begin"}\nnot json\n')
    with pytest.raises(FormatError, match=":2:"):
        read_trace(bad)
    with pytest.raises(FormatError):
        read_trace(tmp_path / "missing.jsonl")


def test_replay_streams_the_trace(tmp_path):
    """A long trace is replayed a record at a time (issue 39, item 7): the memory replay
    takes stays far below the trace's own size."""
    import tracemalloc

    import logic_agents as la
    from logic_agents.games.daggers import format_map
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.world.trace import replay

    board = tmp_path / "expert.txt"
    board.write_text(format_map(generate_maps(PRESETS["expert"], 1, seed=0)[0]),
                     encoding="utf-8")
    trace = tmp_path / "long.jsonl"
    la.play(board, agent="rpx", lives=500, trace=trace)
    size = trace.stat().st_size
    assert size > 200_000
    tracemalloc.start()
    try:
        report = replay(trace)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report["steps"] > 100 and peak < size / 3, (peak, size)
