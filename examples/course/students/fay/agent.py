from logic_agents.games.daggers import COVERED, probe


class Agent:
    name = "spx"  # the name of a registered agent: the study renames her spx-2

    def reset(self, seed=None):
        pass

    def act(self, obs):
        for r, row in enumerate(obs.grid):
            for c, value in enumerate(reversed(row)):
                if value == COVERED:
                    return probe(r, len(row) - 1 - c)
        return None
