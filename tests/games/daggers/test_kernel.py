"""prob's compiled kernel (_enumerate.c) gives exactly what the pure-Python search gives: the
same classes in the same order, the same table with its keys in the same order; a component
too large for its 128-bit sums falls back to Python; bad input is an exception, not a crash;
and with LOGIC_AGENTS_PURE_PYTHON=1 prob plays its recorded games. Under `make test`
(CI_REQUIRE_KERNEL=1) the kernel must have been built."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers import components
from logic_agents.games.daggers.components import PURE_PYTHON_VARIABLE, enumerate_component

from .compiled import needs_built

COMPILED = components.COMPILED
needs_kernel = needs_built(COMPILED, "the compiled kernel")


def test_the_kernel_is_built_when_ci_requires_it():
    if os.environ.get("CI_REQUIRE_KERNEL"):
        assert COMPILED is not None, "make test installs the package with its C kernel"


def pure(cons, free=None):
    """enumerate_component with the kernel turned off."""
    kept, components.KERNEL = components.KERNEL, None
    try:
        return enumerate_component(cons, free)
    finally:
        components.KERNEL = kept


@st.composite
def constraint_sets(draw):
    """Constraints over a small grid, counts from impossible below to impossible above, and
    now and then a free constraint (the look-ahead's)."""
    rng = random.Random(draw(st.integers(0, 10**9)))
    cells = [(r, c) for r in range(4) for c in range(5)]
    cons = []
    for _ in range(draw(st.integers(0, 8))):
        chosen = tuple(sorted(rng.sample(cells, rng.randint(1, 8))))
        cons.append((chosen, rng.randint(-1, len(chosen) + 1) if rng.random() < 0.1
                     else rng.randint(0, len(chosen))))
    free = rng.randrange(len(cons)) if cons and rng.random() < 0.4 else None
    return cons, free


@needs_kernel
@settings(max_examples=400, deadline=None)
@given(constraint_sets())
def test_the_kernel_gives_what_python_gives(case):
    cons, free = case
    classes, table = COMPILED.enumerate_component(cons, free)
    expected_classes, expected_table = pure(cons, free)
    assert classes == expected_classes
    assert list(table.items()) == list(expected_table.items())  # the keys' order too


@needs_kernel
def test_sums_past_64_bits_are_exact():
    """Two clues over 60 of 90 cells each: counts far past 2^64, still exact integers."""
    cells = [(0, c) for c in range(90)]
    cons = [(tuple(cells[:60]), 30), (tuple(cells[30:]), 25), (tuple(cells[20:50]), 12)]
    for free in (None, 2):
        classes, table = COMPILED.enumerate_component(cons, free)
        assert (classes, list(table.items())) == (lambda c, t: (c, list(t.items())))(
            *pure(cons, free))
        assert max(w for w, _ in table.values()) > 2**64


@needs_kernel
def test_a_component_past_100_cells_is_searched_in_python():
    cells = [(r, c) for r in range(11) for c in range(10)]
    cons = [(tuple(cells[i:i + 10]), 9) for i in range(0, 110, 10)]
    assert COMPILED.enumerate_component(cons, None) is None
    assert enumerate_component(cons) == pure(cons)


@needs_kernel
@pytest.mark.parametrize("cons, free", [
    ([(((0, 0),), "one")], None),
    ([(5, 1)], None),  # cells not a sequence
    ([(((0, 0),),)], None),  # no count
    (None, None),
    ([(((0, 0),), 1)], "x"),
    ([(((0, 0),), 10**12)], None),
])
def test_bad_input_is_an_exception(cons, free):
    with pytest.raises((TypeError, ValueError, IndexError, OverflowError)):
        COMPILED.enumerate_component(cons, free)


def test_pure_python_plays_the_recorded_games():
    """prob's recorded games (tests/games/daggers/data/trajectories.json) with every compiled
    part (the odds' kernel, the endgame search, the single-point bookkeeping) turned off, in
    a fresh process: the fallback plays every move the compiled parts play."""
    code = """
import json, sys
sys.path.insert(0, sys.argv[1])
from test_trajectories import RECORDED, MAPS, digest
from logic_agents.games.daggers import clues, components, endgame, load
from logic_agents.games.daggers.prob import ProbAgent
assert components.KERNEL is None and endgame.KERNEL is None and clues.KERNEL is None
boards = [load(p) for p in sorted(MAPS.glob("*.txt"))]
print(json.dumps([f"{b.name}/{s}" for b in boards for s in range(3)
                  if digest(b, ProbAgent, s) != RECORDED[f"prob/{b.name}/{s}"]]))
"""
    here = Path(__file__).parent
    done = subprocess.run([sys.executable, "-c", code, str(here)], capture_output=True,
                          text=True, env={**os.environ, PURE_PYTHON_VARIABLE: "1"}, check=True)
    assert json.loads(done.stdout) == []
