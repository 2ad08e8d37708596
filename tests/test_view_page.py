"""The game page of `logic-agents view`, loaded in headless Chromium as a person would.

For every registered game (the plug-in too): the page opened at `#step=K` shows step K once
its script has run (each tile's data attributes equal the game's own BoardView of the
observation at step K, computed here by stepping a fresh world), and it makes no network
request (Chromium's net log, with a control page that does make requests). For HARD1 and
satx, every proven move's page shows the cells of its proof.

Chromium is Debian's `chromium`; `.ci/run` installs it and sets CI_REQUIRE_BROWSER=1, so CI
fails rather than skips without it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.world.registry import games
from logic_agents.world.runner import run_episode
from logic_agents.world.view import View

from .conftest import project_games

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
if BROWSER is None and os.environ.get("CI_REQUIRE_BROWSER"):
    raise RuntimeError("CI_REQUIRE_BROWSER is set but chromium is not installed")
pytestmark = pytest.mark.skipif(BROWSER is None, reason="chromium is not installed")

QUIET = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--host-resolver-rules=MAP * ~NOTFOUND",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--disable-extensions"]
TILE = re.compile(r'<g class="tile" ([^>]*)>')
ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')


def load(page: Path, step: int | None = None, net_log: Path | None = None,
         width: int | None = None) -> str:
    """The page's DOM after its script ran (Chromium --dump-dom), in a window `width` pixels
    wide when given."""
    url = page.resolve().as_uri() + ("" if step is None else f"#step={step}")
    extra = [f"--log-net-log={net_log}"] if net_log else []
    if width is not None:
        extra += [f"--window-size={width},800", "--virtual-time-budget=2000"]
    done = subprocess.run([BROWSER, *QUIET, *extra, "--dump-dom", url], capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout


def tiles_in(dom: str) -> dict[tuple[int, int], dict[str, str]]:
    out = {}
    for m in TILE.finditer(dom):
        attrs = {k: html.unescape(v) for k, v in ATTR.findall(m.group(1))}
        r, c = map(int, attrs.pop("cell").split(","))
        out[(r, c)] = attrs
    return out


def shown_step(dom: str) -> int:
    return int(re.search(r'id="board"[^>]*data-step="(\d+)"|data-step="(\d+)"[^>]*id="board"',
                         dom).group(1) or 0)


def page_requests(net_log: Path) -> list[str]:
    """URLs the page itself asked for (the browser's own traffic has another isolation key)."""
    log = json.loads(net_log.read_text())
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    return [e["params"].get("url", "") for e in log["events"]
            if names.get(e["type"]) == "URL_REQUEST_START_JOB"
            and "file://" in e["params"].get("network_isolation_key", "")
            and not e["params"].get("url", "").startswith("file:")]


def observations(spec, reference: str, agent: str, **world_options) -> list:
    """Every observation of the episode the page shows, from a fresh world and agent."""
    from logic_agents.world.resolve import resolve

    instance = resolve(reference, spec)[1][0]
    world = spec.make_world(instance, **world_options)
    first, _ = spec.make_world(instance, **world_options).reset(seed=0)
    seen = [first]
    run_episode(world, spec.make_agent(agent), 0, on_step=lambda obs, a, r: seen.append(obs))
    return seen


CASES = {"daggers": ("EASY1", "satx"), "sudoku": ("norvig_top95:1", "logic"),
         "undead": ("4x4de:1", "logic"), "mazes": ("eom-6x6-01", "sat"),
         "ooze": ("ooze", "greedy")}


@pytest.mark.parametrize("name", project_games())
def test_the_page_shows_step_k_of_every_game(name, tmp_path, capsys):
    spec = games()[name]
    reference, agent = CASES.get(name, (spec.example, spec.default_agent))
    extra = ["--max-ticks", "40"] if name == "ooze" else []
    page = tmp_path / "game.html"
    assert main(["view", reference, "--agent", agent, "-o", str(page), *extra]) == 0
    view = spec.get(View)
    assert view is not None, f"{name} has no View: the page would show text only"
    seen = observations(spec, reference, agent, **({"max_ticks": 40} if extra else {}))
    last = len(seen) - 1
    net_log = tmp_path / "net.json"
    for k in sorted({0, last // 2, last}):
        dom = load(page, k, net_log if k == 0 else None)
        assert shown_step(dom) == k
        board = view.board(seen[k])
        shown = tiles_in(dom)
        assert len(shown) == board.rows * board.cols
        for (r, c), attrs in shown.items():
            tile = board.tile(r, c)
            assert (attrs["text"], attrs["kind"]) == (tile.text, tile.kind), (name, k, r, c)
        moved = {cell for cell, attrs in shown.items() if attrs["move"] == "1"}
        if k > 0 and moved:
            assert len(moved) == 1
    assert page_requests(net_log) == []


def test_the_request_check_sees_a_page_that_fetches(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text('<img src="http://example.invalid/x.png"><script>fetch("https://example.invalid/y")'
                   "</script>")
    net_log = tmp_path / "net.json"
    load(bad, net_log=net_log)
    assert sorted(page_requests(net_log)) == ["http://example.invalid/x.png",
                                              "https://example.invalid/y"]


def test_hard1_satx_page_shows_the_clues_of_every_proof(tmp_path, capsys):
    page = tmp_path / "hard1.html"
    assert main(["view", "maps/daggers/2018/HARD1.txt", "--agent", "satx", "-o", str(page)]) == 0
    text = page.read_text()
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)</script>',
                                text, re.S).group(1))
    proven = [k for k, f in enumerate(data["frames"]) if f.get("proof")]
    sat_proofs = [k for k in proven if "is safe" in data["frames"][k]["why"]
                  or "is a dagger" in data["frames"][k]["why"]]
    assert sat_proofs, "HARD1 has moves only the SAT test proves"
    for k in (proven[0], sat_proofs[0], sat_proofs[-1]):
        frame = data["frames"][k]
        dom = load(page, k)
        shown = tiles_in(dom)
        proof = {cell for cell, attrs in shown.items() if attrs["proof"] == "1"}
        named = {tuple(map(int, m)) for m in re.findall(r"at \((\d+), (\d+)\)", frame["why"])}
        assert proof == named and proof, (k, frame["why"])
        # a proof's clue cells show their clues on the board at that step
        assert all(shown[cell]["text"].isdigit() or shown[cell]["kind"] == "open"
                   for cell in proof)
        assert re.search(r'id="why"[^>]*>.*?' + re.escape(frame["action"]), dom, re.S)


def test_compare_html_writes_a_study_page_with_a_replay_per_game(tmp_path, capsys):
    maps = tmp_path / "maps"
    maps.mkdir()
    for name in ("EASY1", "MEDIUM2"):
        shutil.copy(f"maps/daggers/2018/{name}.txt", maps)
    page = tmp_path / "study.html"
    code = main(["compare", str(maps), "--agents", "spx,satx", "--runs", "2", "--jobs", "1",
                 "--html", str(page), "--out", str(tmp_path / "rows.csv")])
    err = capsys.readouterr().err
    assert code == 0 and "8 replay pages" in err and "note:" not in err
    from logic_agents.study.rows import read_rows

    rows = read_rows(tmp_path / "rows.csv")
    text = page.read_text()
    links = re.findall(r'<a href="([^"]+)">replay</a>', text)
    assert len(links) == len(rows) == 8
    for link in links:
        data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)'
                                    r"</script>", (tmp_path / link).read_text(), re.S).group(1))
        row = next(r for r in rows if r.agent == data["agent"] and r.map == data["map"]
                   and r.seed == data["seed"])
        assert (data["outcome"], len(data["frames"]) - 1) == (row.outcome, row.steps)
    net_log = tmp_path / "net.json"
    dom = load(page, net_log=net_log)
    assert dom.count(">replay</a>") == 8 and 'id="summary"' in dom
    assert page_requests(net_log) == []
    # the command that made it, to be run again
    command = re.search(r"<dt>command</dt><dd><code>(.*?)</code>", text).group(1)
    assert html.unescape(command) == ("logic-agents compare " + str(maps) + " --agents spx,satx "
                                      "--runs 2 --jobs 1 --html " + str(page) + " --out "
                                      + str(tmp_path / "rows.csv"))
    # per map: each agent's wins with an interval; per pair: the difference with one
    maps_table = re.search(r'<table id="maps".*?</table>', text, re.S).group(0)
    assert re.findall(r"<tr><td>maps</td><td[^>]*>(\w+)</td>", maps_table) == ["EASY1", "MEDIUM2"]
    assert len(re.findall(r"\d/2  [\d.]+ \[[\d.]+, [\d.]+\]", maps_table)) == 4
    pairs = re.search(r'<table id="pairs".*?</table>', text, re.S).group(0)
    assert re.search(r"<td>spx</td><td>satx</td>.*?[+-]\d+\.\d \[[+-][\d.]+, [+-][\d.]+\]", pairs)
    # a click on a header sorts the table: by steps, ascending, then descending
    clicked = tmp_path / "clicked.html"
    clicked.write_text(text.replace("</body>", '<script>const h = document.querySelector('
                                    '"#games th:nth-child(7)"); h.click(); h.click();</script>'
                                    "</body>"))
    sorted_dom = load(clicked)
    games = re.search(r'<table id="games".*?</table>', sorted_dom, re.S).group(0)
    steps = [int(m) for m in re.findall(r"<tr>(?:<td[^>]*>[^<]*</td>){6}<td[^>]*>(\d+)</td>",
                                        games)]
    assert len(steps) == 8 and steps == sorted(steps, reverse=True) and steps != sorted(steps)
    assert 'aria-sort="descending"' in games


def test_view_of_a_trace_is_the_view_of_the_game(tmp_path, capsys):
    trace, direct, replayed = (tmp_path / n for n in ("t.jsonl", "a.html", "b.html"))
    assert main(["play", "EASY1", "--agent", "prob", "--seed", "3", "--quiet", "--explain",
                 "--trace", str(trace)]) == 0
    assert main(["view", "EASY1", "--agent", "prob", "--seed", "3", "-o", str(direct)]) == 0
    assert main(["view", str(trace), "-o", str(replayed)]) == 0

    def data(page):
        return json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)'
                                    r"</script>", page.read_text(), re.S).group(1))

    assert data(direct) == data(replayed)


def test_view_refuses_bad_requests_with_one_line(tmp_path, capsys):
    page = tmp_path / "p.html"
    page.write_text("keep me")
    trace = tmp_path / "t.jsonl"
    assert main(["play", "EASY1", "--quiet", "--trace", str(trace)]) == 0
    capsys.readouterr()
    for argv, words in ((["view", "EASY1", "-o", str(tmp_path / "p.txt")], "name it FILE.html"),
                        (["view", "EASY1", "-o", str(page)], "--force"),
                        (["view", str(trace), "--agent", "satx", "-o", str(tmp_path / "q.html")],
                         "already holds"),
                        (["view", "EASY1", "--agent", "human", "-o", str(tmp_path / "h.html")],
                         "needs a person")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, err
    assert page.read_text() == "keep me"


def test_play_delay_redraws_one_board_and_replay_show_checks_while_it_shows(tmp_path, capsys):
    trace = tmp_path / "t.jsonl"
    assert main(["play", "EASY1", "--agent", "satx", "--delay", "0", "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    # piped, the live board is printed once, at the end: the last move and its why under it
    # (satx's game under the seed its reset gets, its own since issue 52)
    assert out.count("daggers EASY1  agent satx") == 1 and "probe 4 4  single point" in out
    assert "WON EASY1 with satx" in out
    assert main(["replay", str(trace), "--show", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "step 10" in out and "trace agrees: 10 steps replayed" in out


def test_view_json_says_what_it_wrote(tmp_path, capsys):
    page = tmp_path / "e.html"
    assert main(["view", "EASY1", "--agent", "satx", "-o", str(page), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said == {"file": str(page), "game": "daggers", "map": "EASY1", "agent": "satx",
                    "seed": 0, "steps": 10, "outcome": "won",
                    "bytes": len(page.read_text().encode("utf-8"))}


def test_a_name_that_looks_like_markup_leaves_the_page_working(tmp_path, capsys):
    """Issue 26: `<!--` in a name blanked the page (it was rewritten to a non-JSON escape)."""
    text = (Path(__file__).parent.parent / "maps/daggers/2018/EASY1.txt").read_text()
    odd = tmp_path / "odd.txt"
    odd.write_text(text.replace("name: EASY1", "name: a<!--b</script><script>c"))
    page = tmp_path / "odd.html"
    assert main(["view", str(odd), "--agent", "satx", "-o", str(page)]) == 0
    dom = load(page, step=3)
    assert shown_step(dom) == 3  # the script ran and drew step 3
    assert "a&lt;!--b&lt;/script&gt;&lt;script&gt;c" in dom  # the name, shown as text


def test_boards_carry_the_games_row_and_column_numbers(tmp_path, capsys):
    page = tmp_path / "u.html"
    assert main(["view", "4x4de:1", "--agent", "logic", "-o", str(page)]) == 0
    dom = load(page)
    labels = re.findall(r'<text[^>]*class="label"[^>]*>(\d+)</text>', dom)
    # the clue frame has no number: rows 0-3 and columns 0-3 of the game, as its actions
    assert sorted(labels) == sorted([str(k) for k in range(4)] * 2)


def test_a_narrow_page_keeps_the_board_in_view_and_its_odds_readable(tmp_path, capsys):
    page = tmp_path / "h.html"
    assert main(["view", "HARD10", "--agent", "prob", "-o", str(page)]) == 0
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("</body>", (
        "<script>setTimeout(() => { document.body.dataset.scrolly = String(window.scrollY); "
        "document.body.dataset.listy = String(document.querySelector('aside').scrollTop); }, "
        "300);</script></body>")))
    last = len(json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)'
                                    r"</script>", page.read_text(), re.S).group(1))["frames"]) - 1
    dom = load(probe, step=last, width=400)
    scrolled = re.search(r'data-scrolly="(\d+)" data-listy="(\d+)"', dom)
    # the move list scrolled to the last move; the page did not (the board stays in view)
    assert scrolled and scrolled.group(1) == "0" and int(scrolled.group(2)) > 0
    guess = load(page, step=24)  # prob's first guess on HARD10: the odds of every cell
    sizes = {int(m) for m in re.findall(r'<text[^>]*font-size="(\d+)"[^>]*>\.\d\d</text>', guess)}
    assert sizes and min(sizes) >= 11


def test_oozes_plan_is_drawn_as_a_route_not_listed(tmp_path, capsys):
    page = tmp_path / "o.html"
    assert main(["view", "ooze", "--agent", "sat", "--max-ticks", "30", "-o", str(page)]) == 0
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)'
                                r"</script>", page.read_text(), re.S).group(1))
    step = next(k for k, f in enumerate(data["frames"]) if f.get("route"))
    words = data["frames"][step]["why"]
    tiles = int(re.search(r"a route of (\d+) tiles", words).group(1))
    assert len(re.findall(r"\(\d+, \d+\)", words)) == 2  # where it starts and ends only
    dom = load(page, step=step)
    line = re.search(r'<polyline id="route"[^>]*>', dom).group(0)
    assert 'visibility="visible"' in line
    assert len(re.search(r'points="([^"]*)"', line).group(1).split()) == tiles


def test_the_study_page_fits_a_narrow_window_and_orders_maps_naturally(tmp_path):
    """Issue 41: at 400 px the pair table's p and verdict were off screen; the Games table
    sorted maps as text (EASY1, EASY10, EASY2) where the By-map table sorted them naturally;
    with three agents the page says how the verdicts treat many pairs (Holm)."""
    import logic_agents as la

    study = la.compare(["spx", "satx", "rpx"], ["EASY10", "EASY2", "EASY1"], runs=1, jobs=1,
                       progress=False)
    text = study.to_html()
    games = re.search(r'<table id="games".*?</table>', text, re.S).group(0)
    shown = re.findall(r"<tr><td>spx</td><td>[^<]*</td><td[^>]*>(EASY\d+)</td>", games)
    assert shown == ["EASY1", "EASY2", "EASY10"]
    assert "p, Holm" in text and "Holm's step-down" in text
    page = tmp_path / "study.html"
    page.write_text(text.replace("</body>", "<script>document.body.dataset.fit = String("
                                 "document.documentElement.scrollWidth <= innerWidth);"
                                 "</script></body>"))
    dom = load(page, width=400)
    assert 'data-fit="true"' in dom
    # each table scrolls in its own box: the leaderboard (issue 53), the summary, the pairs,
    # the maps and the games; and so do the bars, drawn at their size
    assert dom.count('class="scroll"') == 6
    assert dom.count("<table") == dom.count('<div class="scroll"><table') == 5


def test_holm_adjusts_as_the_textbook_says():
    from logic_agents.web.study import holm

    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5] and holm([]) == []


def test_replays_choose_which_games_get_a_page(tmp_path, capsys):
    """Issue 41: --html wrote a page per game (220 MB for 9,000 games); --replays chooses all,
    lost (the games not won) or none, and auto keeps a large study's report small."""
    from logic_agents.study.rows import read_rows

    counts = {}
    for choice in ("all", "lost", "none"):
        page = tmp_path / f"{choice}.html"
        rows_file = tmp_path / f"{choice}.csv"
        assert main(["compare", "EASY1", "EASY2", "--agents", "rpx,satx", "--runs", "3",
                     "--jobs", "1", "--html", str(page), "--replays", choice,
                     "--out", str(rows_file)]) == 0
        counts[choice] = len(list((tmp_path / f"{choice}_replays").glob("*.html")))
        rows = read_rows(rows_file)
        assert f"({counts[choice]} replay pages beside it" in capsys.readouterr().err
    lost = sum(1 for r in rows if r.outcome != "won")
    assert counts == {"all": 12, "lost": lost, "none": 0} and 0 < lost < 12


@pytest.mark.parametrize("width", [400, 1280])
def test_the_leaderboard_shows_rank_name_rate_and_errors_at_400_px(tmp_path, width):
    """Issue 67: at 400 px the leaderboard showed rank and name only (the rest scrolled out
    of sight). It keeps rank, name, win rate and errors in view without a horizontal
    scroll; games, wins, the bar and the time-outs wait for a wider window (1280 px)."""
    import logic_agents as la

    long = tmp_path / "a_student_with_a_rather_long_folder_name_12345678.py"
    long.write_text("from logic_agents.games.daggers.agents import SinglePointAgent\n\n\n"
                    "class Agent(SinglePointAgent):\n    name = 'Zoë Müller-Lüdenscheidt_12345678_"
                    "assignsubmission_file_'\n")
    text = la.compare(["spx", f"{long}:Agent"], ["EASY1", "EASY2"], runs=1, jobs=1,
                      progress=False, sandbox="none").to_html()
    probe = ("<script>const t = document.getElementById('leaderboard');"
             "const box = t.parentElement;"
             "const seen = [...t.rows[1].cells].map(c => c.offsetParent !== null && "
             "c.getBoundingClientRect().right <= innerWidth ? '1' : '0').join('');"
             "document.body.dataset.cells = seen;"
             "document.body.dataset.fits = String(box.scrollWidth <= box.clientWidth);"
             "</script></body>")
    page = tmp_path / "study.html"
    page.write_text(text.replace("</body>", probe))
    dom = load(page, width=width)
    cells = re.search(r'data-cells="([01]+)"', dom).group(1)
    # rank, agent, games, wins, win rate, bar, errors, time-outs
    assert re.search(r'data-fits="true"', dom), dom[-500:]
    assert cells == ("11001010" if width == 400 else "11111111"), cells


def test_the_page_marks_each_certified_move_and_its_proofs_size(tmp_path, capsys):
    page = tmp_path / "hard2.html"
    assert main(["view", "HARD2", "--agent", "satx", "--certify", "-o", str(page)]) == 0
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)</script>',
                                page.read_text(), re.S).group(1))
    certified = [k for k, f in enumerate(data["frames"]) if "certified" in f]
    assert certified
    dom = load(page, certified[-1])
    marked = re.findall(r'<li[^>]*class="certified[^"]*"[^>]*>', dom)
    assert len(marked) == len(certified)
    assert all(re.search(r'data-lemmas="\d+"', li) for li in marked)
    lemmas = data["frames"][certified[-1]]["certified"]
    assert f"✓ certified (proofs of {lemmas} lemmas checked)" in dom
