"""An agent file whose module-level code never ends (tests/test_fair_play.py)."""

while True:
    pass


class Never:
    def reset(self, seed=None):
        pass

    def act(self, obs):
        return None
