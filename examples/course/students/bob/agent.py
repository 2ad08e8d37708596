class Agent:
    def reset(self, seed=None) pass
