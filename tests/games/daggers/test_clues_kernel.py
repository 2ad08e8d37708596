"""The Daggers agents' compiled single-point bookkeeping (_clues.c) gives exactly what
OpenClues's Python gives: the same open clues with the same entries, the same fresh clues, and
the same single-point moves with the same proving clues, through probes, flags, unflags and
hits, read at every step or after several; a grid the kernel cannot read goes on in Python;
bad input is an exception, not a crash. Under `make test` (CI_REQUIRE_KERNEL=1) it must have
been built."""

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers import DaggersWorld, clues
from logic_agents.games.daggers.clues import OpenClues, single_point_proofs
from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.games.daggers.world import DaggersAction, DaggersObservation

from .compiled import needs_built

COMPILED = clues.COMPILED
needs_kernel = needs_built(COMPILED, "the compiled bookkeeping")


def test_the_bookkeeping_is_built_when_ci_requires_it():
    if os.environ.get("CI_REQUIRE_KERNEL"):
        assert COMPILED is not None, "make test installs the package with its C kernel"


def python_clues() -> OpenClues:
    kept, clues.KERNEL = clues.KERNEL, None
    try:
        return OpenClues()
    finally:
        clues.KERNEL = kept


def ask_both(compiled: OpenClues, python: OpenClues, obs: DaggersObservation, question: str
             ) -> None:
    if question == "open":
        assert compiled.neighbourhoods(obs) == python.neighbourhoods(obs)
        assert compiled.open == python.open
    elif question == "fresh":
        assert compiled.fresh(obs) == python.fresh(obs)
    else:
        assert (single_point_proofs(obs, compiled, fresh=True)
                == single_point_proofs(obs, python, fresh=True))


@needs_kernel
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["beginner", "cs5011-medium", "tornado-medium",
                                              "intermediate"]))
def test_the_compiled_bookkeeping_is_the_python_one(seed, preset):
    rng = random.Random(seed)
    board = generate_maps(PRESETS[preset], 1, seed)[0]
    world = DaggersWorld(board)
    obs, info = world.reset(seed=seed)
    compiled, python = OpenClues(), python_clues()
    assert compiled._compiled and not python._compiled
    steps = 0
    while world.outcome is None and steps < 150:
        if rng.random() < 0.6:  # read now, or let changes pile up
            ask_both(compiled, python, obs, rng.choice(["open", "fresh", "proofs", "proofs"]))
        flagged = [c for c in obs.cells() if obs.at(c) == "F"]
        covered = obs.unknown_cells()
        safe = [c for c in covered if c not in board.daggers]
        roll = rng.random()
        if flagged and roll < 0.15:
            action = DaggersAction("unflag", rng.choice(flagged))
        elif covered and (roll < 0.35 or not safe):
            action = DaggersAction("flag", rng.choice(covered))
        elif safe and roll < 0.98:  # games long enough to open most of the board
            action = DaggersAction("probe", rng.choice(safe))
        elif covered:
            action = DaggersAction("probe", rng.choice(covered))  # a dagger, now and then
        else:
            break
        obs, *_ = world.step(action)
        steps += 1
    for question in ("proofs", "open", "fresh"):
        ask_both(compiled, python, obs, question)
    assert compiled._compiled  # the kernel served the whole game


@needs_kernel
def test_another_board_gets_a_state_of_its_own():
    compiled, python = OpenClues(), python_clues()
    for preset in ("beginner", "intermediate", "beginner"):
        board = generate_maps(PRESETS[preset], 1, 5, (2, 2), True)[0]
        obs, _ = DaggersWorld(board).reset(seed=1)
        ask_both(compiled, python, obs, "proofs")
        ask_both(compiled, python, obs, "open")


@needs_kernel
def test_a_token_the_kernel_cannot_read_goes_on_in_python():
    """"\u0663" (Arabic-Indic three) is a digit to Python's str.isdigit: world.clue_value reads
    it as 3. The kernel reads ASCII alone, so the bookkeeping goes on in Python, with the same
    answers."""
    grid = (("1", "?", "?"), ("\u0663", "?", "?"), ("1", "1", "1"))
    obs = DaggersObservation(grid=grid, lives=1, total_daggers=3, step=0)
    compiled, python = OpenClues(), python_clues()
    ask_both(compiled, python, obs, "open")
    assert not compiled._compiled
    ask_both(compiled, python, obs, "proofs")


@needs_kernel
@pytest.mark.parametrize("args", [
    (0, 3, [], [], "?", "F", "X", "g"),  # no board
    (1, 2, [(1,), (0,)], [(0, 0)], "?", "F", "X", "g"),  # one cell too few
    (1, 2, [(1,), (2,)], [(0, 0), (0, 1)], "?", "F", "X", "g"),  # a neighbour off the board
    (1, 2, [[1], (0,)], [(0, 0), (0, 1)], "?", "F", "X", "g"),  # neighbours not a tuple
    (1, 2, [(1,), (0,)], [(0, 0), (0, 1)], 1, "F", "X", "g"),  # a token not a string
])
def test_bad_input_to_new_is_an_exception(args):
    with pytest.raises((TypeError, ValueError)):
        COMPILED.new(*args)


@needs_kernel
def test_bad_grids_are_an_exception():
    state = COMPILED.new(1, 2, [(1,), (0,)], [(0, 0), (0, 1)], "?", "F", "X", "g")
    assert COMPILED.entries(state, (("1", "?"),), False) == [((0, 0), 1, [(0, 1)], 0)]
    for grid in [(("1",),), (("1", "?"), ("1", "?")), "1?", (("1", 2),), ((None, "?"),)]:
        with pytest.raises((TypeError, ValueError)):
            COMPILED.proofs(state, grid)
    with pytest.raises((TypeError, ValueError)):
        COMPILED.read("not a state", (("1", "?"),))


@needs_kernel
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 30))
def test_an_agent_pickled_mid_game_plays_on_as_the_original(seed, after):
    """spx's OpenClues holds a compiled state, which does not pickle: it carries its fresh
    clues and is remade from the last grid. The copy and the original play on alike."""
    import pickle

    from logic_agents.games.daggers.agents import SinglePointAgent

    board = generate_maps(PRESETS["intermediate"], 1, seed, (2, 2), True)[0]
    worlds = [DaggersWorld(board), DaggersWorld(board)]
    obs = [w.reset(seed=seed)[0] for w in worlds]
    agent = SinglePointAgent()
    agent.reset(seed)
    for _ in range(after):
        if worlds[0].outcome is not None:
            return
        action = agent.act(obs[0])
        obs = [w.step(action)[0] for w in worlds]
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.open_clues._compiled and copy.open_clues._state is not None
    for _ in range(300):
        if worlds[0].outcome is not None:
            break
        moves = [agent.act(obs[0]), copy.act(obs[1])]
        assert moves[0] == moves[1]
        obs = [w.step(m)[0] for w, m in zip(worlds, moves)]
    assert worlds[0].outcome == worlds[1].outcome
