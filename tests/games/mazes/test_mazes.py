"""Exactly One Mazes: format, checker, encoding against brute force, world, searches, keyboard
play and the generator."""

import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import FormatError, IllegalAction, UnknownName
from logic_agents.games.mazes import AGENTS, MazeWorld
from logic_agents.games.mazes import board as maze_board
from logic_agents.games.mazes import generate as maze_generate
from logic_agents.games.mazes.encode import MazeSolver, ShapeFamilySolver, encode
from logic_agents.games.mazes.generate import L_SHAPES, generate_boards
from logic_agents.games.mazes.search import HEURISTICS, INFORMED, METHODS, search
from logic_agents.games.mazes.world import MazeAction
from logic_agents.world.budget import Budget
from logic_agents.world.core import Outcome
from logic_agents.world.runner import run_episode

DATA = Path(__file__).resolve().parents[3] / "maps" / "mazes"
REFERENCE = json.loads((DATA / "solutions.json").read_text())
BOARDS = sorted(DATA.glob("*.txt"))


def brute_force(board: maze_board.MazeBoard) -> list[list[tuple[int, int]]]:
    """Every valid path, by enumeration of simple paths from the start (pruned only where a
    shape would be crossed twice; each full path is judged by maze_board.is_solution)."""
    out = []
    path = [board.start]
    crossed = set()

    def extend():
        here = path[-1]
        if here == board.finish:
            if maze_board.is_solution(board, path):
                out.append(list(path))
            return
        for n in board.neighbours(here):
            k = board.shape_at(n)
            if n not in path and not (k and k in crossed):
                path.append(n)
                if k:
                    crossed.add(k)
                extend()
                crossed.discard(k)
                path.pop()

    extend()
    return sorted(out)


def test_the_shipped_boards_parse_round_trip_and_their_references_check():
    assert len(BOARDS) == 6
    for path in BOARDS:
        board = maze_board.load_board(path)
        assert board.name == path.stem
        assert maze_board.parse_board(maze_board.format_board(board), name=board.name) == board
        reference = [tuple(c) for c in REFERENCE[board.name]["solution"]]
        assert maze_board.is_solution(board, reference)


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_solution_counts_match_the_published_ones(path):
    board = maze_board.load_board(path)
    solver = MazeSolver(board)
    found = solver.solutions(limit=1000)
    assert len(found) == REFERENCE[board.name]["num_solutions"]
    assert all(maze_board.is_solution(board, p) for p in found)
    assert [tuple(c) for c in REFERENCE[board.name]["solution"]] in found
    if len(found) <= 213 and board.height <= 6:
        assert sorted(found) == brute_force(board)


@st.composite
def small_boards(draw, sizes=(2, 4), shapes=4):
    h, w = draw(st.integers(*sizes)), draw(st.integers(*sizes))
    rng = random.Random(draw(st.integers(0, 10**9)))
    cells = [0] * (h * w)
    for k in range(1, draw(st.integers(0, shapes)) + 1):
        free = [i for i, v in enumerate(cells) if v == 0
                and divmod(i, w) not in ((h - 1, 0), (0, w - 1))]
        if not free:
            break
        seed = rng.choice(free)
        shape = [seed]
        for _ in range(rng.randrange(0, 4)):  # grow a connected polyomino
            r, c = divmod(rng.choice(shape), w)
            options = [(r + dr) * w + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                       if 0 <= r + dr < h and 0 <= c + dc < w
                       and cells[(r + dr) * w + c + dc] == 0 and (r + dr) * w + c + dc not in shape
                       and (r + dr, c + dc) not in ((h - 1, 0), (0, w - 1))]
            if options:
                shape.append(rng.choice(options))
        for i in shape:
            cells[i] = k
    return maze_board.MazeBoard(h, w, tuple(cells))


@settings(max_examples=150, deadline=None)
@given(small_boards())
def test_the_encoding_counts_what_brute_force_counts(board):
    expected = brute_force(board)
    assert sorted(MazeSolver(board).solutions(limit=10**5)) == expected
    family = ShapeFamilySolver(board.height, board.width)
    assert sorted(family.shape_solutions(list(board.shapes.values()), 10**5)) == expected


@settings(max_examples=60, deadline=None)
@given(small_boards(sizes=(1, 3), shapes=2))
def test_thin_boards_down_to_one_cell_count_as_brute_force(board):
    """Issue 26: a 1x1 maze (start = finish) solved as unsatisfiable while bfs won it."""
    expected = brute_force(board)
    assert sorted(MazeSolver(board).solutions(limit=10**5)) == expected
    family = ShapeFamilySolver(board.height, board.width)
    assert sorted(family.shape_solutions(list(board.shapes.values()), 10**5)) == expected


@settings(max_examples=150, deadline=None)
@given(small_boards(), st.integers(0, 3))
def test_a_rough_other_is_none_exactly_when_brute_force_has_no_other_solution(board, skip):
    """`other` (one SAT call a repair round, its detached cycles cut but not solved again):
    None only when no solution is left beside the excluded ones; an exact answer is a
    second solution; a rough one holds a start-finish path and crosses every shape once."""
    expected = brute_force(board)
    excluded = expected[:skip]
    family = ShapeFamilySolver(board.height, board.width)
    shapes = [tuple(cells) for cells in board.shapes.values()]
    for _ in range(200):  # rounds of the same question: the cuts pile up, as the repair's do
        found = family.shape_other(shapes, excluded=excluded)
        if found is None:
            assert expected == excluded  # no solution left out
            return
        if found.exact:
            assert any(set(path) == found.cells for path in expected[skip:])
            return
        for cells in board.shapes.values():
            assert len(found.cells & set(cells)) == 1
    raise AssertionError("200 rounds of cuts and still a rough model")


def simple_paths(board: maze_board.MazeBoard):
    """Every simple path from the start to the finish, shapes ignored."""
    path = [board.start]

    def extend():
        if path[-1] == board.finish:
            yield list(path)
            return
        for n in board.neighbours(path[-1]):
            if n not in path:
                path.append(n)
                yield from extend()
                path.pop()

    yield from extend()


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(small_boards(sizes=(4, 5), shapes=7))
def test_every_cycle_cut_holds_for_every_simple_path(board):
    """The cuts are sound: a path that visits a cut region steps out of it, so no real path
    (solution or not) is lost; and with the cuts the counts still match brute force."""
    solver = MazeSolver(board)
    assert sorted(solver.solutions(limit=10**5)) == brute_force(board)
    for path in simple_paths(board):
        steps = set(zip(path, path[1:]))
        for region in solver.cut_regions:
            if region & set(path):
                assert any((a in region) != (b in region) for a, b in steps)


@settings(max_examples=60, deadline=None)
@given(small_boards(sizes=(4, 5), shapes=6), small_boards(sizes=(4, 5), shapes=6))
def test_cuts_found_on_one_board_hold_on_another_of_its_size(seen, board):
    """The generator's second opinion asks a fresh solver with the cuts its family solver
    found on other layouts: carried to any board of the size, they lose no solution."""
    if (seen.height, seen.width) != (board.height, board.width):
        return
    family = ShapeFamilySolver(board.height, board.width)
    family.shape_solutions([tuple(cells) for cells in seen.shapes.values()], limit=10**5)
    fresh = MazeSolver(board, "minisat22")
    for region in family.cut_regions:
        fresh.add_cut(region)
    assert sorted(fresh.solutions(limit=10**5)) == brute_force(board)


def test_the_second_opinion_decides_when_the_family_solver_runs_out(monkeypatch):
    """With no budget at all on the family's solver, every round is decided by the fresh
    solver of the second opinion, and the boards are still unique."""
    monkeypatch.setattr(maze_generate, "CONFLICT_BUDGET", 1)
    for g in generate_boards(5, 3, seed=11):
        assert brute_force(g.board) == [g.solution]


def test_the_path_may_touch_itself():
    board = maze_board.load_board(DATA / "eom-9x9-18.txt")
    path = [tuple(c) for c in REFERENCE[board.name]["solution"]]
    steps = set(zip(path, path[1:])) | set(zip(path[1:], path))
    touching = [(a, b) for a in path for b in path
                if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and (a, b) not in steps]
    assert touching  # neighbours on the path that are not consecutive
    assert MazeSolver(board).solve() == path


@pytest.mark.parametrize("text,line,col,words", [
    ("0 0\n0 x\n", 2, 3, "a cell is 0"),
    ("0 0 0\n0 0\n", 2, 3, "row has 2 cells"),
    ("0 1\n1 0\n", 2, 1, "not one connected piece"),
    ("0 0\n1 0\n", 2, 1, "start (lower-left)"),
    ("# only a comment\n", 0, 0, "no grid"),
])
def test_bad_boards_are_located(text, line, col, words):
    with pytest.raises(FormatError) as err:
        maze_board.parse_board(text, "m.txt")
    assert (err.value.line, err.value.col) == (line, col), err.value
    assert words in err.value.message


def test_is_solution_checks_every_rule():
    board = maze_board.parse_board("1 1 0 0\n0 1 2 0\n0 1 2 0\n0 0 2 2\n")
    good = [(3, 0), (2, 0), (1, 0), (1, 1), (1, 2), (0, 2), (0, 3)]
    assert maze_board.is_solution(board, good)
    assert not maze_board.is_solution(board, good[:-1])  # does not reach the finish
    assert not maze_board.is_solution(board, good[1:])  # does not start at the start
    assert not maze_board.is_solution(board, [(3, 0), (2, 0), (1, 1), (1, 2), (0, 2), (0, 3)])  # diagonal
    assert not maze_board.is_solution(board, [(3, 0), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (0, 3)])
    twice = [(3, 0), (2, 0), (1, 0), (1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2), (1, 3), (0, 3)]
    assert not maze_board.is_solution(board, twice)  # shape 1 crossed at (1,1) and (2,1)
    assert "^" in maze_board.render_path(board, good) and "@" in maze_board.render_path(board, good, (0, 3))


def test_the_world_enforces_the_rules():
    board = maze_board.parse_board("1 1 0 0\n0 1 2 0\n0 1 2 0\n0 0 2 2\n")
    world = MazeWorld(board)
    obs, _ = world.reset(seed=0)
    for bad in ("down", "left", "undo"):
        with pytest.raises(IllegalAction):
            world.step(MazeAction(bad))
    for move in ("up", "up", "right"):
        obs, *_ = world.step(MazeAction(move))
    with pytest.raises(IllegalAction, match="already crossed"):
        world.step(MazeAction("down"))  # (2,1) is a second cell of shape 1
    obs, *_ = world.step(MazeAction("undo"))
    assert obs.walker == (1, 0)
    for move in ("right", "right", "up", "right"):
        obs, reward, done, truncated, _ = world.step(MazeAction(move))
    assert done and reward == 1.0 and obs.crossed == {1, 2}
    with pytest.raises(FormatError):
        MazeAction.from_json("jump")


@pytest.mark.parametrize("method", METHODS)
def test_every_search_finds_valid_paths_on_the_official_boards(method):
    heuristics = HEURISTICS if method in INFORMED else ("manhattan",)
    for path in BOARDS:
        board = maze_board.load_board(path)
        for h in heuristics:
            result = search(board, method, heuristic_name=h, budget=Budget(10**6, 30))
            assert result.stopped is None and result.nodes > 0
            assert maze_board.is_solution(board, result.path), (method, h, board.name)


def test_a_search_stops_at_its_cap_and_the_agent_gives_up():
    board = maze_board.load_board(DATA / "eom-9x9-18.txt")
    result = search(board, "bfs", budget=Budget(node_cap=50))
    assert result.path is None and result.stopped == "node cap 50"
    outcome = run_episode(MazeWorld(board), AGENTS["ids"](node_cap=50), 0)
    assert outcome.outcome is Outcome.GAVE_UP
    with pytest.raises(TypeError):
        AGENTS["bfs"](heuristic="manhattan")
    with pytest.raises(UnknownName):
        search(board, "astar", heuristic_name="nope")


@pytest.mark.parametrize("agent", ["sat", "astar", "dfs"])
def test_agents_walk_to_a_win(agent):
    for path in BOARDS:
        board = maze_board.load_board(path)
        world = MazeWorld(board)
        result = run_episode(world, AGENTS[agent](), 0)
        assert result.outcome is Outcome.WON
        assert maze_board.is_solution(board, world.observe().path)


def test_keyboard_play_with_a_scripted_key_sequence():
    """The maze mode, now the shared human play (logic_agents.display.tui): refused moves say why,
    an unknown key says so, the hint names the next step, undo takes a step back."""
    from logic_agents.display.tui import Session, replay_actions
    from logic_agents.world.registry import get_game

    spec = get_game("mazes")
    board = maze_board.parse_board("1 1 0 0\n0 1 2 0\n0 1 2 0\n0 0 2 2\n")
    session = Session(spec, board, {}, 0, lambda: AGENTS["sat"]())
    said = []
    for key in ["down", "x", "up", "up", "right", "down", "u", "h", "right", "right", "up",
                "right"]:
        session.press(key, key if len(key) == 1 else None)
        said.append(session.message)
    assert session.outcome == "won" and session.hints == 1
    text = "\n".join(said)
    assert "not allowed: down" in text and "'x' does nothing here" in text
    assert "hint: right" in text and "already crossed" in text
    assert maze_board.is_solution(board, session.obs.path)
    quitting = Session(spec, board, {}, 0)
    assert quitting.press("up") and not quitting.press("q")
    assert replay_actions(spec, board, {}, 0, quitting, None).outcome is Outcome.GAVE_UP


def test_the_hint_says_when_no_solution_goes_on():
    board = maze_board.parse_board("1 1 0 0\n0 1 2 0\n0 1 2 0\n0 0 2 2\n")
    solver = MazeSolver(board)
    assert solver.next_step([(3, 0)]) == (2, 0)
    assert solver.next_step([(3, 0), (3, 1)]) == (2, 1)
    assert solver.next_step([(3, 0), (3, 1), (3, 2)]) is None  # shape 1 is out of reach


@pytest.mark.parametrize("size", [4, 5, 6])
def test_generated_boards_are_unique_by_brute_force(size):
    made = generate_boards(size, 3, seed=5)
    assert [g.board for g in made] == [g.board for g in generate_boards(size, 3, seed=5)]
    for g in made:
        assert brute_force(g.board) == [g.solution]
        assert all(sorted(cells) in [sorted((r + x, c + y) for x, y in shape)
                                     for shape in L_SHAPES for r in range(size)
                                     for c in range(size)]
                   for cells in g.board.shapes.values())


@functools.cache
def _simple_paths(height: int, width: int) -> list[list[tuple[int, int]]]:
    """Every simple path from the start (bottom left) to the finish (top right)."""
    start, finish = (height - 1, 0), (0, width - 1)
    out, path, seen = [], [start], {start}

    def extend():
        r, c = path[-1]
        if path[-1] == finish:
            out.append(list(path))
            return
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= n[0] < height and 0 <= n[1] < width and n not in seen:
                path.append(n)
                seen.add(n)
                extend()
                seen.discard(path.pop())

    extend()
    return out


@settings(deadline=None, max_examples=60)
@given(st.sampled_from([(4, 4), (4, 5), (5, 4), (5, 5)]), st.integers(0, 10**6))
def test_a_doomed_planted_path_is_exactly_one_that_no_layout_makes_unique(shape, seed):
    # doomed_by against brute force: another simple path that crosses once every L the planted
    # path crosses once exists exactly when the check names one, and what it names is one
    height, width = shape
    rng = random.Random(seed)
    layout = maze_generate._Layout(height, width, maze_generate.plant_path(height, width, rng),
                                   rng)

    def crosses_every_l_once(other):
        return all(len(set(other).intersection(cells)) == 1 for cells in layout.crossed_once)

    paths = _simple_paths(height, width)
    expected = any(other != layout.path and crosses_every_l_once(other) for other in paths)
    family = ShapeFamilySolver(height, width)
    try:
        witness = maze_generate.doomed_by(layout, family)
    finally:
        family.close()
    assert (witness is not None) == expected
    if witness is not None:
        assert witness in paths and witness != layout.path
        assert crosses_every_l_once(witness)


def test_generated_boards_scale_and_the_kb_prints():
    g = generate_boards(12, 1, seed=2)[0]
    assert MazeSolver(g.board).solutions(3) == [g.solution]
    text = encode(g.board).pretty(limit=None)
    assert "Implies(P_r" in text and "Exactly(1, P_r" in text


def _open_board(n: int) -> maze_board.MazeBoard:
    rows = [["0"] * n for _ in range(n)]
    rows[2][2] = rows[2][3] = "1"
    rows[n - 3][n - 4] = rows[n - 3][n - 3] = "2"
    return maze_board.parse_board("\n".join(" ".join(row) for row in rows), name=f"open{n}")


@pytest.mark.parametrize("method", ["bfs", "ucs", "astar"])
def test_the_memory_cap_stops_a_search_at_the_same_node_every_time(method):
    board = _open_board(30)  # about 10^40 paths: only a cap ends it
    runs = [search(board, method, budget=Budget(memory_cap=8 << 20)) for _ in range(2)]
    assert all(r.path is None and r.stopped.startswith("memory cap 8 MiB") for r in runs)
    assert runs[0].nodes == runs[1].nodes < 100_000
    roomy = search(board, method, budget=Budget(node_cap=runs[0].nodes, memory_cap=16 << 20))
    assert roomy.stopped.startswith("node cap")  # twice the memory: the nodes ran out first


def test_a_memory_capped_agent_says_why_it_gave_up(capsys, tmp_path):
    from logic_agents.cli import main

    path = tmp_path / "open.txt"
    path.write_text(maze_board.format_board(_open_board(40)))
    assert main(["play", str(path), "--agent", "bfs", "--memory-cap", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "GAVE_UP" in out and "stopped at its memory cap 5 MiB" in out
    assert main(["play", str(path), "--agent", "sat", "--memory-cap", "5"]) == 2
    assert "--memory-cap" in capsys.readouterr().err


def test_large_boards_race_two_solvers_and_answer_as_the_first_alone():
    """From 20x20 `solve` races RACE_SOLVERS on two cores; whichever wins, the answer is the
    one the first solver gives alone: the unique path of a shipped board, and for a board with
    many paths the first solver's two (the race waits for it), every time."""
    from logic_agents.games.mazes.encode import RACE_CELLS, solve

    assert RACE_CELLS <= 400  # 20x20 boards race by default
    shipped = maze_board.load_board(DATA / "eom-6x6-02.txt")
    assert solve(shipped, race=True) == solve(shipped, race=False)
    assert solve(shipped, race=True).status == "unique"
    empty = maze_board.MazeBoard(6, 6, (0,) * 36, "empty")  # no shapes: many paths
    alone = solve(empty, race=False)
    assert alone.status == "multiple"
    for _ in range(3):
        assert solve(empty, race=True) == alone
    assert solve(empty, unique=False, race=True).solution == alone.solution
    for path in (alone.solution, alone.second):
        assert maze_board.is_solution(empty, path)
