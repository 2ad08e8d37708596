"""Old homes of modules that moved (issue 40's layout): importing one fails with words that
name the new home, instead of Python's bare "No module named ...".

Concepts: MOVED (old dotted name -> new one); MovedModules, a finder at the end of
sys.meta_path, asked only after every real finder found nothing.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

MOVED = {
    "logic_agents.arguments": "logic_agents.api.arguments",
    "logic_agents.batch": "logic_agents.study.batch",
    "logic_agents.entries": "logic_agents.study.entries",
    "logic_agents.rows": "logic_agents.study.rows",
    "logic_agents.study.study": "logic_agents.study.record",
    "logic_agents.summary": "logic_agents.study.summary",
    "logic_agents.results": "logic_agents.study.results",
    "logic_agents.ray_backend": "logic_agents.study.ray_backend",
    "logic_agents.terminal": "logic_agents.display.terminal",
    "logic_agents.progress": "logic_agents.display.progress",
    "logic_agents.human": "logic_agents.display.human",
    "logic_agents.tui": "logic_agents.display.tui",
    "logic_agents.plot": "logic_agents.display.plot",
    "logic_agents.inputs": "logic_agents.ground.inputs",
    "logic_agents.output": "logic_agents.ground.output",
    "logic_agents.generated": "logic_agents.world.generated",
    "logic_agents.world.puzzle": "logic_agents.solving.puzzle",
    "logic_agents.games.daggers.probability": "logic_agents.games.daggers.odds",
    "logic_agents.world.sandbox": "logic_agents.referee.clock",
    "logic_agents.world.processes": "logic_agents.referee.pool",
    "logic_agents.world.referee": "logic_agents.referee.remote",
    "logic_agents.world.players": "logic_agents.referee.players",
    "logic_agents.world.player": "logic_agents.referee.player",
    "logic_agents.world.containment": "logic_agents.referee.containment",
    "logic_agents.world.wire": "logic_agents.referee.wire",
}


class MovedModules(importlib.abc.MetaPathFinder):
    """Says where a moved module went; finds nothing else."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is not None:
            raise ModuleNotFoundError(f"{fullname} moved: import {new} instead", name=fullname)
        return None


def install() -> None:
    """Put the finder at the end of sys.meta_path, once."""
    if not any(isinstance(f, MovedModules) for f in sys.meta_path):
        sys.meta_path.append(MovedModules())
