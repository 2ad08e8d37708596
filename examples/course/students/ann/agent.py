"""A submission of two files: the helper module sits beside it."""
from helpers import first_covered


class Agent:
    def reset(self, seed=None):
        pass

    def act(self, obs):
        return first_covered(obs)
