"""Broken Daggers agents, one fault each, as students write them (tests/test_faulty_agents.py
plays them). Each plays the first covered cell until its fault strikes."""

import os
import sys

from logic_agents.games.daggers.world import DaggersAction


class Plain:
    def reset(self, seed=None):
        self.moves = 0

    def act(self, obs):
        self.moves += 1
        return DaggersAction("probe", obs.unknown_cells()[0])


class RaisesInAct(Plain):
    def act(self, obs):
        if self.moves >= 1:
            return 1 / 0
        return super().act(obs)


class RaisesInInit(Plain):
    def __init__(self):
        raise ValueError("no init for you")


class RaisesInReset(Plain):
    def reset(self, seed=None):
        raise RuntimeError("no reset for you")


class RaisesInStats(Plain):
    def stats(self):
        raise LookupError("no stats for you")


class RaisesInClose(Plain):
    def close(self):
        raise OSError("no close for you")


class RaisesInWhy(Plain):
    @property
    def why(self):
        raise TypeError("no why for you")


class Banana(Plain):
    def act(self, obs):
        return "banana"


class FortyTwo(Plain):
    def act(self, obs):
        return 42


class FloatCell(Plain):
    def act(self, obs):
        return DaggersAction("probe", (0.0, 1.5))


class OffTheBoard(Plain):
    def act(self, obs):
        return DaggersAction("probe", (99, 99))


class ExitsThree(Plain):
    def act(self, obs):
        sys.exit(3)


class ExitsZero(Plain):
    def act(self, obs):
        sys.exit(0)


class HardExit(Plain):
    def act(self, obs):
        os._exit(5)


class Interrupts(Plain):
    def act(self, obs):
        raise KeyboardInterrupt


class Loops(Plain):
    def act(self, obs):
        while True:
            pass


class StuckInC(Plain):
    """A C loop that never looks at signals: the alarm cannot stop it, only a kill can."""

    def act(self, obs):
        return sum(range(10**14))


class Prints(Plain):
    def act(self, obs):
        print("thinking out loud")
        return super().act(obs)


class HugeCounter(Plain):
    def stats(self):
        return {"nodes": 10**16}


class EnormousCounter(Plain):
    def stats(self):
        return {"nodes": 10**5000}  # past Python's own limit on printing an int


class SlowToSay(Exception):
    def __str__(self):
        import time

        time.sleep(1.0)  # past a 0.5 s move cap, while the framework reads the error
        return "slow to say"


class RaisesSlowly(Plain):
    def act(self, obs):
        raise SlowToSay()


class Hog(Plain):
    def act(self, obs):
        return [bytearray(1 << 20) for _ in range(1 << 16)]


def not_a_factory(x):
    return x
