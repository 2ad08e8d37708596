"""Child process of bench_prob.py: plays `prob` (with default settings) on generated games
and prints one JSON line per game, {"name", "board", "cpu_s", "won", "moves"} ("moves": a
digest of the game's actions, outcome and guesses, to compare two builds game by game). With
BENCH_REPLAY=1 in its environment each line also has "replay_cpu_s": the CPU of playing the
same actions again on a fresh world by an agent that only hands them back, the world's and
the runner's share of the game (what no agent can go below). It
imports logic_agents from PYTHONPATH, so the same script plays the working tree or another
revision's checkout.

Usage: python benchmarks/_prob_games.py PRESET COUNT GEN_SEED ROW,COL FIRST LAST PLAY_SEED
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator

from logic_agents.games.daggers.board import format_map
from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.games.daggers.prob import ProbAgent
from logic_agents.games.daggers.world import DaggersWorld
from logic_agents.world.core import Outcome
from logic_agents.world.runner import run_episode


def games(preset: str, count: int, gen_seed: int, start: tuple[int, int], first: int,
          last: int, play_seed: str):
    """(board, play seed) of games first..last-1 of `count`: every script that plays the
    records' games (bench_prob.py, prob_losses.py) plays exactly these."""
    boards = generate_maps(PRESETS[preset], count, gen_seed, start, True)
    for board in boards[first:last]:
        yield board, int.from_bytes(hashlib.blake2b(f"{play_seed}:{board.name}".encode(),
                                                    digest_size=4).digest(), "big")


class Replay:
    """An agent that thinks nothing: it hands back the actions of a game already played."""

    def __init__(self, actions: list[object]):
        self.actions = actions

    def reset(self, seed: int | None = None) -> None:
        self.next: Iterator[object] = iter(self.actions)

    def act(self, observation: object) -> object:
        return next(self.next, None)


def main() -> int:
    preset, count, gen_seed, start, first, last, play_seed = sys.argv[1:8]
    cell = tuple(int(x) for x in start.split(","))
    for board, seed in games(preset, int(count), int(gen_seed), (cell[0], cell[1]), int(first),
                             int(last), play_seed):
        moves: list[str] = []
        actions: list[object] = []

        def seen(obs: object, action: object, reward: object, moves: list[str] = moves,
                 actions: list[object] = actions) -> None:
            moves.append(f"{action.kind}{action.cell}")  # type: ignore[attr-defined]
            actions.append(action)

        started = time.process_time()
        result = run_episode(DaggersWorld(board), ProbAgent(), seed=seed, on_step=seen)
        cpu = time.process_time() - started
        replay: dict[str, float] = {}
        if os.environ.get("BENCH_REPLAY") == "1":
            started = time.process_time()
            again = run_episode(DaggersWorld(board), Replay(actions), seed=seed)
            replay["replay_cpu_s"] = time.process_time() - started
            assert (again.outcome, again.steps) == (result.outcome, result.steps), board.name
        trajectory = " ".join(moves) + f"|{result.outcome}|{result.guesses}"
        board_hash = hashlib.blake2b(format_map(board).encode(), digest_size=8).hexdigest()
        print(json.dumps({"name": board.name, "board": board_hash, "cpu_s": cpu,
                          "won": result.outcome is Outcome.WON,
                          "moves": hashlib.blake2b(trajectory.encode(),
                                                   digest_size=8).hexdigest(), **replay}),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
