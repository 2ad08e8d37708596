from logic_agents.games.daggers import COVERED, probe


class Agent:
    def reset(self, seed=None):
        pass

    def act(self, obs):
        for k in range(20_000):
            print("eve thinks", k)
        for r, row in enumerate(obs.grid):
            for c, value in enumerate(row):
                if value == COVERED:
                    return probe(r, c)
        return None
