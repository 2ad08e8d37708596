"""Batch comparison: paired seeds, identical rows across backends, streaming, resume, stats."""

import dataclasses
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.errors import DependencyNotInstalled, FormatError, LogicAgentsError
from logic_agents.games.daggers import load
from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.ground.output import natural_key
from logic_agents.study import batch
from logic_agents.study.entries import MapEntry
from logic_agents.study.rows import read_rows
from logic_agents.study.summary import (
    mcnemar_exact,
    paired_difference,
    per_map,
    summarize,
    wilson,
)

from .conftest import MAPS, ROOT

EASY = [MapEntry(load(p), "2018") for p in MAPS if p.stem.startswith("EASY")][:4]


def comparable(rows):
    """Rows without their timings, in a fixed order (workers finish in any order)."""
    return sorted(tuple(json.dumps(v, sort_keys=True) if isinstance(v, dict) else v
                        for k, v in dataclasses.asdict(r).items() if k not in ("time_s", "cpu_s"))
                  for r in rows)


def test_seeds_are_paired_and_stable():
    jobs = batch.make_jobs("daggers", ["rpx", "satx"], EASY, runs=3, seed=9)
    assert len(jobs) == len(EASY) * 3 * 2
    by_agent = {}
    for job in jobs:
        by_agent.setdefault(job.agent, []).append((job.entry.instance.name, job.run, job.seed))
    assert by_agent["rpx"] == by_agent["satx"]
    assert batch.seed_for(9, "EASY1", 0) == batch.seed_for(9, "EASY1", 0) != batch.seed_for(9, "EASY1", 1)


def test_one_and_two_workers_give_the_same_rows():
    one = batch.compare(["rpx", "spx", "satx"], EASY, runs=4, seed=1, jobs=1)
    two = batch.compare(["rpx", "spx", "satx"], EASY, runs=4, seed=1, jobs=2)
    assert comparable(one) == comparable(two)
    assert len(one) == 4 * 3 * len(EASY)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_rows_stream_and_resume_skips_finished_runs(tmp_path, suffix):
    out = tmp_path / f"runs{suffix}"
    first = batch.compare(["spx", "satx"], EASY[:2], runs=2, seed=3, jobs=1, out=out)
    assert comparable(read_rows(out)) == comparable(first)
    assert any(r.stats.get("queries") is not None for r in read_rows(out))
    with pytest.raises(LogicAgentsError, match="--resume"):
        batch.compare(["spx", "satx"], EASY[:2], runs=2, seed=3, jobs=1, out=out)
    played = []
    more = batch.compare(["spx", "satx"], EASY[:2], runs=3, seed=3, jobs=1, out=out, resume=True,
                         on_row=played.append)
    assert len(played) == 2 * 2  # only run 2 of each map and agent was new
    assert len(read_rows(out)) == len(more) == 2 * 2 * 3


def test_torn_last_line_is_dropped(tmp_path):
    out = tmp_path / "runs.jsonl"
    batch.compare(["rpx"], EASY[:1], runs=2, seed=0, jobs=1, out=out)
    with out.open("a") as f:
        f.write('{"agent": "rpx", "map": "EA')  # a crash mid-write
    assert len(read_rows(out)) == 2
    rows = batch.compare(["rpx"], EASY[:1], runs=3, seed=0, jobs=1, out=out, resume=True)
    assert len(rows) == 3 and len(read_rows(out)) == 3


def test_bad_results_files(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(FormatError, match=":1:"):
        read_rows(bad)
    with pytest.raises(FormatError, match=".csv or .jsonl"):
        batch.compare(["rpx"], EASY[:1], runs=1, out=tmp_path / "x.txt")


def test_summary_statistics():
    lo, hi = wilson(97, 100)
    assert abs(lo - 0.9155) < 1e-3 and abs(hi - 0.9897) < 1e-3  # the textbook values
    assert wilson(0, 0) == (0.0, 0.0)
    assert mcnemar_exact(0, 0) == 1.0
    assert abs(mcnemar_exact(0, 5) - 2 / 32) < 1e-12
    assert mcnemar_exact(3, 3) == 1.0
    rows = batch.compare(["rpx", "satx"], EASY, runs=10, seed=2, jobs=1)
    summary = summarize(rows, ["rpx", "satx"])
    assert json.loads(json.dumps(summary.to_json())) == summary.to_json()  # JSON as it is
    sat = summary["agents"]["satx"]
    assert set(sat) >= {"games", "wins", "win_rate", "ci95", "mean_time_s", "mean_steps",
                        "mean_guesses", "groups"}
    assert sat["games"] == 40 and sat["groups"]["2018"]["games"] == 40
    assert "queries" in sat["mean_stats"] and "guesses" not in rows[0].stats
    (pair,) = summary["pairs"]
    assert pair["significant"] and pair["better"] == "satx"
    lo, hi = pair["difference_ci95"]
    rpx_rate = summary["agents"]["rpx"]["win_rate"]
    assert pair["difference"] == rpx_rate - sat["win_rate"] and lo <= pair["difference"] <= hi < 0


@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(st.floats(-1e6, 1e6), st.floats(0, 1e3), st.integers(0, 10**6)),
                min_size=1, max_size=30), st.randoms(use_true_random=False))
def test_a_summary_does_not_depend_on_the_order_games_finish_in(games, rng):
    # parallel games come back in the order they finish: the same rows in another order
    # must give the same doubles (a CI run once saw two agents' equal scores differ in
    # the last bit of an interval)
    from logic_agents.study.rows import Row
    rows = [Row(agent=agent, map=f"m{i % 3}", group=f"g{i % 2}", run=i, seed=i, outcome="won",
                won=bool(steps % 2), steps=steps, guesses=i, score=score, time_s=t,
                stats={"nodes": score * 0.1 + t}, cpu_s=t / 3)
            for agent in ("a", "b") for i, (score, t, steps) in enumerate(games)]
    shuffled = list(rows)
    rng.shuffle(shuffled)
    for scored in (False, True):
        assert summarize(shuffled, ["a", "b"], scored=scored).to_json() == \
            summarize(rows, ["a", "b"], scored=scored).to_json()
        # given the study's groups, per_map's entries come in one order too (without them,
        # in the order the rows first name the groups)
        ordered = per_map(shuffled, ["a", "b"], scored, ["g1", "g0"])
        assert [m.to_json() for m in ordered] == \
            [m.to_json() for m in per_map(rows, ["a", "b"], scored, ["g1", "g0"])]
        assert [m.group for m in ordered] == sorted((m.group for m in ordered), reverse=True)
        assert {(m.group, m.map): m.to_json() for m in per_map(shuffled, ["a", "b"], scored)} \
            == {(m.group, m.map): m.to_json() for m in per_map(rows, ["a", "b"], scored)}


@settings(deadline=None, max_examples=200)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
def test_paired_difference_interval_holds_the_difference(only_a, only_b, agree):
    n = only_a + only_b + agree
    got = paired_difference(only_a, only_b, n)
    lo, hi = got["ci95"]
    assert -1 <= lo <= hi <= 1
    if n:
        assert got["difference"] == (only_a - only_b) / n
        assert lo < hi  # the half added to each cell keeps an interval at 0/0 discordant
    if only_a == only_b:
        assert abs(lo + hi) < 1e-12  # symmetric about no difference


def test_per_map_orders_maps_naturally_and_counts_each():
    rows = batch.compare(["spx", "satx"], EASY[:3], runs=2, seed=1, jobs=1)
    table = per_map(rows, ["spx", "satx"])
    assert [m["map"] for m in table] == sorted({r.map for r in rows}, key=natural_key)
    for entry in table:
        for agent, st_ in entry["agents"].items():
            mine = [r for r in rows if r.map == entry["map"] and r.agent == agent]
            assert (st_["games"], st_["wins"]) == (len(mine), sum(r.won for r in mine))
    assert natural_key("EASY2") < natural_key("EASY10")


def test_generated_entries_group_by_preset():
    entries = [MapEntry(m, "tornado-small")
               for m in generate_maps(PRESETS["tornado-small"], 3, seed=4)]
    summary = summarize(batch.compare(["satx"], entries, runs=2, seed=4, jobs=1))
    assert list(summary["agents"]["satx"]["groups"]) == ["tornado-small"]


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the 'ray' extra is not installed")
def test_ray_rows_equal_process_pool_rows():
    pool = batch.compare(["spx", "satx"], EASY[:2], runs=3, seed=5, jobs=2)
    on_ray = batch.compare(["spx", "satx"], EASY[:2], runs=3, seed=5, backend="ray")
    assert comparable(on_ray) == comparable(pool)


def test_missing_ray_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(DependencyNotInstalled, match=r"logic-agents\[ray\]"):
        batch.compare(["rpx"], EASY[:1], runs=1, backend="ray")


def test_ctrl_c_loses_no_finished_row(tmp_path):
    out = tmp_path / "runs.csv"
    cmd = [sys.executable, "-m", "logic_agents", "compare", str(ROOT / "maps/daggers/2018"),
           "--agents", "satx", "--runs", "400", "--jobs", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 20):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err
    saved = read_rows(out)
    assert 19 <= len(saved) < 12000
    lines = out.read_text().splitlines()
    assert len(lines) == len(saved) + 1  # header + rows, nothing torn
    assert os.path.getsize(out) > 0


def test_example_batch_script_runs(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "compare_agents.py"), "--runs", "1",
                           "--out", str(tmp_path / "r.csv")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "satx" in done.stdout and len(read_rows(tmp_path / "r.csv")) == 150


def test_rows_keep_cpu_time_beside_wall_time_and_older_files_still_read(tmp_path):
    """cpu_s (the playing process's CPU seconds) sits beside time_s (wall) in every row and
    the summary; a CSV written before cpu_s (or before error) reads with cpu_s 0 and keeps
    its header when more rows are appended."""
    import csv as csv_module

    from logic_agents.study.rows import OLD_ROW_FIELDS, OLDER_ROW_FIELDS, RowSink
    from logic_agents.study.summary import summarize

    rows = batch.compare(["satx"], EASY[:2], runs=2, seed=5, jobs=1, out=tmp_path / "new.csv")
    assert all(r.cpu_s > 0 for r in rows)
    assert all(r.cpu_s <= r.time_s * 1.5 + 0.05 for r in rows)  # one process, one thread
    assert summarize(rows)["agents"]["satx"]["mean_cpu_s"] > 0
    for header in (OLD_ROW_FIELDS, OLDER_ROW_FIELDS):
        old = tmp_path / f"old{len(header)}.csv"
        with old.open("w", newline="") as f:
            writer = csv_module.DictWriter(f, header, extrasaction="ignore")
            writer.writeheader()
            record = dataclasses.asdict(rows[0])
            record["stats"], record["extra"] = json.dumps(rows[0].stats), json.dumps(rows[0].extra)
            writer.writerow(record)
        assert read_rows(old)[0].cpu_s == 0.0
        sink = RowSink(old)
        sink.write(rows[1])
        sink.close()
        assert old.read_text().splitlines()[0] == ",".join(header)
        assert len(read_rows(old)) == 2


def test_a_summary_is_data_nothing_changes_after_it_is_made():
    """Issue 40: a summary is a frozen dataclass (its objective given when it is made, not
    written in afterwards); its JSON is what `compare --json` prints."""
    import dataclasses

    import pytest

    from logic_agents.study.summary import Summary

    rows = batch.compare(["spx"], EASY[:1], runs=2, seed=3, jobs=1)
    summary = summarize(rows, ["spx"])
    assert isinstance(summary, Summary) and summary.objective == "win"
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.objective = "score"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.agents["spx"].wins = 99  # type: ignore[misc]
    assert list(summary.to_json()) == ["agents", "pairs", "objective", "baseline",
                                       "baseline_chosen"]
    assert summary["agents"]["spx"]["games"] == summary.agents["spx"].games == 2


def test_a_study_is_set_up_by_one_frozen_settings_object():
    """Issue 40: batch.compare takes a StudySettings (keywords change its fields, for a short
    call); a name that is no setting is refused by name."""
    import dataclasses

    import pytest

    from logic_agents.study.settings import StudySettings

    settings = StudySettings(runs=2, seed=3, jobs=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.runs = 5  # type: ignore[misc]
    by_object = batch.compare(["spx"], EASY[:1], settings)
    by_keywords = batch.compare(["spx"], EASY[:1], runs=2, seed=3, jobs=1)
    assert [(r.map, r.run, r.seed, r.outcome) for r in by_object] == \
        [(r.map, r.run, r.seed, r.outcome) for r in by_keywords]
    with pytest.raises(TypeError, match="rnus"):
        batch.compare(["spx"], EASY[:1], settings, rnus=3)


def test_the_live_bar_ends_on_every_game_and_the_final_rates():
    """Issue 42: the bar is drawn ten times a second, not at every row (that cost a study of
    quick games 0.02 ms a game); its last frame still counts every game and shows each
    agent's final win rate, as the summary does."""
    env = {**os.environ, "FORCE_COLOR": "1", "TERM": "xterm", "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-m", "logic_agents", "compare", "--generate",
                           "beginner", "--count", "40", "--agents", "prob,spx", "--runs", "1",
                           "--jobs", "1", "--json"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)["agents"]
    last = done.stderr.rsplit("\r", 1)[-1]  # the bar's last frame
    assert "80/80" in last
    for name in ("prob", "spx"):
        assert f"{name} {100 * summary[name]['win_rate']:.1f}%" in last
