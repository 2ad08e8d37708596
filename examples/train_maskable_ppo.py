"""Train MaskablePPO on Daggers boards a seed draws, then play it in `compare` beside satx.

    pip install 'logic-agents[rl]'          # sb3-contrib, stable-baselines3, torch
    python examples/train_maskable_ppo.py --steps 100000 --boards 100

The env draws a fresh `cs5011-easy` board (5x5, 4 daggers, 1 gold, the course's EASY size) for
every episode, from the episode's seed; the policy sees the board as small integer channels
and the mask of the moves the rules allow (`action_masks()`, which MaskablePPO reads). The
world's reward alone (+1 a win, -1 a dagger) teaches a policy to stall: flagging and
unflagging one cell until the step cap never loses (a first run of this script learnt
exactly that: 1% wins, 98 steps a game). So the policy here only probes
(`logic_agents.gym.ProbesOnly`: the mask
less the flag indices, in training and in the study alike), and training adds 0.05 for each
cell a probe opens; the study counts wins. After
training, the policy plays as an agent (logic_agents.gym.PolicyAgent) on boards it never
trained on (written by `logic-agents generate` from another seed), beside a masked random
policy and satx, with paired seeds, and the study's table and paired tests are printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gymnasium
from sb3_contrib import MaskablePPO

import logic_agents as la
import logic_agents.gym as lg

PRESET = "cs5011-easy"


class ProbingRandom(lg.MaskedRandom):
    """A random probe among those the rules allow (its own seeded RNG)."""

    def __init__(self, encoding) -> None:
        super().__init__()
        self.encoding = encoding

    def __call__(self, observation, mask):
        return super().__call__(observation, lg.probes_only(mask, self.encoding))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100_000, help="training steps")
    parser.add_argument("--boards", type=int, default=100, help="held-out boards in the study")
    parser.add_argument("--runs", type=int, default=5, help="runs per board and agent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = lg.ProbesOnly(gymnasium.make("logic_agents/Daggers-v0", map=PRESET))
    model = MaskablePPO("MultiInputPolicy", env, seed=args.seed, verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps} steps in {time.perf_counter() - started:.0f} s")

    encoding = env.unwrapped.encoding

    def trained() -> lg.PolicyAgent:
        return lg.PolicyAgent(
            lambda obs, mask: int(model.predict(
                obs, action_masks=lg.probes_only(mask, encoding), deterministic=True)[0]),
            "daggers", "maskable-ppo", encoding)

    trained.name = "maskable-ppo"  # type: ignore[attr-defined]
    masked = lg.policy_agent(lg.MaskedRandom, "daggers", "masked-random", encoding)
    # the same random policy, probing only: the untrained baseline of the trained one
    probing_random = lg.policy_agent(lambda: ProbingRandom(encoding), "daggers",
                                     "probing-random", encoding)
    with tempfile.TemporaryDirectory() as folder:
        held_out = Path(folder) / "held-out"
        subprocess.run([sys.executable, "-m", "logic_agents", "generate", "daggers", "--preset",
                        PRESET, "--count", str(args.boards), "--seed", "999", "-o",
                        str(held_out)], check=True, capture_output=True)
        study = la.compare([trained, probing_random, masked, "satx"], [str(held_out)],
                           runs=args.runs,
                           seed=args.seed, jobs=1, progress=False)
    for name, stats in study["agents"].items():
        low, high = stats["ci95"]
        print(f"{name}: won {stats['wins']} of {stats['games']} ({100 * stats['win_rate']:.1f}% "
              f"[{100 * low:.1f}, {100 * high:.1f}]), {stats['mean_steps']:.1f} steps a game")
    for pair in study.pairs:
        better = pair["better"] or "neither"
        print(f"{pair['a']} vs {pair['b']}: {pair['paired_games']} paired games; only "
              f"{pair['a']} won {pair['only_a_won']}, only {pair['b']} won {pair['only_b_won']};"
              f" exact McNemar p = {pair['p_value']:.3g}: {better} is better"
              if pair["significant"] else
              f"{pair['a']} vs {pair['b']}: no significant difference (p = "
              f"{pair['p_value']:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
