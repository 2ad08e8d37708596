"""Moved (issue 40: the helpers generators write files with belong with the generator
contract): logic_agents.generated is now logic_agents.world.generated. Importing a name from
here says so."""


def __getattr__(name: str) -> object:
    raise ImportError(f"logic_agents.generated.{name} moved: import it from "
                      "logic_agents.world.generated")
