"""logic-agents: agents that play and solve logic games by reasoning with SAT.

Public API (the command line is built on the same calls):

- load(ref, game=None): an instance from a file, FILE:K, a shipped map's name or an instance
  written inline; the game is detected when not given.
- play(ref, agent=None, *, game=None, seed=0, **options): one episode; an EpisodeResult that
  names its game and map.
- compare(agents, refs, *, runs=10, seed=0, ...): a paired study, a Study (rows, summary,
  pairs, by_map, to_pandas, to_html), with a progress display where someone watches.
- view(ref, agent=None, *, output=None, ...): one episode's game page (HTML), as `view`
  writes it; a notebook shows it, playable, in a frame.
- board(ref, *, game=None, seed=0, observation=None): the board a person sees, which a
  notebook draws as the game page's SVG (an EpisodeResult from play shows its last board too).
- solve(ref, *, game=None, unique=True): a static puzzle's Answer (status, solution, second
  solution).
- registered_games(): every registered game (built-in and plug-ins), by name; register(spec)
  adds one. (`logic_agents.games` is the package of the built-in games.)
- make_world, make_agent, run_episode: the pieces, for your own loop.

Agents are registered names, "file.py:Class" / "package.module:Class" references, agent
classes or factories (callables that return a fresh agent), and for play an agent object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from logic_agents import games as games  # the built-in games; an old games() call: see it
from logic_agents._version import __version__
from logic_agents.errors import LogicAgentsError
from logic_agents.ground import moved as _moved
from logic_agents.ground.lazy import LazyNames as _LazyNames

_moved.install()  # an old module path says where it went (issue 40's layout)

if TYPE_CHECKING:  # what a type checker and an editor see; at run time __getattr__ imports
    from logic_agents.api import (
        board,
        compare,
        load,
        make_agent,
        make_world,
        play,
        register,
        registered_games,
        solve,
        view,
    )
    from logic_agents.study.results import Study
    from logic_agents.world.runner import run_episode

# each call's home: the API is imported on first use, so `import logic_agents` is light
_HOMES = {**dict.fromkeys(("board", "compare", "load", "make_agent", "make_world", "play",
                           "register", "registered_games", "solve", "view"), "logic_agents.api"),
          "Study": "logic_agents.study.results", "run_episode": "logic_agents.world.runner"}

__all__ = ["LogicAgentsError", "Study", "__version__", "board", "compare", "load", "make_agent",
           "make_world", "play", "register", "registered_games", "run_episode", "solve", "view"]


_LAZY = _LazyNames(__name__, _HOMES)
__getattr__ = _LAZY.attribute


def __dir__() -> list[str]:
    return _LAZY.listed(globals())


del TYPE_CHECKING, annotations  # not part of the API (the annotations stay strings)
