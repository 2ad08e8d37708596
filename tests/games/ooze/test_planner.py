"""The Ooze SAT planner: its optimum agrees with brute force, its guarantees hold when played.

The brute force below shares no code with the encoding: it enumerates every placement of the
visible pieces and every route from the open end, straight from RULES.md §4.
"""

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logic_agents.games.ooze.planner import SatOozeAgent
from logic_agents.games.ooze.rules import (
    GLYPHS,
    PIECES,
    SIZE,
    SOURCE,
    flow_time,
    inside,
    open_end,
    opposite,
    step,
)
from logic_agents.games.ooze.world import OozeAction, OozeObservation, OozeWorld
from logic_agents.world.check import check_world

DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))
ALL_CELLS = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) != SOURCE]


def board_cell(cell):
    return inside(cell) and cell != SOURCE


def brute_force(obs: OozeObservation, horizon: int):
    """(h, G, C): the longest route up to `horizon`, then the longest covered prefix, then the
    most covered positions, over every placement of the visible pieces and every route."""
    board = obs.pieces
    end = open_end(board, {}, obs.head, obs.heading)
    used = {(c, frozenset(PIECES[board[c]][ch])) for c, ch in end.route}
    free = [c for c in ALL_CELLS if c not in board]
    n = min(5, len(free), len(obs.queue))  # how many visible pieces can be placed at most

    def laid_has(cell, channel):
        return cell in board and channel in PIECES[board[cell]] and (cell, channel) not in used

    def routes(length):
        # sequences of exit directions; position 1 is the open end
        def extend(cells, moves):
            if len(cells) == length:
                yield list(cells), list(moves)
                return
            here, came = cells[-1], moves[-1]
            for d in DIRS:
                if d == opposite(came) or not board_cell(step(here, d)):
                    continue
                yield from extend(cells + [step(here, d)], moves + [d])

        for cells, moves in extend([end.cell], [opposite(end.entry)]):
            for last in DIRS:
                if last != opposite(moves[-1]) and board_cell(step(cells[-1], last)):
                    yield cells, moves + [last]

    best = (0, 0, 0)
    for length in range(1, horizon + 1):
        found = None
        for cells, moves in routes(length):
            channels = [frozenset({opposite(moves[k]), moves[k + 1]}) for k in range(length)]
            visits = {}
            for k, c in enumerate(cells):
                visits.setdefault(c, []).append(channels[k])
            if any(len(v) > 2 or (len(v) == 2 and set(v) != {frozenset({(0, -1), (0, 1)}),
                                                          frozenset({(-1, 0), (1, 0)})})
                   for v in visits.values()):
                continue
            # the end faces a cell off the route: empty (and given no piece now), or, at the
            # horizon only, holding a laid piece that takes the ooze
            onward, back = step(cells[-1], moves[-1]), opposite(moves[-1])
            if onward in cells:
                continue
            ends_empty = onward not in board
            if not (ends_empty or length == horizon and any(
                    laid_has(onward, t) for t in PIECES[board[onward]] if back in t)):
                continue
            on_route = list(dict.fromkeys(c for c in cells if c not in board))
            off_route = len(free) - len(on_route)
            # which visible piece (or none: a future piece) each empty route cell gets; the
            # pieces left over must fit on the empty cells off the route
            # the first `placed` visible pieces are placed (the rest wait); a cell left for an
            # unseen piece needs all five placed first
            for placed_count, owners in itertools.chain.from_iterable(
                    ((p, o) for o in itertools.product([None, *range(p)], repeat=len(on_route)))
                    for p in range(n + 1)):
                given_out = [i for i in owners if i is not None]
                # leftover pieces go on empty cells off the route (not the one the end faces)
                room = off_route - (1 if ends_empty else 0)
                if len(set(given_out)) < len(given_out) or placed_count - len(given_out) > room:
                    continue
                if None in owners and placed_count < 5:
                    continue
                placed = {c: i for c, i in zip(on_route, owners) if i is not None}
                covered = []
                ok = True
                for k, c in enumerate(cells):
                    t = channels[k]
                    if c in board:
                        ok = laid_has(c, t)
                        covered.append(True)
                    elif c in placed:
                        ok = t in PIECES[obs.queue[placed[c]]]
                        covered.append(True)
                    else:
                        covered.append(False)
                    if not ok:
                        break
                    m = flow_time(obs.tiles + len(end.route) + k + 1) - obs.clock
                    if k < 2 and m <= 5 and not (c in board or (c in placed and placed[c] < m)):
                        ok = False
                        break
                if not ok:
                    continue
                g = next((k for k, cov in enumerate(covered) if not cov), length)
                score = (length, g, sum(covered))
                found = max(found, score) if found else score
        if found is not None:
            best = found
    return best


@st.composite
def dense_positions(draw):
    """Boards half to nine-tenths full, more empty cells near the open end; a queue; a clock."""
    rng = random.Random(draw(st.integers(0, 10**9)))
    density = draw(st.sampled_from([0.5, 0.7, 0.9]))
    while True:
        board = {c: rng.choice(GLYPHS) for c in ALL_CELLS if rng.random() < density}
        end = open_end(board, {}, SOURCE, (0, -1))
        if end.blocked or end.cell in board:
            # cut the laid pipe at its blocked opening (or before it) so an end is open
            continue_cells = [c for c, _ in end.route]
            if not continue_cells:
                continue
            del board[continue_cells[-1]]
            end = open_end(board, {}, SOURCE, (0, -1))
        break
    # more empty cells near the open end, so that routes have room and pieces have choices
    near = [c for c in ALL_CELLS if c in board and c not in {x for x, _ in end.route}
            and abs(c[0] - end.cell[0]) + abs(c[1] - end.cell[1]) <= 2]
    for c in rng.sample(near, min(len(near), draw(st.integers(0, 3)))):
        del board[c]
    queue = "".join(rng.choice(GLYPHS) for _ in range(5))
    clock = draw(st.integers(0, 8))
    return OozeObservation(tuple(sorted(board.items())), (), queue, clock, 0, 0, SOURCE,
                           (0, -1), flow_time(1))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_positions(), st.integers(1, 4))
def test_plan_optimum_agrees_with_brute_force(obs, horizon):
    agent = SatOozeAgent(horizon=horizon, conflict_budget=None)
    agent.reset(0)
    plan = agent.plan(obs)
    assert (len(plan.route), plan.guaranteed, plan.covered) == brute_force(obs, horizon)


@pytest.mark.slow
def test_the_guaranteed_extension_is_laid_in_time_when_the_plan_is_played():
    """Play each plan's placements of the visible pieces: the pipe then runs at least G tiles
    past the old open end, and every placement on it lands before the ooze arrives."""
    checked = 0
    for seed in range(12):
        world = OozeWorld(max_ticks=400)
        obs, _ = world.reset(seed=seed)
        agent = SatOozeAgent()
        agent.reset(seed)
        while True:
            action = agent.act(obs)
            plan = agent.last_plan
            if action.kind == "place" and plan and plan.guaranteed and plan.on_route:
                board = obs.pieces
                filled = {c: set(ch) for c, ch in obs.filled}
                before = open_end(board, filled, obs.head, obs.heading)
                for piece, cell in zip(obs.queue, plan.placements):
                    if cell is not None:
                        board[cell] = piece
                after = open_end(board, filled, obs.head, obs.heading)
                assert len(after.route) >= len(before.route) + plan.guaranteed
                first = obs.tiles + len(before.route) + 1
                for k, (cell, _) in enumerate(after.route[len(before.route):][:plan.guaranteed]):
                    if cell in plan.placements:
                        i = plan.placements.index(cell)
                        assert obs.clock + i < flow_time(first + k)
                checked += 1
            obs, _, terminated, truncated, info = world.step(action)
            assert "invalid" not in info, info
            if terminated or truncated:
                break
    assert checked > 100


def test_a_piece_that_is_due_is_placed_in_time_and_a_misfit_parked_away():
    world = OozeWorld(pieces="-|" + "e" * 10)
    obs, _ = world.reset(seed=0)
    for _ in range(7):
        obs, *_ = world.step(OozeAction("wait"))
    agent = SatOozeAgent()
    agent.reset(0)
    first = agent.act(obs)  # t = 7: `-` cannot take the ooze at (3, 2), `|` can, by t = 9
    assert first.kind == "place" and first.cell != (3, 2)
    obs, *_ = world.step(first)
    assert str(agent.act(obs)) == "place 2 3"


def test_sat_passes_check_world_and_same_seed_same_game():
    check_world(lambda: OozeWorld(max_ticks=120), lambda: SatOozeAgent(),
                lambda obs: iter(["place 2 3"]), seeds=(0, 1))


def test_cnf_writes_a_planner_query_with_named_variables(tmp_path):
    from logic_agents.cli import main
    from logic_agents.logic.dimacs import read_dimacs

    out = tmp_path / "ooze.cnf"
    assert main(["cnf", "ooze", "--seed", "2", "--query", "3", "-o", str(out)]) == 0
    cnf = read_dimacs(out)
    names = set(cnf.names.values())
    assert {"at_1_x3_y2", "move_0_up", "place_0_x3_y2", "support_x3_y2_vertical"} <= names
    units = {cnf.literal_name(c[0]) for c in cnf.clauses if len(c) == 1}
    # the open end of a fresh game is (3, 2), entered going up, and every cell is empty
    assert {"at_1_x3_y2", "move_0_up", "free_x0_y0", "~avail_x0_y0_vertical"} <= units
