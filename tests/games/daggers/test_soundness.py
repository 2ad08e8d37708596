"""Soundness is the point: satx proves only truths, and exactly what brute force proves.

Random small boards (hypothesis). At every satisfiability test the agent's verdicts are
compared with (a) the hidden map and (b) brute-force enumeration of the covered cells. Every
non-guess move of satx and spx is checked against the hidden map too.
"""

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers import DaggersMap, DaggersWorld, SatAgent
from logic_agents.games.daggers.agents import SinglePointAgent
from logic_agents.games.daggers.board import neighbours
from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT
from logic_agents.logic.oracle import Verdict


def random_board(seed: int, height: int, width: int, density: float,
                 topology: str = "square") -> DaggersMap:
    rng = random.Random(seed)
    cells = [(r, c) for r in range(height) for c in range(width) if (r, c) != (0, 0)]
    daggers = {cell for cell in cells if rng.random() < density}
    table = neighbours(height, width, topology)
    rows = []
    for r in range(height):
        row = []
        for c in range(width):
            if (r, c) in daggers:
                row.append("d")
                continue
            count = sum(n in daggers for n in table[(r, c)])
            row.append("g" if count == 0 and (r, c) != (0, 0) and rng.random() < 0.1 else str(count))
        rows.append(tuple(row))
    return DaggersMap(name=f"rand{seed}", tokens=tuple(rows), topology=topology)


def brute_force_verdicts(obs, global_count: bool) -> dict:
    """Verdicts by enumerating every dagger placement of the covered cells consistent with obs."""
    table = obs.neighbours
    unknown = obs.unknown_cells()
    clue_cells = [c for c in obs.cells() if obs.clue(c) is not None]
    known = {c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT)}
    front = [c for c in unknown if any(obs.clue(n) is not None for n in table[c])]
    interior = [c for c in unknown if c not in set(front)]
    index = {c: i for i, c in enumerate(front)}
    constraints = []
    for cell in clue_cells:
        need = obs.clue(cell) - sum(n in known for n in table[cell])
        members = [index[n] for n in table[cell] if n in index]
        constraints.append((need, members))
    seen_true = [False] * len(front)
    seen_false = [False] * len(front)
    interior_counts = set()
    assignment = [False] * len(front)

    def feasible(upto: int) -> bool:
        for need, members in constraints:
            fixed = sum(assignment[m] for m in members if m < upto)
            free = sum(1 for m in members if m >= upto)
            if not (fixed <= need <= fixed + free):
                return False
        return True

    def search(i: int) -> None:
        if not feasible(i):
            return
        if i == len(front):
            placed = len(known) + sum(assignment)
            rest = obs.total_daggers - placed
            if global_count and not (0 <= rest <= len(interior)):
                return
            for j, v in enumerate(assignment):
                if v:
                    seen_true[j] = True
                else:
                    seen_false[j] = True
            interior_counts.add(rest)
            return
        for value in (False, True):
            assignment[i] = value
            search(i + 1)
        assignment[i] = False

    search(0)
    out = {}
    for cell, j in index.items():
        out[cell] = (Verdict.UNKNOWN if seen_true[j] and seen_false[j]
                     else Verdict.TRUE if seen_true[j] else Verdict.FALSE)
    if global_count:
        for cell in interior:
            if interior_counts == {0}:
                out[cell] = Verdict.FALSE
            elif interior_counts == {len(interior)}:
                out[cell] = Verdict.TRUE
            else:
                out[cell] = Verdict.UNKNOWN
    return out


def play_checked(board: DaggersMap, agent, seed: int) -> int:
    """Play to the end; every non-guess move must be right. Returns the number of SAT tests."""
    world = DaggersWorld(board, lives=3)
    obs, info = world.reset(seed=seed)
    agent.reset(seed)
    daggers = board.daggers
    done = world.outcome is not None
    while not done:
        action = agent.act(obs)
        if action is None:
            break
        if agent.why != "random guess":
            is_dagger = action.cell in daggers
            assert is_dagger == (action.kind == "flag"), (board, action, agent.why)
        obs, _, term, trunc, _ = world.step(action)
        done = term or trunc
    return getattr(agent, "queries", 0)


boards = st.builds(
    random_board,
    seed=st.integers(0, 10**9),
    height=st.integers(3, 6),
    width=st.integers(3, 6),
    density=st.floats(0.1, 0.35),
    topology=st.sampled_from(["square", "hex"]),
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards, st.integers(0, 1000), st.booleans())
def test_satx_verdicts_are_true_and_complete(board, seed, global_count):
    daggers = board.daggers

    def check(query):
        expected = brute_force_verdicts(query.observation, global_count)
        for cell, verdict in query.verdicts.items():
            if verdict is Verdict.TRUE:
                assert cell in daggers, (board, cell)
            elif verdict is Verdict.FALSE:
                assert cell not in daggers, (board, cell)
            assert verdict is expected[cell], (board, cell, verdict, expected[cell])

    agent = SatAgent(global_count=global_count, on_query=check)
    queries = play_checked(board, agent, seed)
    event(f"SAT tests per game: {min(queries, 3)}{'+' if queries >= 3 else ''}")


@settings(max_examples=500, deadline=None)
@given(boards, st.integers(0, 1000))
def test_spx_moves_are_sound(board, seed):
    play_checked(board, SinglePointAgent(), seed)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(boards, st.integers(0, 1000))
def test_naive_sympy_route_is_sound(board, seed):
    daggers = board.daggers

    def check(query):
        for cell, verdict in query.verdicts.items():
            if verdict is not Verdict.UNKNOWN:
                assert (cell in daggers) == (verdict is Verdict.TRUE)

    play_checked(board, SatAgent(encoding="sympy", on_query=check), seed)


def test_brute_force_helper_on_a_known_position():
    board = DaggersMap(name="t", tokens=(("0", "1", "d"), ("0", "1", "1"), ("0", "0", "0")))
    obs, _ = DaggersWorld(board).reset(seed=0)
    assert obs.at((0, 2)) == COVERED
    assert brute_force_verdicts(obs, False) == {(0, 2): Verdict.TRUE}
