"""A Daggers agent with a bug, to see what `play` and `compare` do with a failing agent
(docs/write-an-agent.md, "When your agent fails"): it probes the first covered cell, then
divides by zero on its second move."""

from logic_agents.games.daggers.world import DaggersAction


class Broken:
    def reset(self, seed=None):
        self.moves = 0

    def act(self, observation):
        self.moves += 1
        if self.moves == 2:
            return self.moves / 0
        return DaggersAction("probe", observation.unknown_cells()[0])
