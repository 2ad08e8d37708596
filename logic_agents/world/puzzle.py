"""Moved (issue 40: the world imports no logic): logic_agents.world.puzzle is now
logic_agents.solving.puzzle. Importing a name from here says so."""


def __getattr__(name: str) -> object:
    raise ImportError(f"logic_agents.world.puzzle.{name} moved: import it from "
                      "logic_agents.solving.puzzle")
