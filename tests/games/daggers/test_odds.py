"""Exact dagger probabilities agree with brute-force enumeration of every placement."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers.board import neighbours
from logic_agents.games.daggers.odds import InconsistentObservation, dagger_odds
from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT, DaggersObservation


def brute_force(obs: DaggersObservation) -> dict:
    """P(dagger) of every covered cell over all placements that agree with every clue."""
    table = obs.neighbours
    unknown = obs.unknown_cells()
    marked = {c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT)}
    remaining = obs.total_daggers - len(marked)
    if remaining < 0:
        return {}
    hits = dict.fromkeys(unknown, 0)
    total = 0
    for chosen in itertools.combinations(unknown, remaining):
        daggers = set(chosen) | marked
        if all(sum(n in daggers for n in table[c]) == obs.clue(c)
               for c in obs.cells() if obs.clue(c) is not None):
            total += 1
            for c in chosen:
                hits[c] += 1
    return {c: Fraction(hits[c], total) for c in unknown} if total else {}


@st.composite
def positions(draw):
    """A small board, its daggers, some safe cells shown, some daggers flagged or hit."""
    rng = random.Random(draw(st.integers(0, 10**9)))
    topology = draw(st.sampled_from(["square", "square", "hex"]))
    h, w = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = [(r, c) for r in range(h) for c in range(w)]
    daggers = set(rng.sample(cells, rng.randint(1, max(1, len(cells) // 3))))
    table = neighbours(h, w, topology)
    grid = [[COVERED] * w for _ in range(h)]
    for c in cells:
        if c not in daggers and rng.random() < draw(st.sampled_from([0.3, 0.5, 0.7])):
            grid[c[0]][c[1]] = str(sum(n in daggers for n in table[c]))
        elif c in daggers and rng.random() < 0.2:
            grid[c[0]][c[1]] = rng.choice([FLAGGED, HIT])
    return DaggersObservation(tuple(tuple(row) for row in grid), 1, len(daggers), 0, topology)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_probabilities_are_exact(obs):
    expected = brute_force(obs)
    odds = dagger_odds(obs)
    assert set(odds.exact) == set(expected)
    for cell, p in expected.items():
        assert odds.exact[cell] == p  # exact fractions, not merely within 1e-9
        assert abs(odds.probability(cell) - float(p)) < 1e-9


def test_a_worked_board():
    # 1 ? ?      the clue 1 at the top-left sees three covered cells; 2 daggers in all
    # ? ? ?
    obs = DaggersObservation((("1", "?", "?"), ("?", "?", "?")), 1, 2, 0)
    odds = dagger_odds(obs)
    # one of the 3 cells next to the clue and one of the 2 far cells: 3 * 2 = 6 placements
    assert odds.placements == 6
    assert odds.exact[(0, 1)] == Fraction(1, 3) and odds.interior == 0.5
    assert odds.ranked()[0][0] == (0, 1)


def test_a_contradiction_is_reported():
    obs = DaggersObservation((("2", "?"), ("?", "?")), 1, 1, 0)
    with pytest.raises(InconsistentObservation):
        dagger_odds(obs)


@pytest.mark.slow
def test_certainties_are_exactly_the_cells_of_probability_0_or_1():
    """On thousands of positions met in real games, a cell satx proves safe has probability 0,
    a proved dagger 1, and every cell satx cannot decide lies strictly between. (prob relies
    on it: it reads its certain cells off the odds and asks SAT only for proofs. satx plays
    here because it asks at every position where single points are stuck.)"""
    from logic_agents.games.daggers import DaggersWorld, SatAgent
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.logic.oracle import Verdict
    from logic_agents.world.runner import run_episode

    positions = 0

    def check(event):
        nonlocal positions
        odds = dagger_odds(event.observation)
        for cell, verdict in event.verdicts.items():
            p = odds.exact[cell]
            assert (p == 0) == (verdict is Verdict.FALSE), (cell, p, verdict)
            assert (p == 1) == (verdict is Verdict.TRUE), (cell, p, verdict)
        positions += 1

    for preset in ("cs5011-medium", "nettle-medium", "tornado-medium", "beginner",
                   "intermediate"):
        for i, board in enumerate(generate_maps(PRESETS[preset], 150, seed=7)):
            run_episode(DaggersWorld(board), SatAgent(on_query=check), seed=i)
    assert positions >= 1000


def test_prob_guesses_the_safest_cell_and_explains(capsys):
    from logic_agents.cli import main

    assert main(["play", "HARD10", "--agent", "prob", "--seed", "3", "--quiet", "--explain",
                 "--policy", "lowest", "--endgame", "0"]) == 0
    out = capsys.readouterr().out
    assert "no cell is provable" in out and "<- probe" in out
    # the explanation's candidate lines (the move lines above them quote the chosen odds)
    lines = [line for line in out.splitlines() if line.startswith("  ") and "P(dagger)" in line]
    chosen = next(line for line in lines if "<- probe" in line)
    best = min(float(line.split("= ")[1].split()[0]) for line in lines)
    assert float(chosen.split("= ")[1].split()[0]) == best


def test_the_default_explains_its_look_ahead(capsys):
    from logic_agents.cli import main

    assert main(["play", "HARD10", "--agent", "prob", "--seed", "3", "--quiet", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "look-ahead over" in out and "candidates: the probe scores" in out


@pytest.mark.parametrize("policy,tie", [("progress", None), ("progress", 0.3), ("lowest", None),
                                        ("opening", 0.05)])
def test_every_policy_guesses_within_its_tie_of_the_safest_cell(policy, tie):
    from logic_agents.games.daggers import DaggersWorld, ProbAgent
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.world.runner import run_episode

    checked = 0
    for i, board in enumerate(generate_maps(PRESETS["intermediate"], 30, seed=5)):
        agent = ProbAgent(policy=policy, tie=tie, endgame=0)
        guess = agent._guess

        def checked_guess(obs, guess=guess, agent=agent):
            nonlocal checked
            action = guess(obs)
            best_safe = 1 - agent.last_odds.ranked()[0][1]
            safe = 1 - agent.last_odds.probability(action.cell)
            assert safe >= best_safe * (1 - agent.tie) - 1e-12
            checked += 1
            return action

        agent._guess = checked_guess
        run_episode(DaggersWorld(board), agent, seed=i)
    assert checked > 10


@settings(max_examples=150, deadline=None)
@given(positions(), st.integers(0, 10**6))
def test_progress_branches_agree_with_brute_force(obs, pick):
    """`progress` weighs each clue a probe may show by P(clue | probe safe) and scores it by
    the safest cell left after it: both equal a brute-force count over every placement."""
    from logic_agents.games.daggers import ProbAgent

    covered = obs.unknown_cells()
    if not covered or not brute_force(obs):
        return
    cell = covered[pick % len(covered)]
    r, c = cell
    expected = []
    for value in range(len(obs.neighbours[cell]) + 1):
        grid = [list(row) for row in obs.grid]
        grid[r][c] = str(value)
        after = DaggersObservation(tuple(tuple(row) for row in grid), obs.lives,
                                   obs.total_daggers, obs.step, obs.topology)
        ways = _placements(after)
        if ways:
            expected.append((ways, min(brute_force(after).values(), default=0)))
    total = sum(w for w, _ in expected)
    got = ProbAgent.branches(cell, obs)
    assert len(got) == len(expected)
    for (w, pmin), (ways, best) in zip(got, expected):
        assert abs(w - ways / total) < 1e-9 and abs(pmin - float(best)) < 1e-9


@settings(max_examples=100, deadline=None)
@given(positions(), st.integers(0, 10**6))
def test_a_spare_life_weighs_the_hit_by_the_safest_cell_after_it(obs, pick):
    from logic_agents.games.daggers import ProbAgent

    covered = obs.unknown_cells()
    if not covered or not brute_force(obs):
        return
    cell = covered[pick % len(covered)]
    grid = [list(row) for row in obs.grid]
    grid[cell[0]][cell[1]] = HIT
    after = DaggersObservation(tuple(tuple(row) for row in grid), obs.lives,
                               obs.total_daggers, obs.step, obs.topology)
    expected = brute_force(after) if _placements(after) else None
    got = ProbAgent._after_hit(cell, obs)
    if expected is None:
        assert got is None
    else:
        assert abs(got - float(min(expected.values(), default=0))) < 1e-9


def test_lives_change_the_guess_only_when_a_life_is_to_spare():
    """With one life the spare-life weight is never used; with three it changes some guesses."""
    from logic_agents.games.daggers import DaggersWorld, ProbAgent
    from logic_agents.games.daggers.generate import PRESETS, generate_maps
    from logic_agents.world.runner import run_episode

    def guesses(lives, spare_life):
        seen = []
        for i, board in enumerate(generate_maps(PRESETS["intermediate"], 12, seed=4)):
            agent = ProbAgent(spare_life=spare_life, endgame=0)
            guess = agent._guess

            def logged(obs, guess=guess, i=i):
                action = guess(obs)
                seen.append((i, obs.step, action.cell))
                return action

            agent._guess = logged
            run_episode(DaggersWorld(board, lives=lives), agent, seed=i)
        return seen

    assert guesses(1, 0.0) == guesses(1, 0.9)
    assert guesses(3, 0.0) != guesses(3, 0.9)


def _placements(obs: DaggersObservation) -> int:
    table = obs.neighbours
    unknown = obs.unknown_cells()
    marked = {c for c in obs.cells() if obs.at(c) in (FLAGGED, HIT)}
    if len(marked) > obs.total_daggers:
        return 0
    return sum(
        all(sum(n in set(chosen) | marked for n in table[c]) == obs.clue(c)
            for c in obs.cells() if obs.clue(c) is not None)
        for chosen in itertools.combinations(unknown, obs.total_daggers - len(marked)))


def test_an_unknown_policy_is_refused():
    from logic_agents.errors import UnknownName
    from logic_agents.games.daggers import ProbAgent

    with pytest.raises(UnknownName):
        ProbAgent(policy="coin")
    from logic_agents.errors import UsageError

    with pytest.raises(UsageError):
        ProbAgent(tie=1.5)
    with pytest.raises(UsageError):
        ProbAgent(endgame=-1)


def test_cnf_works_for_prob_as_for_satx(tmp_path):
    from logic_agents.cli import main

    for agent in ("satx", "prob"):
        assert main(["cnf", "HARD1", "--agent", agent, "-o", str(tmp_path / f"{agent}.cnf")]) == 0
    assert (tmp_path / "satx.cnf").read_text().replace("satx", "?") == \
        (tmp_path / "prob.cnf").read_text().replace("prob", "?")


def test_explain_with_json_keeps_stdout_one_object_and_options_reach_prob(capsys):
    import json

    from logic_agents.cli import main

    assert main(["play", "HARD10", "--agent", "prob", "--seed", "3", "--json", "--explain",
                 "--policy", "opening", "--endgame", "50"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["agent"] == "prob" and "P(dagger)" in err
    assert main(["play", "HARD10", "--agent", "satx", "--policy", "opening"]) == 2
    assert "does not take --policy" in capsys.readouterr().err
