"""Sudoku as a world: rules, check_world, and every agent's solutions checked by is_solution."""

from pathlib import Path

import pytest

from logic_agents.errors import IllegalAction
from logic_agents.games.sudoku import (
    AGENTS,
    SudokuAction,
    SudokuPuzzle,
    SudokuWorld,
    illegal_actions,
    is_solution,
    load,
    load_puzzles,
    norvig_solve,
    parse_puzzles,
    place,
)
from logic_agents.world.check import check_world
from logic_agents.world.core import Outcome
from logic_agents.world.runner import run_episode

DATA = Path(__file__).resolve().parents[3] / "maps" / "sudoku"
EXAMPLE = parse_puzzles("12..3..2.1.34..1")[0]


def play(agent: str, puzzle: SudokuPuzzle):
    grids = []
    world = SudokuWorld(puzzle)
    result = run_episode(world, AGENTS[agent](), seed=0,
                         on_step=lambda obs, a, r: grids.append(obs.cells))
    return result, (grids[-1] if grids else puzzle.cells)


@pytest.mark.parametrize("agent", ["sat", "logic", "norvig"])
def test_agents_solve_top95_and_hardest_verified(agent):
    puzzles = load_puzzles(DATA / "norvig_hardest.txt") + load_puzzles(DATA / "norvig_top95.txt")[:15]
    for puzzle in puzzles:
        result, grid = play(agent, puzzle)
        assert result.won and is_solution(puzzle, grid), (agent, puzzle.name)


def test_logic_agent_stops_where_a_guess_is_needed():
    top = load_puzzles(DATA / "norvig_top95.txt")[0]
    fewer = SudokuPuzzle(9, (0,) + top.cells[1:])  # several solutions
    result, grid = play("logic", fewer)
    assert result.outcome is Outcome.GAVE_UP and not result.won
    assert result.stats["deduced"] == sum(v != 0 for v in grid) - fewer.clues
    result, _ = play("sat", fewer)
    assert result.won  # sat picks one of the solutions


def test_norvig_counts_nodes_and_respects_its_cap():
    hardest = load_puzzles(DATA / "norvig_hardest.txt")[0]
    grid, nodes = norvig_solve(hardest)
    assert is_solution(hardest, grid) and nodes >= 1
    assert norvig_solve(hardest, node_cap=0)[0] is None


def test_world_rules():
    world = SudokuWorld(EXAMPLE)
    obs, info = world.reset(seed=0)
    assert world.outcome is None and obs.givens[0] and not obs.givens[2]
    with pytest.raises(IllegalAction, match="given"):
        world.step(place(0, 0, 2))
    with pytest.raises(IllegalAction, match="values run"):
        world.step(place(0, 2, 5))
    obs, reward, term, trunc, _ = world.step(place(0, 2, 4))
    assert obs.at((0, 2)) == 4 and reward == 0 and not term
    assert SudokuAction.from_json(str(place(3, 1, 2))) == place(3, 1, 2)


def test_file_index_syntax():
    assert load(f"{DATA / 'norvig_top95.txt'}:2") == load_puzzles(DATA / "norvig_top95.txt")[1]


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_check_world(agent):
    check_world(lambda: SudokuWorld(EXAMPLE), lambda: AGENTS[agent](), illegal_actions, seeds=(0, 1))


def test_generated_puzzles_are_unique_and_reproducible():
    from logic_agents.games.sudoku.encode import SudokuSolver
    from logic_agents.games.sudoku.generate import generate_puzzles

    for n, clues in ((4, None), (9, None), (9, 40)):
        puzzles = generate_puzzles(n, 3, seed=7, clues=clues)
        assert puzzles == generate_puzzles(n, 3, seed=7, clues=clues)
        for p in puzzles:
            assert SudokuSolver(n).check(p).status == "unique"
            if clues is not None:
                assert p.clues == clues


@pytest.mark.parametrize("agent", ["ea-repair", "ea-multi"])
def test_evolutionary_agents_verified_wins_and_capped_losses(agent):
    from logic_agents.games.sudoku.generate import generate_puzzles

    wins = 0
    for puzzle in generate_puzzles(4, 8, seed=1):
        result, grid = play(agent, puzzle)
        assert 1 <= result.stats["generations"] <= 2000
        if result.won:
            wins += 1
            assert is_solution(puzzle, grid)
        else:
            assert result.outcome is Outcome.GAVE_UP and result.stats["generations"] == 2000
    assert wins >= 1
    capped = AGENTS[agent](generations=1)
    hard = load_puzzles(DATA / "norvig_top95.txt")[0]
    lost = run_episode(SudokuWorld(hard), capped, seed=0)
    assert not lost.won and lost.stats["generations"] == 1


def test_conflicts():
    from logic_agents.games.sudoku.evolve import conflicts

    grid = [1, 1, 0, 0] + [0] * 12
    assert conflicts(grid, 4) == {0, 1}


def test_answers_do_not_depend_on_what_the_process_solved_before(capsys, tmp_path):
    """An empty grid has many solutions: the one `solve` and `play` pick must be the same in a
    fresh process and after 30 other puzzles (`solve` keeps one warm solver per size, whose
    answers are canonical; an agent's solver lives for its episode)."""
    import json
    import subprocess
    import sys

    from logic_agents.cli import main
    from tests.conftest import ROOT

    empty = "." * 81
    solve = ["solve", empty, "--json"]

    def play(trace):
        return ["play", empty, "--agent", "sat", "--seed", "0", "--quiet", "--trace", str(trace)]

    def actions(trace):
        return [json.loads(line).get("action") for line in trace.read_text().splitlines()]

    fresh_solve = subprocess.run([sys.executable, "-m", "logic_agents", *solve], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout
    subprocess.run([sys.executable, "-m", "logic_agents", *play(tmp_path / "fresh.jsonl")],
                   cwd=ROOT, capture_output=True, text=True, check=True)
    top95 = ROOT / "maps/sudoku/norvig_top95.txt"
    for k in range(30):
        assert main(["solve", f"{top95}:{k + 1}", "--json"]) == 0
    assert main(["play", f"{top95}:3", "--agent", "sat", "--quiet"]) == 0
    capsys.readouterr()
    assert main(solve) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == json.loads(fresh_solve)["solution"]
    assert main(play(tmp_path / "after.jsonl")) == 0
    assert actions(tmp_path / "after.jsonl") == actions(tmp_path / "fresh.jsonl")
