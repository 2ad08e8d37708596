"""docs/write-a-game.md and the code say the same thing: every field, method and name the
guide's tables put in code type exists where the guide says (GameSpec and its capabilities,
the world and agent bases, the errors)."""

import dataclasses
import re

from logic_agents import errors, gym
from logic_agents.world import base, check, contract, core, import_cost, registry, runner, spec, values, view

from .conftest import ROOT

GUIDE = ROOT / "docs" / "write-a-game.md"


class _World(base.WorldBase):
    """The smallest world (WorldBase is abstract): what a game's world has once made."""

    def play(self, action):
        return 0.0, {}

    def observe(self):
        return ()

# where a name the guide uses may live
PLACES = [spec.GameSpec, spec.Instances, spec.Actions, spec.Puzzle, spec.Generator,
          spec.GenerateRequest, spec.Detection, spec.Inline, spec.Results, spec.CnfLegend,
          spec.Shipped, spec.Lives, spec.AgentEntry, spec,
          view.View, view.Controls, view.BoardView, base.WorldBase, base.PuzzleWorld,
          base.CellAction, base.PlanningAgent, core.Outcome, errors, base, check, contract,
          registry, runner, view, core, values.Proofs, values.Prover, values, gym, import_cost, _World(),
          base.PlanningAgent()]
# the command line's verbs (one module each in logic_agents/cli/)
VERBS = {p.stem for p in (ROOT / "logic_agents" / "cli").glob("*.py")}
NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)(?=[(=`\[ ])")


def known(name: str) -> bool:
    if name in VERBS:
        return True
    head, _, rest = name.removeprefix("self.").partition(".")
    for place in PLACES:
        fields = ({f.name for f in dataclasses.fields(place)}
                  if dataclasses.is_dataclass(place) else set())
        if head in fields or hasattr(place, head):
            target = getattr(place, head, None)
            return not rest or target is None or hasattr(target, rest.split(".")[0])
    return False


def test_every_name_in_the_guides_tables_exists():
    rows = [line for line in GUIDE.read_text().splitlines() if line.startswith("|")]
    names = {m.group(1) for line in rows for m in NAME.finditer(line)}
    # words in code type that are not the contract's names: values, flags, example names
    names -= {"true", "false", "win", "score", "akari", "bulb", "clear", "obs", "x", "text",
              "instance", "action", "observation", "path", "file", "result", "moves",
              "height", "width", "source", "name", "h",
              "str", "Text", "lives_left"}  # a type, rich's Text, a result key
    missing = sorted(n for n in names if not known(n))
    assert not missing, f"docs/write-a-game.md names what the code does not have: {missing}"


def test_the_check_sees_a_name_that_does_not_exist():
    assert known("instances") and known("WorldBase") and known("Outcome.WON")
    assert not known("example_instance") and not known("render_markup")  # gone in the new spec
