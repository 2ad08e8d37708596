"""A frontier component's placements, counted by class (odds.py combines the components).

Concepts:
- Component: clue constraints linked by shared cells (`components` groups them); each is
  counted alone, since components are independent once the dagger total is fixed.
- Class: the cells of a component that lie under exactly the same constraints. They are
  interchangeable, so a class is assigned a number of daggers n, weighted C(size, n).
- enumerate_component: a backtracking search over the classes (those touching the most
  constraints first, so that constraints close early and prune), giving per dagger count k
  the placements W[k] and, per class, the daggers E[k] summed over them: exact integers.
- The compiled kernel (_enumerate.c, `KERNEL`): the same search in C, used when the package
  was built with it and the component has at most 100 cells (its sums then fit in 128 bits);
  the search below is the fallback, and both give the same tables
  (tests/games/daggers/test_kernel.py). LOGIC_AGENTS_PURE_PYTHON=1 turns the kernel off.
"""

from __future__ import annotations

import os
from functools import cache
from heapq import heapify, heappop, heappush
from math import comb
from types import ModuleType
from typing import Any

from logic_agents.world.view import Cell

Table = dict[Any, list[Any]]  # k, or (k, shown) -> [W, [E per class]], mutated while summed
Classes = list[tuple[tuple[int, ...], list[Cell]]]  # (the constraints over them, cells)
Component = tuple[Classes, Table]
PURE_PYTHON_VARIABLE = "LOGIC_AGENTS_PURE_PYTHON"  # set to 1: the search below, never the kernel


COMPILED: ModuleType | None  # the kernel as built (None: no C compiler at install)
try:
    from logic_agents.games.daggers import _enumerate as COMPILED
except ImportError:  # not built: the pure-Python search
    COMPILED = None
# the search asked: the compiled one unless turned off (tests compare both; a user may too)
KERNEL = None if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0") else COMPILED


def components(cons: list[tuple[tuple[Cell, ...], int]]) -> list[list[int]]:
    """Indices of constraints, grouped by shared cells."""
    parent = list(range(len(cons)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Cell, int] = {}
    for i, (cells, _) in enumerate(cons):
        for c in cells:
            if c in owner:
                parent[find(i)] = find(owner[c])
            else:
                owner[c] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(cons)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


@cache
def _binomials(size: int) -> list[int]:
    """C(size, n) for n = 0..size (read only)."""
    return [comb(size, n) for n in range(size + 1)]


def enumerate_component(cons: list[tuple[tuple[Cell, ...], int]], free: int | None = None) -> Component:
    """One component: classes of cells, and {k: (W, [E per class])} with exact integers.

    With `free`, that constraint's count is left open (its k is ignored) and the table is
    keyed by (k, daggers among the free constraint's cells): every clue a cell may show, in
    one search."""
    if KERNEL is not None:
        found: Component | None = KERNEL.enumerate_component(cons, free)
        if found is not None:  # None: over 100 cells, searched below
            return found
    by_cell: dict[Cell, list[int]] = {}
    for i, (cells, _) in enumerate(cons):
        for c in cells:
            by_cell.setdefault(c, []).append(i)
    class_of: dict[tuple[int, ...], list[Cell]] = {}
    for c, owners in by_cell.items():
        class_of.setdefault(tuple(owners), []).append(c)
    classes = list(class_of.items())  # (constraint ids, cells)
    # order: classes touching the most constraints first, then neighbours of assigned ones, so
    # that constraints close early and prune
    # (the most constraints touched, then the most constraints, then the first: a heap of
    # (-touched, -constraints, j), whose entry for j is left behind when j's count grows)
    order: list[int] = []
    placed = [False] * len(classes)
    touched: set[int] = set()
    holding: dict[int, list[int]] = {}  # constraint -> the classes under it
    for j, (ids, _) in enumerate(classes):
        for i in ids:
            holding.setdefault(i, []).append(j)
    touching = [0] * len(classes)  # per class, its constraints touched so far
    heap = [(0, -len(ids), j) for j, (ids, _) in enumerate(classes)]
    heapify(heap)
    while heap:
        minus_touching, minus_size, best = heappop(heap)
        if placed[best] or -minus_touching != touching[best]:
            continue
        placed[best] = True
        order.append(best)
        for i in classes[best][0]:
            if i not in touched:
                touched.add(i)
                for j in holding[i]:
                    if not placed[j]:
                        touching[j] += 1
                        heappush(heap, (-touching[j], -len(classes[j][0]), j))
    classes = [classes[j] for j in order]
    need = [k for _, k in cons]
    left = [len(cells) for cells, _ in cons]  # unassigned cells per constraint
    sizes = [len(cells) for _, cells in classes]
    bounded = ([owners for owners, _ in classes] if free is None
               else [tuple(i for i in owners if i != free) for owners, _ in classes])
    in_free = [free in owners for owners, _ in classes]
    if any(i != free and (k < 0 or k > len(cells)) for i, (cells, k) in enumerate(cons)):
        return classes, {}
    result: Table = {}
    counts = [0] * len(classes)

    last = len(classes)
    binomials = [_binomials(size) for size in sizes]

    def go(j: int, daggers: int, weight: int, shown: int = 0) -> None:
        if j == last:
            key = daggers if free is None else (daggers, shown)
            entry = result.get(key)
            if entry is None:
                entry = result[key] = [0, [0] * last]
            entry[0] += weight
            per_class = entry[1]
            for i, n in enumerate(counts):
                if n:
                    per_class[i] += weight * n
            return
        owners = bounded[j]
        size = sizes[j]
        low, high = 0, size
        for i in owners:
            if need[i] < high:
                high = need[i]
            left[i] -= size
            if need[i] - left[i] > low:
                low = need[i] - left[i]
        ways = binomials[j]
        into_free = in_free[j]
        for n in range(low, high + 1):
            for i in owners:
                need[i] -= n
            counts[j] = n
            go(j + 1, daggers + n, weight * ways[n], shown + n if into_free else shown)
            for i in owners:
                need[i] += n
        counts[j] = 0
        for i in owners:
            left[i] += size

    go(0, 0, 1)
    return classes, result
