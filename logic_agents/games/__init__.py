"""One room per game, each with the same parts: board, world, encode, agents, render.

`logic_agents.games` is this package and nothing else. The registry's call is
`logic_agents.registered_games()`; it was `logic_agents.games()` before, which Python could
not keep apart from this package (a package's submodules are bound as attributes of their
parent), so an old call of it raises an error that names the new one.
"""

import sys
import types

from logic_agents.errors import UsageError


class _Package(types.ModuleType):
    def __call__(self) -> None:
        """An old `logic_agents.games()`: say where the call is now."""
        raise UsageError("logic_agents.games is the package of the built-in games; the list of "
                         "registered games is logic_agents.registered_games()")


sys.modules[__name__].__class__ = _Package
