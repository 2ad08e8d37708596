"""satx's moves are fixed: each agent's trajectory (every action, the outcome and the number
of guesses) on the 30 official maps x 10 seeds has the digest recorded in
data/trajectories.json, written by the code before DaggersKB took over satx's knowledge
(issue 27). A change that moves any game of satx, its variants or prob fails here, by name. prob finds
its certain cells from the exact odds, or from SAT when asked or explaining: both routes must
play prob's recorded games."""

import hashlib
import json
from pathlib import Path

import pytest

from logic_agents.games.daggers import DaggersWorld, load
from logic_agents.games.daggers.agents import SatAgent
from logic_agents.games.daggers.prob import ProbAgent
from logic_agents.world.runner import run_episode

RECORDED = json.loads((Path(__file__).parent / "data" / "trajectories.json").read_text())
MAPS = Path(__file__).resolve().parents[3] / "logic_agents" / "maps" / "daggers" / "2018"
AGENTS = {
    "satx": SatAgent,
    "satx-explain": lambda: SatAgent(explain=lambda lines: None),
    "satx-nogc": lambda: SatAgent(global_count=False),
    "satx-rebuild": lambda: SatAgent(incremental=False),
    "prob": ProbAgent,
    # the odds route and SAT's find the same certain cells in the same order: same games
    "prob-sat": lambda: ProbAgent(certainties="sat"),
    "prob-explain": lambda: ProbAgent(explain=lambda lines: None),
}
RECORDED_AS = {"prob-sat": "prob", "prob-explain": "prob"}


class SeededAs:
    """The agent reset with the game's own seed, as the recorded games gave it: the step loop
    now gives an agent a seed of its own, derived from the game's (issue 52), and the record
    pins what satx does with a seed, not how the loop derives one."""

    def __init__(self, agent, seed: int):
        self.agent, self.seed, self.name = agent, seed, agent.name

    def reset(self, seed=None):
        self.agent.reset(self.seed)

    def act(self, observation):
        return self.agent.act(observation)

    @property
    def why(self):
        return self.agent.why

    def stats(self):
        return self.agent.stats()


def digest(board, make, seed: int) -> str:
    moves: list[str] = []
    result = run_episode(DaggersWorld(board), SeededAs(make(), seed), seed=seed,
                         on_step=lambda obs, action, reward: moves.append(
                             f"{action.kind}{action.cell}"))
    text = " ".join(moves) + f"|{result.outcome}|{result.guesses}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_every_trajectory_is_as_recorded(agent):
    boards = [load(path) for path in sorted(MAPS.glob("*.txt"))]
    assert len(boards) == 30
    recorded = RECORDED_AS.get(agent, agent)
    moved = [f"{board.name} seed {seed}" for board in boards for seed in range(10)
             if digest(board, AGENTS[agent], seed) != RECORDED[f"{recorded}/{board.name}/{seed}"]]
    assert not moved, f"{agent} plays differently on {len(moved)} of 300 games: {moved[:5]}"


def test_both_certainty_routes_play_the_same_generated_games():
    """Beyond the official maps: classic, hex and gold boards, the odds route and the SAT route
    play every game the same."""
    from logic_agents.games.daggers.generate import PRESETS, generate_maps

    for preset in ("intermediate", "tornado-medium", "cs5011-hard"):
        for i, board in enumerate(generate_maps(PRESETS[preset], 12, seed=5)):
            assert digest(board, ProbAgent, i) == \
                digest(board, lambda: ProbAgent(certainties="sat"), i), (preset, board.name)
