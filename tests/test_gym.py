"""logic_agents.gym: every registered game is a Gymnasium env that passes Gymnasium's own
check_env, its action mask means moves the world accepts, and a policy plays in compare."""

import subprocess
import sys
import warnings

import gymnasium  # the `gym` extra: make test installs it
import numpy as np
import pytest

import logic_agents as la
from logic_agents import gym as lg
from logic_agents.world.registry import games


@pytest.mark.parametrize("game", sorted(games()))
def test_check_env_passes_for_every_game(game):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(lg.env_id(game), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error", category=UserWarning)  # a warning is a failure here
        check_env(env.unwrapped, skip_render_check=False)
    assert isinstance(env.unwrapped.render(), str)


@pytest.mark.parametrize("game", ["daggers", "sudoku", "mazes", "undead"])
def test_masked_moves_are_moves_the_world_accepts(game):
    env = gymnasium.make(lg.env_id(game)).unwrapped
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    for _ in range(30):
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,) and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert "illegal" not in info and obs in env.observation_space
        if terminated or truncated:
            assert info["outcome"] in ("won", "lost", "ended", None)
            break
    if terminated or truncated:
        return
    unmasked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, _, _, info = env.step(unmasked)  # means no move: changes nothing, costs -1
    assert reward == lg.ILLEGAL_REWARD and "illegal" in info
    assert all((after[k] == obs[k]).all() for k in obs)


def test_rgb_array_draws_the_board_view():
    env = gymnasium.make("logic_agents/Daggers-v0", map="HARD1", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    board = env.unwrapped.encoding.view.board(env.unwrapped._obs)
    assert image.shape == (board.rows * lg.TILE_PIXELS, board.cols * lg.TILE_PIXELS, 3)
    assert image.dtype == np.uint8 and len(np.unique(image.reshape(-1, 3), axis=0)) > 2


def test_a_policy_plays_in_compare_beside_satx_with_paired_seeds():
    study = la.compare([lg.policy_agent(lg.MaskedRandom, "daggers", "masked-random"), "satx"],
                       ["EASY1", "EASY2"], runs=3, jobs=1)
    assert set(study["agents"]) == {"masked-random", "satx"}
    seeds = {(r.map, r.run): set() for r in study.rows}
    for r in study.rows:
        seeds[(r.map, r.run)].add(r.seed)
    assert all(len(s) == 1 for s in seeds.values())  # both agents met the same boards
    assert study["agents"]["masked-random"]["errors"] == 0


def test_without_the_extra_the_import_names_it():
    code = ("import sys; sys.modules['gymnasium'] = None\n"
            "try:\n import logic_agents.gym\n"
            "except Exception as e: print(type(e).__name__, e)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "DependencyNotInstalled" in done.stdout and "logic-agents[gym]" in done.stdout
