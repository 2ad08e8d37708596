"""A search budget shared by the baseline searches of every game: a node cap and a time cap.

Concepts: Budget.start() arms it; tick() counts nodes and raises BudgetExceeded (with the cap
that ran out) past either cap. The clock is read only every 1024 nodes, so ticking is cheap.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class BudgetExceeded(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Budget:
    node_cap: int | None = None
    time_cap: float | None = None
    nodes: int = 0

    def start(self) -> Budget:
        self.nodes = 0
        self.deadline = None if self.time_cap is None else time.perf_counter() + self.time_cap
        return self

    def tick(self, n: int = 1) -> None:
        self.nodes += n
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise BudgetExceeded(f"node cap {self.node_cap}")
        if (self.deadline is not None and self.nodes % 1024 < n
                and time.perf_counter() > self.deadline):
            raise BudgetExceeded(f"time cap {self.time_cap:g}s")
