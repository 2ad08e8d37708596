"""Undead world, agents (sat, logic, the report's searches) and the generator."""

import random
from pathlib import Path

import pytest

from logic_agents.errors import FormatError, GenerationError, IllegalAction
from logic_agents.games.undead import AGENTS, UndeadWorld, place
from logic_agents.games.undead import board as undead_board
from logic_agents.games.undead import files as undead_files
from logic_agents.games.undead.difficulty import GAME_SEARCH_LIMIT, rate
from logic_agents.games.undead.encode import UndeadSolver
from logic_agents.games.undead.generate import generate_puzzle, generate_puzzles
from logic_agents.games.undead.layout import LayoutSolver
from logic_agents.games.undead.repair import propagation_share
from logic_agents.games.undead.search import METHODS, Budget, zero_fill
from logic_agents.games.undead.world import UndeadAction
from logic_agents.world.core import Outcome
from logic_agents.world.runner import run_episode

DATA = Path(__file__).resolve().parents[3] / "maps" / "undead"
EXAMPLE_ID = "4x4:3,4,2,LbRaLcRaRLaRa,0,3,3,0,2,1,1,0,0,1,3,0,0,0,2,3"
FOUR_BY_FOUR = [e for name in ("4x4de", "4x4dn", "4x4dt")
                for e in undead_files.load_entries(DATA / f"{name}.tsv")]


def play(puzzle, agent_name, seed=0, **options):
    world = UndeadWorld(puzzle)
    agent = AGENTS[agent_name](**options)
    result = run_episode(world, agent, seed)
    return result, world, agent


def test_the_world_enforces_the_rules():
    puzzle = undead_board.parse_game_id(EXAMPLE_ID.replace("LbRa", "LVaRa", 1))  # (0,1) given: a vampire
    world = UndeadWorld(puzzle)
    obs, info = world.reset(seed=0)
    assert world.outcome is None and obs.cells == puzzle.grid
    for bad in (place(0, 0, "G"), place(0, 1, "Z"), place(4, 0, "G"), place(0, 2, "X")):
        with pytest.raises(IllegalAction):
            world.step(bad)
    solution = "LVVRVLGZGRZRLVRG"
    obs, reward, done, truncated, _ = world.step(place(0, 2, "G"))  # wrong, then overwritten
    assert (reward, done) == (0.0, False)
    for i, ch in enumerate(solution):
        if puzzle.grid[i] == ".":
            obs, reward, done, truncated, _ = world.step(place(*divmod(i, 4), ch))
    assert done and reward == 1.0 and obs.cells == solution
    with pytest.raises(IllegalAction):
        world.step(place(0, 2, "V"))
    assert UndeadAction.from_json("place 1 2 Z") == place(1, 2, "Z")
    with pytest.raises(FormatError):
        UndeadAction.from_json("put 1 2 Z")


@pytest.mark.parametrize("agent", ["sat", "logic"])
def test_sat_and_logic_solve_every_shipped_7x7(agent):
    for entry in undead_files.load_entries(DATA / "7x7dn.tsv")[:10]:
        result, world, _ = play(entry.puzzle, agent)
        assert result.outcome is Outcome.WON
        assert undead_board.is_solution(entry.puzzle, world.observe().cells)
        assert world.observe().cells == entry.reference


def test_logic_gives_up_when_nothing_is_entailed_and_reports_how_it_deduced():
    puzzle = undead_board.parse_game_id(EXAMPLE_ID)
    loose = undead_board.UndeadPuzzle(4, 4, puzzle.counts, puzzle.grid, (None,) * 16)
    result, _, agent = play(loose, "logic")
    assert result.outcome is Outcome.GAVE_UP
    result, _, agent = play(puzzle, "logic")
    stats = agent.stats()
    assert result.won and stats["deduced"] == 9
    assert stats["by_propagation"] + stats["by_entailment"] == 9


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("use_zero_fill", [True, False])
def test_the_reports_methods_solve_every_4x4(method, use_zero_fill):
    rng = random.Random(5)
    for entry in FOUR_BY_FOUR:
        options = {"rng": rng} if method == "brute-force" else {}
        result = METHODS[method](entry.puzzle, zero_fill=use_zero_fill,
                                 budget=Budget(node_cap=2_000_000, time_cap=None), **options)
        assert result.stopped is None, entry.puzzle.name
        assert result.solution == entry.reference and undead_board.is_solution(entry.puzzle, result.solution)
        assert result.nodes > 0


@pytest.mark.parametrize("method", ["dfs-square", "dfs-path", "dfs-path-tight"])
def test_the_exhaustive_searches_solve_7x7_and_say_unsat(method):
    for entry in undead_files.load_entries(DATA / "7x7de.tsv")[:5]:
        assert METHODS[method](entry.puzzle).solution == entry.reference
    puzzle = undead_board.parse_game_id(EXAMPLE_ID)
    impossible = undead_board.UndeadPuzzle(4, 4, puzzle.counts, puzzle.grid, (9,) + puzzle.clues[1:])
    result = METHODS[method](impossible)
    assert result.solution is None and result.stopped is None


def test_zero_fill_is_sound_and_a_cap_stops_a_search():
    filled = 0
    for path in sorted(DATA.glob("*.tsv")):
        for entry in undead_files.load_entries(path):
            fixed = zero_fill(entry.puzzle)
            filled += len(fixed)
            assert all(entry.reference[i] == m for i, m in fixed.items())
    assert filled > 500
    hard = undead_files.load_entries(DATA / "7x7dn.tsv")[0].puzzle
    result = METHODS["brute-force"](hard, budget=Budget(node_cap=1000, time_cap=None))
    assert result.solution is None and result.stopped == "node cap 1000" and result.nodes == 1001
    played, _, agent = play(hard, "brute-force", node_cap=1000)
    assert played.outcome is Outcome.GAVE_UP and agent.stats()["capped"] == 1


def test_same_seed_same_trajectory_for_the_random_method():
    puzzle = undead_files.load_entries(DATA / "4x4dt.tsv")[0].puzzle
    runs = [play(puzzle, "brute-force", seed=s, zero_fill=False) for s in (3, 3, 4)]
    nodes = [agent.stats()["nodes"] for _, _, agent in runs]
    assert nodes[0] == nodes[1] != nodes[2]


@pytest.mark.parametrize("size,difficulty", [((4, 4), None), ((7, 7), "easy"), ((7, 5), "tricky"),
                                             ((12, 12), None)])
def test_generated_puzzles_are_unique_and_reproducible(size, difficulty):
    width, height = size
    made = generate_puzzles(width, height, 2, seed=11, difficulty=difficulty)
    again = generate_puzzles(width, height, 2, seed=11, difficulty=difficulty)
    assert [g.puzzle for g in made] == [g.puzzle for g in again]
    for g in made:
        assert undead_board.is_solution(g.puzzle, g.solution)
        assert UndeadSolver(g.puzzle).solutions(2) == [g.solution]
        assert undead_board.parse_game_id(undead_board.format_game_id(g.puzzle)) == g.puzzle
        share = g.puzzle.monster_cells and len(g.puzzle.monster_cells) / (width * height)
        assert 0.48 <= share <= 0.78
        if difficulty:  # the game's own rating, recomputed from the ID alone
            again_rated = rate(undead_board.parse_game_id(undead_board.format_game_id(g.puzzle)))
            assert again_rated.level == difficulty == g.puzzle.level
            assert again_rated.search_space <= GAME_SEARCH_LIMIT


def test_the_difficulty_proxy_matches_the_logic_agent():
    for entry in undead_files.load_entries(DATA / "5x5dt.tsv")[:8]:
        layout = LayoutSolver(entry.puzzle.width, entry.puzzle.height, entry.puzzle.grid)
        share = propagation_share(entry.puzzle, entry.reference, layout)
        _, _, agent = play(entry.puzzle, "logic")
        stats = agent.stats()
        empty = len(entry.puzzle.monster_cells) - len(entry.puzzle.givens)
        assert share == pytest.approx(stats["by_propagation"] / empty)


def test_generator_refuses_the_impossible():
    with pytest.raises(GenerationError):
        generate_puzzle(0, 3, random.Random(0))
    with pytest.raises(GenerationError):
        generate_puzzle(4, 4, random.Random(0), difficulty="nightmare")


def test_the_memory_cap_stops_the_line_search():
    hard = undead_files.load_entries(DATA / "7x7dn.tsv")[0].puzzle
    budget = Budget(node_cap=None, time_cap=None, memory_cap=2000)
    result = METHODS["dfs-path"](hard, zero_fill=False, budget=budget)
    assert result.solution is None and result.stopped.startswith("memory cap")
    again = METHODS["dfs-path"](hard, zero_fill=False,
                                budget=Budget(node_cap=None, time_cap=None, memory_cap=2000))
    assert again.nodes == result.nodes
    full = METHODS["dfs-path"](hard, zero_fill=False, budget=Budget(node_cap=None, time_cap=None))
    assert full.solution is not None and full.stopped is None
