"""An agent file whose module-level code takes 3 GiB (tests/test_fair_play.py)."""

HOARD = bytearray(3 << 30)


class Hoarder:
    def reset(self, seed=None):
        pass

    def act(self, obs):
        return None
