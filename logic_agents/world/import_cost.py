"""What importing a game's entry point costs its commands (`games --check`, the load check).

A plug-in's entry point is imported by every command of its game, by every listing of the
games (`games`, `maps`), and whenever the built-in games cannot place a reference, so what its
module imports at its top is paid there: a module-level `from sympy import ...` costs each of
them about 0.3 s. import_cost(module) imports the
module in a fresh process, after the built-in games (so the framework's own modules are
already there and only the plug-in's own cost counts), and says how long it took (CPU time,
which a busy machine stretches less than wall time) and which heavy libraries it loaded.

Concepts: HEAVY (libraries no entry point should import at its top: sympy, the extras);
IMPORT_BUDGET_S (what a plug-in's own import may cost: the built-in games' own cost is 20 to
50 ms); ImportCost; import_cost.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass

HEAVY = ("sympy", "matplotlib", "pandas", "ray", "textual", "torch")
IMPORT_BUDGET_S = 0.1
PROBE_LIMIT_S = 60.0  # the trial import (world.trial) already stopped a hang at 10 s
BUILT_IN = ("daggers", "sudoku", "undead", "mazes", "ooze")

_PROBE = """
import importlib, json, os, sys, time
for game in sys.argv[2].split(","):
    importlib.import_module("logic_agents.games." + game)
before = set(sys.modules)
started = time.process_time()
importlib.import_module(sys.argv[1])
spent = time.process_time() - started
heavy = sorted(h for h in sys.argv[3].split(",") if h in sys.modules and h not in before)
print(json.dumps({"seconds": spent, "heavy": heavy}), flush=True)
os._exit(0)  # a thread the module started must not keep the probe alive
"""


@dataclass(frozen=True)
class ImportCost:
    """What importing a module cost: CPU seconds, and the heavy libraries it loaded."""

    seconds: float
    heavy: tuple[str, ...]

    def words(self) -> str:
        """Why the import is too heavy, or "" when it is not."""
        out = []
        if self.heavy:
            out.append(f"its entry point imports {', '.join(self.heavy)} at its top, which every "
                       "command of the game then pays (import it inside the function that "
                       "needs it)")
        if self.seconds > IMPORT_BUDGET_S:
            out.append(f"importing its entry point takes {1000 * self.seconds:.0f} ms of CPU "
                       f"(over {1000 * IMPORT_BUDGET_S:.0f} ms), which every command of the game pays")
        return "; ".join(out)


def import_cost(module: str) -> ImportCost:
    """The cost of importing `module` after the built-in games, in a fresh process."""
    probe = subprocess.Popen([sys.executable, "-c", _PROBE, module, ",".join(BUILT_IN),
                              ",".join(HEAVY)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:  # the probe and whatever the module started die with the check, or at its limit
        out, _ = probe.communicate(timeout=PROBE_LIMIT_S)
    except subprocess.TimeoutExpired:
        out = ""
    finally:
        with contextlib.suppress(OSError):
            os.killpg(probe.pid, signal.SIGKILL)
        probe.wait()
    lines = out.strip().splitlines()
    if probe.returncode != 0 or not lines:
        return ImportCost(0.0, ())  # the import itself fails: the load check says why
    found = json.loads(lines[-1])
    return ImportCost(float(found["seconds"]), tuple(found["heavy"]))
