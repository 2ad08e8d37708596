"""Broken plug-in games for `games --check`: copies of the Lights Out example with one fault
each (issue 39, item 4). FAULTS maps a fault's name to (module source, words the check must
say). tests.plugins installs them through the entry point, as a user's package would be.
"""

from __future__ import annotations

from pathlib import Path

from tests.plugins import install

PRELUDE = """
import dataclasses, functools, math, random, signal, sys, time, weakref
from dataclasses import dataclass
from lights_game import SPEC as _L
from lights_game.world import LightsObservation, LightsWorld
from logic_agents.world import spec
from logic_agents.world.view import BoardView, Controls, View

NAME = {name!r}
VIEW = _L.get(View)


def make(**changes):
    return dataclasses.replace(_L, name=NAME, **changes)


def swap(capability):
    return tuple(c for c in _L.capabilities if type(c) is not type(capability)) + (capability,)


@dataclass(frozen=True)
class Peeking(LightsObservation):
    peek: object = None


class Holder:
    __slots__ = ("held",)

    def __init__(self, held):
        self.held = held


def leaking(peek):
    class Leaky(LightsWorld):
        def observe(self):
            o = super().observe()
            return Peeking(o.puzzle, o.lights, o.step, peek(self))
    return Leaky
"""

FAULTS: dict[str, tuple[str, str]] = {
    "leak-method": ("SPEC = make(make_world=leaking(lambda w: w.solved))",
                    "holds a reference to the world"),
    "leak-weakref": ("SPEC = make(make_world=leaking(lambda w: weakref.ref(w)))",
                     "holds a reference to the world"),
    "leak-proxy": ("SPEC = make(make_world=leaking(lambda w: weakref.proxy(w)))",
                   "holds a weak proxy"),
    "leak-slots": ("SPEC = make(make_world=leaking(lambda w: Holder(w)))",
                   "holds a reference to the world"),
    "leak-closure": ("SPEC = make(make_world=leaking(lambda w: (lambda: w)))",
                     "holds a reference to the world"),
    "leak-partial": ("SPEC = make(make_world=leaking(lambda w: functools.partial(print, w)))",
                     "holds a reference to the world"),
    "leak-bound-dict": ("SPEC = make(make_world=leaking(lambda w: w.__dict__.get))",
                        "holds a reference to the world"),
    "step-after-end": ("""
class Endless(LightsWorld):
    def step(self, action):
        self._done = False
        return super().step(action)
SPEC = make(make_world=Endless)""", "accepted after the episode ended"),
    "render-raises": ("SPEC = make(render=lambda obs: 1 / 0)", "render raised ZeroDivisionError"),
    "render-int": ("SPEC = make(render=lambda obs: 42)", "render returned int"),
    "board-raises": ("SPEC = make(capabilities=swap(dataclasses.replace(VIEW, "
                     "board=lambda obs: {}['x'])))", "View.board raised KeyError"),
    "board-short": ("""
def board(obs):
    b = VIEW.board(obs)
    return dataclasses.replace(b, tiles=b.tiles[:-1])
SPEC = make(capabilities=swap(dataclasses.replace(VIEW, board=board)))""",
                    "tiles for a 5x5 board"),
    "board-not-a-board": ("SPEC = make(capabilities=swap(dataclasses.replace(VIEW, "
                          "board=lambda obs: 'board')))", "View.board returned str"),
    "controls-raise": ("SPEC = make(capabilities=swap(dataclasses.replace(VIEW, controls="
                       "dataclasses.replace(VIEW.controls, act=lambda obs, cell, key: 1 / 0))))",
                       "Controls.act raised ZeroDivisionError"),
    "sniff-raises": ("SPEC = make(capabilities=swap(spec.Detection(lambda t, f=None: 1 / 0)))",
                     "sniff raised ZeroDivisionError"),
    "sniff-str": ("SPEC = make(capabilities=swap(spec.Detection(lambda t, f=None: '2')))",
                  "sniff returned '2', not 0, 1 or 2"),
    "sniff-sleeps": ("SPEC = make(capabilities=swap(spec.Detection(lambda t, f=None: "
                     "time.sleep(60))))", "sniff ran past"),
    "sniff-greedy": ("SPEC = make(capabilities=swap(spec.Detection(lambda t, f=None: 2)))",
                     "claims a file it cannot read"),
    "sniff-blind": ("SPEC = make(capabilities=swap(spec.Detection(lambda t, f=None: 0)))",
                    "does not claim its own example"),
    "objective-banana": ("SPEC = make(objective='banana')", "objective must be one of"),
    "name-int": ("SPEC = make()\nobject.__setattr__(SPEC, 'name', 7)", "not the GameSpec"),
    "prints-at-import": ("print('hello from the plug-in')\nSPEC = make()",
                         "characters to stdout at import"),
    "sleeps-at-import": ("time.sleep(0.4)\nSPEC = make()", "s to import"),
    "hangs-at-import": ("time.sleep(60)\nSPEC = make()", "ran past its"),
    "exits-at-import": ("sys.exit(5)", "called sys.exit(5)"),
    # issue 54: what ends or holds the importing process is found in a trial process first
    "os-exit-at-import": ("import os\nos._exit(0)", "ended its process at once with exit "
                          "status 0"),
    "kills-itself-at-import": ("import os\nos.kill(os.getpid(), signal.SIGKILL)",
                               "killed its own process with SIGKILL"),
    "thread-at-import": ("import threading\nthreading.Thread(target=time.sleep, args=(600,), "
                         "name='forever').start()\nSPEC = make()",
                         "starts a thread that does not end ('forever', not a daemon)"),
    "stuck-in-c-at-import": ("import ctypes\nctypes.CDLL(None).sleep(600)\nSPEC = make()",
                             "ran past its 3 s limit; its trial process was killed"),
    "step-hangs": ("""
class Hang(LightsWorld):
    def apply(self, action):
        time.sleep(600)
SPEC = make(make_world=Hang)""", "ran past its"),
    "step-stuck-in-c": ("""
class Stuck(LightsWorld):
    def apply(self, action):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
        time.sleep(600)
SPEC = make(make_world=Stuck)""", "stuck in C"),
    "init-exits": ("""
class Exits(LightsWorld):
    def __init__(self, *a, **k):
        sys.exit(7)
SPEC = make(make_world=Exits)""", "called sys.exit(7)"),
    "reset-random": ("""
class Shuffled(LightsWorld):
    def begin(self):  # the system's randomness: no seed, no copy a fork could share
        super().begin()
        draw = random.SystemRandom()
        self._lights = [[draw.choice('*.') for _ in row] for row in self._lights]
SPEC = make(make_world=Shuffled)""", "reset(seed) gave two different observations"),
    "reward-nan": ("""
class NotANumber(LightsWorld):
    def play(self, action):
        reward, info = super().play(action)
        return math.nan, info
SPEC = make(make_world=NotANumber)""", "reward must be a finite number, not nan"),
    "reset-info-list": ("""
class BadInfo(LightsWorld):
    def reset(self, *, seed=None):
        obs, info = super().reset(seed=seed)
        return obs, []
SPEC = make(make_world=BadInfo)""", "reset must return (observation, info dict)"),
    "mutable-obs": ("""
class Mutable(LightsWorld):
    def observe(self):
        o = super().observe()
        return Peeking(o.puzzle, o.lights, o.step, [1])
SPEC = make(make_world=Mutable)""", "mutable list"),
    "codec-lossy": ("SPEC = make(capabilities=swap(spec.Observations(lambda o: {}, "
                    "lambda r: None)))", "decodes to another observation"),
    "example-missing": ("SPEC = make(example='no-such-map')", "no such map file"),
    "agent-missing": ("SPEC = make(default_agent='nobody')", "default agent 'nobody'"),
}


def source(name: str) -> str:
    """The module source of the fault `name`, its game named `broken-<name>`."""
    body, _ = FAULTS[name]
    return PRELUDE.format(name=f"broken-{name}") + "\n" + body + "\n"


def install_fault(root: Path, name: str) -> Path:
    """Install the fault `name` as the plug-in game `broken-<name>` under `root`."""
    return install(root, "broken_" + name.replace("-", "_"), source(name), entry=f"broken-{name}")
