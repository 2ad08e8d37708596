"""logic_agents.gym: every registered game is a Gymnasium env that passes Gymnasium's own
check_env and that an RL loop can train on: a board per seed, actions checked at the door, an
end that stays the end, `action_masks()`, observations of small integers that hold what the
game turns on, renders that show what a person sees, pickling and vector envs; a policy plays
in compare; the SAT teacher's labels are proofs."""

import pickle
import subprocess
import sys
import warnings

import gymnasium  # the `gym` extra: make test installs it
import numpy as np
import pytest

import logic_agents as la
from logic_agents import gym as lg
from logic_agents.errors import UsageError

from .conftest import project_games

GAMES = project_games()


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes_for_every_game(game):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(lg.env_id(game), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error", category=UserWarning)  # a warning is a failure here
        check_env(env.unwrapped, skip_render_check=False)
    assert isinstance(env.unwrapped.render(), str)


def _play_masked(env, seed, steps, rng):
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        mask = info["action_mask"]
        assert (mask == env.action_masks()).all()
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,) and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert "illegal" not in info and obs in env.observation_space
        if terminated or truncated:
            return obs, info, True
    return obs, info, False


@pytest.mark.parametrize("game", ["daggers", "sudoku", "mazes", "undead", "ooze"])
def test_a_masked_out_index_changes_nothing_and_costs_one(game):
    env = gymnasium.make(lg.env_id(game)).unwrapped
    obs, info, ended = _play_masked(env, 3, 5, np.random.default_rng(1))
    assert not ended
    before = env.observation
    for index in np.flatnonzero(info["action_mask"] == 0)[:40]:  # duplicates of moves too
        after, reward, terminated, truncated, info = env.step(int(index))
        assert reward == lg.ILLEGAL_REWARD and "illegal" in info and not (terminated or truncated)
        assert env.observation == before and all((after[k] == obs[k]).all() for k in obs)


def test_actions_are_checked_at_the_door():
    env = gymnasium.make("logic_agents/Daggers-v0", map="HARD1").unwrapped
    env.reset(seed=0)
    n = env.action_space.n
    for bad in (-1, n, n + 5, None, float("nan"), 1e30, 1.5, "0", True, np.bool_(True), [0],
                np.array([1, 2])):
        with pytest.raises(UsageError, match="index|outside"):
            env.step(bad)
    index = int(np.flatnonzero(env.action_masks())[0])
    for good in (np.int64(index), np.array(index)):
        env.reset(seed=0)
        assert "illegal" not in env.step(good)[4]


def test_the_end_is_the_end():
    env = gymnasium.make("logic_agents/Daggers-v0", map="EASY1").unwrapped
    rng = np.random.default_rng(0)
    for seed in range(20):
        obs, info, ended = _play_masked(env, seed, 500, rng)
        assert ended and not info["action_mask"].any() and not env.action_masks().any()
        last = (env.observation, info.get("outcome"))
        for index in (0, env.action_space.n - 1):
            _, reward, terminated, truncated, again = env.step(index)
            assert reward == 0.0 and (terminated or truncated) and "ended" in again["illegal"]
            assert not again["action_mask"].any() and env.observation == last[0]


def test_every_seed_draws_its_board():
    env = gymnasium.make("logic_agents/Daggers-v0", map="beginner").unwrapped
    boards = {}
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        boards[seed] = env.boards.board(seed).daggers
        again = env.reset(seed=seed)[0]
        assert all((again[k] == obs[k]).all() for k in obs)  # same seed, same board
    assert len(set(boards.values())) == 8  # other seeds, other boards
    folder = gymnasium.make("logic_agents/Daggers-v0", map="2018").unwrapped
    names = [folder.reset(seed=s)[1]["map"] for s in range(30)]
    assert len(set(names)) == 30 and folder.observation_space["kinds"].shape == (12, 12)
    assert folder.reset(seed=30)[1]["map"] == names[0]
    mixed = gymnasium.make("logic_agents/Daggers-v0", map="cs5011-easy,beginner",
                           generate_options={"start": (1, 1)}).unwrapped
    obs, info = mixed.reset(seed=4)
    assert obs in mixed.observation_space and mixed.observation_space["kinds"].shape == (9, 9)


@pytest.mark.parametrize("kwargs, words", [
    ({"map": 42}, "map must be a str"), ({"lives": 1.5}, "lives"), ({"max_steps": -3}, "max_steps"),
    ({"speed": 2}, "takes no option 'speed'"), ({"map": "no-such-map"}, "no-such-map"),
    ({"map": "HARD1", "generate_options": {"start": (1, 1)}}, "generate_options"),
    pytest.param({"render_mode": "text"}, "render_mode",  # Gymnasium warns first, then we refuse
                 marks=pytest.mark.filterwarnings("ignore:.*render_mode:UserWarning")),
])
def test_options_are_checked_when_the_env_is_made(kwargs, words):
    with pytest.raises(UsageError, match=words):
        gymnasium.make("logic_agents/Daggers-v0", **kwargs)


def test_observations_hold_what_the_game_turns_on_as_small_integers():
    env = gymnasium.make("logic_agents/Ooze-v0").unwrapped
    queues = set()
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        queues.add(tuple(obs["counters"]))
        assert env.counter_names[:3] == ["clock", "score", "next flow"]
    assert len(queues) > 1  # six seeds, six queues: the policy sees them
    daggers = gymnasium.make("logic_agents/Daggers-v0", map="HARD1", lives=3).unwrapped
    obs, _ = daggers.reset(seed=0)
    assert daggers.counter_names[0] == "lives" and obs["counters"][0] == 3
    for game in GAMES:
        space = gymnasium.make(lg.env_id(game)).unwrapped.observation_space
        assert set(space) == {"kinds", "numbers", "glyphs", "counters"}
        assert all(space[k].high.max() <= 999 for k in ("kinds", "numbers", "glyphs"))


def test_renders_show_what_a_person_sees():
    env = gymnasium.make("logic_agents/Daggers-v0", map="EASY1", render_mode="ansi").unwrapped
    env.reset(seed=0)
    text = env.render()
    assert "\x1b[" in text  # colours: a covered cell and an opened empty one differ
    board = env.encoding.view.board(env.observation)
    kinds = {board.tile(r, c).kind for r in range(board.rows) for c in range(board.cols)}
    assert {"covered", "open"} <= kinds
    image = gymnasium.make("logic_agents/Daggers-v0", map="EASY1",
                           render_mode="rgb_array").unwrapped
    image.reset(seed=0)
    pixels = image.render()
    p = lg.TILE_PIXELS
    assert pixels.shape == (board.rows * p, board.cols * p, 3)
    drawn = {}
    for r in range(board.rows):
        for c in range(board.cols):
            tile = board.tile(r, c)
            square = pixels[r * p + 1:(r + 1) * p, c * p + 1:(c + 1) * p]
            colours = len(np.unique(square.reshape(-1, 3), axis=0))
            assert colours == (2 if tile.text else 1), (tile, colours)  # what it shows is inked
            drawn.setdefault(tile.text, square.tobytes())
    numbers = [t for t in drawn if t.isdigit()]
    assert len(numbers) >= 2 and len({drawn[t] for t in numbers}) == len(numbers)  # 1 is not 2


@pytest.mark.parametrize("game", GAMES)
def test_an_env_pickles_mid_episode_and_plays_on_the_same(game):
    env = gymnasium.make(lg.env_id(game)).unwrapped
    _play_masked(env, 2, 3, np.random.default_rng(0))
    copy = pickle.loads(pickle.dumps(env))
    index = int(np.flatnonzero(env.action_masks())[0]) if env.action_masks().any() else 0
    a, b = env.step(index), copy.step(index)
    assert all((a[0][k] == b[0][k]).all() for k in a[0]) and a[1:4] == b[1:4]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_envs_run_every_game(mode):
    for game in GAMES:
        envs = gymnasium.make_vec(lg.env_id(game), num_envs=2, vectorization_mode=mode)
        try:
            obs, info = envs.reset(seed=[1, 2])
            for _ in range(3):
                masks = info["action_mask"]
                actions = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])
                obs, reward, terminated, truncated, info = envs.step(actions)
                assert reward.shape == (2,) and obs["kinds"].shape[0] == 2
        finally:
            envs.close()


def test_gymnasium_make_imports_the_module_itself():
    code = ("import gymnasium\n"
            "env = gymnasium.make('logic_agents.gym:logic_agents/Daggers-v0', map='EASY1')\n"
            "print(env.reset(seed=0)[1]['map'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "EASY1", done.stderr


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


def test_the_sat_teachers_labels_are_proofs_over_thousands_of_boards():
    """A move the teacher proves safe never loses a life, and a cell it proves dangerous
    holds a dagger: 2,400 random boards of three presets (one of them hexagonal)."""
    rng = np.random.default_rng(7)
    taught = proofs = 0
    for preset in ("cs5011-easy", "nettle-easy", "tornado-small"):
        env = lg.SatTeacher(gymnasium.make("logic_agents/Daggers-v0", map=preset))
        game = env.unwrapped
        for seed in range(800):
            obs, info = env.reset(seed=seed)
            for _ in range(3):
                daggers = game.world.hidden_state().daggers
                board = game.encoding.view.board(game.observation)
                marked = {(r - board.origin[0], c - board.origin[1])
                          for r, c in zip(*np.nonzero(info["proved_dangerous"]))}
                assert marked <= daggers, (preset, seed)
                proofs += len(marked)
                if not info["proved_safe"]:
                    break
                lives = game.observation.lives
                obs, reward, terminated, truncated, info = env.step(int(rng.choice(
                    info["proved_safe"])))
                assert reward >= 0 and game.observation.lives >= lives, (preset, seed)  # gold adds
                taught += 1
                if terminated or truncated:
                    break
    assert taught > 1500 and proofs > 100


@pytest.mark.parametrize("checker", [True, "dratify"])
def test_the_teachers_labels_are_certified(checker):
    # the same labels as without --certify, every UNSAT answer under them certified
    plain = lg.SatTeacher(gymnasium.make("logic_agents/Daggers-v0", map="HARD2"))
    sure = lg.SatTeacher(gymnasium.make("logic_agents/Daggers-v0", map="HARD2"), certify=checker)
    for seed in range(3):
        _, told = plain.reset(seed=seed)
        _, info = sure.reset(seed=seed)
        for _ in range(20):
            assert info["proved_safe"] == told["proved_safe"]
            assert (info["proved_dangerous"] == told["proved_dangerous"]).all()
            assert info["claims"] == info["certified"] and "claims" not in told
            if not info["proved_safe"]:
                break
            move = info["proved_safe"][0]
            *_, done, cut, told = plain.step(move)
            *_, done, cut, info = sure.step(move)
            if done or cut:
                break
        assert info["claims"] > 0


def test_a_rejected_proof_under_a_label_raises(monkeypatch):
    from logic_agents.errors import UncertifiedClaim
    from logic_agents.logic import certify

    monkeypatch.setattr(certify, "check_claim", lambda *a: certify.Certificate(
        False, 0, "drup", 0.0, "drup rejected the proof at step 1: the empty clause does not "
        "follow"))
    env = lg.SatTeacher(gymnasium.make("logic_agents/Daggers-v0", map="HARD2"), certify=True)
    with pytest.raises(UncertifiedClaim, match="drup rejected the proof"):
        for seed in range(5):
            env.reset(seed=seed)


def test_the_teacher_refuses_an_unknown_checker():
    with pytest.raises(UsageError, match="choose one of drup, dratify"):
        lg.SatTeacher(gymnasium.make("logic_agents/Daggers-v0"), certify="kissat")


def test_the_teacher_needs_a_game_that_proves():
    with pytest.raises(UsageError, match="Proofs"):
        lg.SatTeacher(gymnasium.make("logic_agents/Sudoku-v0"))


def test_oozes_mask_marks_only_moves_the_rules_take():
    """Issue 54: on an empty board Ooze's mask allowed 49 `destroy` moves, which the world
    turned into waits. Now a destroy is marked only on a piece the ooze has not entered, a
    place only on an empty cell, never the source."""
    env = gymnasium.make("logic_agents/Ooze-v0")
    obs, info = env.reset(seed=0)
    inner = env.unwrapped

    def marked(mask):
        kinds: dict[str, list] = {}
        for index in np.flatnonzero(mask):
            action = inner.encoding.action(inner.observation, int(index), inner._look.extent)
            kinds.setdefault(action.kind, []).append(action)
        return kinds

    first = marked(info["action_mask"])
    assert "destroy" not in first and len(first["wait"]) == 1
    place = first["place"][0]
    obs, reward, terminated, truncated, info = env.step(
        int(next(i for i in np.flatnonzero(info["action_mask"])
                 if inner.encoding.action(inner.observation, int(i), inner._look.extent)
                 == place)))
    after = marked(info["action_mask"])
    assert [a.cell for a in after.get("destroy", [])] == [place.cell]
    assert place.cell not in {a.cell for a in after["place"]}


def test_probes_only_is_the_wrapper_the_rl_example_needs():
    """Issue 54: the reward wrapper a Daggers policy needs (probes only, a little for each
    cell opened) lived only in examples/train_maskable_ppo.py; it is logic_agents.gym's."""
    env = lg.ProbesOnly(gymnasium.make("logic_agents/Daggers-v0", map="cs5011-easy"))
    plain = gymnasium.make("logic_agents/Daggers-v0", map="cs5011-easy")
    obs, info = env.reset(seed=3)
    plain.reset(seed=3)
    cells = len(env.unwrapped.encoding.cells)
    mask = env.action_masks()
    assert (mask == info["action_mask"]).all() and mask.any() and not mask[cells:].any()
    assert plain.unwrapped.action_masks()[cells:].any()  # the flags it leaves out
    probe = int(np.flatnonzero(mask)[0])
    covered = env.left
    obs, reward, terminated, truncated, info = env.step(probe)
    _, world_reward, *_ = plain.step(probe)
    opened = covered - env.left
    assert opened >= 1 and reward == pytest.approx(float(world_reward) + 0.05 * opened)
    with pytest.raises(UsageError, match="Daggers env"):
        lg.ProbesOnly(gymnasium.make("logic_agents/Sudoku-v0"))
