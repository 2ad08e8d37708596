"""One room per game, each with the same parts: board, world, encode, agents, render.

`logic_agents.games` is also the API call `logic_agents.games()`: every registered game by
name. Python binds a package's submodules as attributes of their parent, so once any game is
imported, `logic_agents.games` is this package, whatever `logic_agents/__init__.py` set; the
package is therefore made callable, and both spellings mean the same thing.
"""

import sys
import types

from logic_agents.ground.shapes import Record


class _CallablePackage(types.ModuleType):
    def __call__(self) -> Record:
        """Every game that loads (built-in and plug-ins), by name."""
        from logic_agents.world.registry import games

        return games()


sys.modules[__name__].__class__ = _CallablePackage
