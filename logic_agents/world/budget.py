"""A search budget shared by the baseline searches of every game: node, time and memory caps.

Concepts: Budget.start() arms it; tick() counts nodes and raises BudgetExceeded (with the cap
that ran out) past either cap. The clock is read only every 1024 nodes, so ticking is cheap.
Memory is estimated, not measured: a search reports what it holds (weigh: its live states
times their size; hold: bytes it keeps until it ends), so the cap stops the same search at the
same node on every machine and run, and a seed gives one trajectory whatever else is running.
DEFAULT_MEMORY_CAP is 2 GiB, or a quarter of the machine's memory when that is less.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

MIB = 1 << 20


def _default_memory_cap() -> int:
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        physical = 8 << 30
    return min(2 << 30, physical // 4)


DEFAULT_MEMORY_CAP = _default_memory_cap()
DEFAULT_MEMORY_CAP_MIB = DEFAULT_MEMORY_CAP // MIB


class BudgetExceeded(Exception):
    """A search passed one of its caps (nodes, time, memory); `reason` says which."""
    def __init__(self, reason: str):
        """The cap that stopped the search, in words."""
        super().__init__(reason)
        self.reason = reason


@dataclass
class Budget:
    """The caps of one search: nodes, seconds and estimated bytes; None is no cap."""

    node_cap: int | None = None
    time_cap: float | None = None
    memory_cap: int | None = DEFAULT_MEMORY_CAP  # bytes
    nodes: int = 0
    held: int = 0

    def start(self) -> Budget:
        """Start the clock and zero the counts; returns the budget."""
        self.nodes = 0
        self.held = 0
        self.deadline = None if self.time_cap is None else time.perf_counter() + self.time_cap
        return self

    def tick(self, n: int = 1) -> None:
        """Count `n` nodes, raising BudgetExceeded past a cap."""
        self.nodes += n
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise BudgetExceeded(f"node cap {self.node_cap}")
        if (self.deadline is not None and self.nodes % 1024 < n
                and time.perf_counter() > self.deadline):
            raise BudgetExceeded(f"time cap {self.time_cap:g}s")

    def weigh(self, live_bytes: int) -> None:
        """The search holds about `live_bytes` now; stop it past the memory cap."""
        if self.memory_cap is not None and live_bytes > self.memory_cap:
            raise BudgetExceeded(f"memory cap {self.memory_cap // MIB} MiB (estimated; "
                                 "raise it with --memory-cap)")

    def hold(self, nbytes: int) -> None:
        """The search keeps `nbytes` more until it ends."""
        self.held += nbytes
        self.weigh(self.held)
