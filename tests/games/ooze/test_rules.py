"""Ooze: the rules pinned down by the issue, tick by tick."""

import pytest

from logic_agents.errors import FormatError, IllegalAction
from logic_agents.games.ooze.world import OozeAction, OozeWorld, render

WAIT = OozeAction("wait")


def place(x, y):
    return OozeAction("place", (x, y))


def play(world, actions, seed=0):
    obs, _ = world.reset(seed=seed)
    done = False
    for action in actions:
        obs, _, terminated, truncated, info = world.step(action)
        done = terminated or truncated
        if done:
            break
    return obs, done


def test_with_no_piece_placed_the_game_ends_at_tick_9_with_score_0():
    world = OozeWorld()
    obs, _ = world.reset(seed=1)
    ticks = 0
    while True:
        obs, _, terminated, truncated, _ = world.step(WAIT)
        ticks += 1
        if terminated:
            break
        assert ticks < 9
    assert (obs.clock, obs.score, obs.tiles) == (9, 0, 0)


def test_a_vertical_piece_placed_above_the_source_at_tick_8_is_in_time():
    world = OozeWorld(pieces="|")
    obs, done = play(world, [WAIT] * 8 + [place(3, 2)])
    assert not done and obs.clock == 9 and obs.tiles == 1 and obs.score == 2
    # the next tile is due at t = 12; nothing is above, so the ooze leaks then
    obs, done = play(world, [WAIT] * 8 + [place(3, 2)] + [WAIT] * 3)
    assert done and obs.clock == 12 and obs.score == 2


def test_the_cross_loop_scores_six_tiles_and_the_bonus():
    world = OozeWorld(pieces="+czq-")
    cells = [(3, 2), (3, 1), (4, 1), (4, 2), (2, 2)]
    obs, done = play(world, [place(x, y) for x, y in cells] + [WAIT] * 40)
    assert done and obs.tiles == 6 and obs.score == 6 * 2 + 5 == 17


def test_destroying_costs_3_and_an_entered_piece_cannot_be_destroyed():
    world = OozeWorld(pieces="||")
    world.reset(seed=0)
    world.step(place(0, 0))
    obs, reward, *_ = world.step(OozeAction("destroy", (0, 0)))
    assert reward == -3 and obs.score == -3 and (0, 0) not in obs.pieces
    world.step(place(3, 2))
    for _ in range(6):  # tile 1 is entered at t = 9
        obs, *_ = world.step(WAIT)
    assert obs.tiles == 1
    obs, reward, _, _, info = world.step(OozeAction("destroy", (3, 2)))
    assert "invalid" in info and reward == 0 and obs.pieces[(3, 2)] == "|"


def test_invalid_actions_count_as_waits_and_the_source_is_not_buildable():
    world = OozeWorld(pieces="|")
    world.reset(seed=0)
    obs, _, _, _, info = world.step(place(3, 3))
    assert "invalid" in info and obs.clock == 1 and obs.queue[0] == "|"
    obs, _, _, _, info = world.step(place(9, 0))
    assert "invalid" in info and obs.clock == 2


def test_the_queue_shows_five_pieces_and_same_seed_same_pieces():
    a, b = OozeWorld(), OozeWorld()
    obs_a, _ = a.reset(seed=42)
    obs_b, _ = b.reset(seed=42)
    assert len(obs_a.queue) == 5 and obs_a.queue == obs_b.queue
    assert OozeWorld(pieces="qecz").reset(seed=0)[0].queue.startswith("qecz")


def test_actions_parse_and_print_and_bad_input_is_refused():
    assert str(OozeAction.from_json("place 1 2")) == "place 1 2"
    assert OozeAction.from_json("wait") == WAIT
    with pytest.raises(FormatError):
        OozeAction.from_json("jump 1 2")
    with pytest.raises(FormatError):
        OozeWorld(pieces="|x")
    world = OozeWorld()
    with pytest.raises(IllegalAction):
        world.step(WAIT)  # before reset


def test_render_marks_the_source_glyphs_and_filled_channels():
    world = OozeWorld(pieces="|")
    obs, _ = play(world, [place(3, 2)] + [WAIT] * 8)
    text = render(obs)
    assert "[|]" in text and " S " in text and "score=2" in text
