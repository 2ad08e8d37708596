"""Human play in the terminal (logic_agents.display.tui), key by key through Textual's pilot.

For each game a scripted key sequence plays a known instance to a win (Ooze, which has no
win, to the same score as the agent whose moves the keys repeat); a second sequence asks for
a hint and sees its why. Undo does not count as a step; a human trace replays like any
other; a terminal too small for the board says so and keeps the status line.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os

import pytest

if importlib.util.find_spec("textual") is None:
    if os.environ.get("CI_REQUIRE_PLUGIN"):  # `make test` installs the tui extra
        raise RuntimeError("make test needs textual (the tui extra) for human play")
    pytest.skip("textual (the tui extra) is not installed", allow_module_level=True)

from rich.text import Text  # noqa: E402
from textual import events  # noqa: E402

from logic_agents.display.tui import Session, play_app, replay_actions  # noqa: E402
from logic_agents.world.agents import build_agent, explaining, resolve_agent  # noqa: E402
from logic_agents.world.registry import games, get_game  # noqa: E402
from logic_agents.world.resolve import resolve  # noqa: E402
from logic_agents.world.runner import run_episode  # noqa: E402
from logic_agents.world.spec import Puzzle
from logic_agents.world.trace import Trace, replay  # noqa: E402


def session_of(game: str, reference: str, **world_options) -> Session:
    spec = get_game(game)
    instance = resolve(reference, spec)[1][0]
    entry = resolve_agent(spec, spec.hint_agent or spec.default_agent)

    def hint_agent():
        return build_agent(entry, explaining(entry))

    return Session(spec, instance, world_options, 0, hint_agent)


def walk(start, target) -> list[str]:
    """Arrow keys from one cell to another."""
    (r0, c0), (r1, c1) = start, target
    return (["down"] * (r1 - r0) + ["up"] * (r0 - r1) + ["right"] * (c1 - c0)
            + ["left"] * (c0 - c1))


def press(session: Session, keys: list[str], size=(110, 40)) -> str:
    """Drive the app with `keys`; returns the text the screen showed last."""
    app = play_app(session, "test")
    shown = {}

    async def drive():
        async with app.run_test(size=size) as pilot:
            # the keys go through Textual's driver as pilot.press sends them, but are queued
            # at once rather than waiting for the screen after each (40 ms a key)
            for key in keys:
                character = key if len(key) == 1 else " " if key == "space" else None
                app._driver.send_message(events.Key(key, character))
            await pilot.pause()
            await pilot.pause()
            shown["text"] = "\n".join(str(w.render()) for w in app.query("Static"))

    asyncio.run(drive())
    return shown["text"]


def keys_for(cells_and_keys, start=(0, 0)) -> list[str]:
    keys, at = [], start
    for cell, key in cells_and_keys:
        keys += walk(at, cell) + [key]
        at = cell
    return keys


def test_daggers_is_won_by_probing_every_safe_cell():
    s = session_of("daggers", "EASY1")
    tokens = s.instance.tokens
    safe = [(r, c) for r, row in enumerate(tokens) for c, t in enumerate(row)
            if t != "d" and s.obs.at((r, c)) == "?"]
    shown = press(s, keys_for([(cell, "space") for cell in safe]))
    assert s.outcome == "won" and "WON" in shown
    assert len(s.actions) == len(safe)


def test_sudoku_is_won_with_digit_keys_and_undo_is_no_step():
    s = session_of("sudoku", "norvig_top95:1")
    solution = s.spec.need(Puzzle, "solve").solve(s.instance).solution
    n = s.instance.n
    todo = [((i // n, i % n), str(solution[i])) for i in range(n * n) if not s.instance.cells[i]]
    first_cell = todo[0][0]
    wrong = "1" if todo[0][1] != "1" else "2"
    keys = walk((0, 0), first_cell) + [wrong, "u"] + keys_for(todo, first_cell)
    shown = press(s, keys)
    assert s.outcome == "won" and "WON" in shown
    assert len(s.actions) == len(todo) and s.undos == 1  # the undone move is not a step
    assert "step " in shown and f"step {len(todo)}" in shown


def test_undead_is_won_with_g_v_z():
    s = session_of("undead", "4x4de:1")
    solution = s.spec.need(Puzzle, "solve").solve(s.instance).solution
    w = s.instance.width
    todo = [(divmod(i, w), solution[i].lower()) for i, ch in enumerate(s.instance.grid)
            if ch == "."]
    shown = press(s, keys_for(todo))
    assert s.outcome == "won" and "WON" in shown


def test_mazes_is_won_by_walking_with_the_arrows():
    s = session_of("mazes", "eom-6x6-01")
    path = s.spec.need(Puzzle, "solve").solve(s.instance).solution
    moves = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
    keys = [moves[(b[0] - a[0], b[1] - a[1])] for a, b in zip(path, path[1:])]
    shown = press(s, ["down", keys[0], "u"] + keys)  # a wall bump and an undo on the way
    assert s.outcome == "won" and "WON" in shown and len(s.actions) == len(keys)


def test_ooze_keys_score_what_the_agent_scores():
    spec = get_game("ooze")
    instance = resolve("ooze", spec)[1][0]
    moves = []
    result = run_episode(spec.make_world(instance, max_ticks=30), spec.make_agent("greedy"), 0,
                         on_step=lambda obs, action, reward: moves.append(action))
    keyed, at = [], (0, 0)
    for action in moves:
        if action.kind == "wait":
            keyed.append("w")
            continue
        cell = (action.cell[1], action.cell[0])
        keyed += walk(at, cell) + ["space" if action.kind == "place" else "f"]
        at = cell
    s = session_of("ooze", "ooze", max_ticks=30)
    press(s, keyed)
    assert s.actions == moves and s.score == result.score > 0


def test_akari_plug_in_is_won_with_space():
    if "akari" not in games():
        assert not os.environ.get("CI_REQUIRE_PLUGIN"), "make test installs the plug-in game"
        pytest.skip("the example plug-in game is not installed")
    s = session_of("akari", "akari-7x7-a")
    bulbs = sorted(s.spec.need(Puzzle, "solve").solve(s.instance).solution)
    shown = press(s, keys_for([(cell, "space") for cell in bulbs]))
    assert s.outcome == "won" and "WON" in shown


@pytest.mark.parametrize("game, reference, why", [
    ("daggers", "HARD1", "clue"), ("sudoku", "norvig_top95:1", "holds one"),
    ("undead", "4x4de:1", "clue"), ("mazes", "eom-6x6-01", "SAT path"),
    ("ooze", "ooze", "route")])
def test_h_shows_a_hint_and_its_why(game, reference, why):
    s = session_of(game, reference)
    shown = press(s, ["h"])
    assert s.hints == 1 and "hint: " in shown and why in shown
    assert not s.actions  # a hint is advice, not a move
    if why:
        assert s.hint_cells, "the hint's cells are marked on the board"


def test_a_human_trace_replays_like_any_other(tmp_path):
    s = session_of("sudoku", "norvig_top95:1")
    solution = s.spec.need(Puzzle, "solve").solve(s.instance).solution
    n = s.instance.n
    todo = [((i // n, i % n), str(solution[i])) for i in range(n * n) if not s.instance.cells[i]]
    press(s, keys_for(todo[:5]))
    path = tmp_path / "human.jsonl"
    with Trace(path, instance=s.spec.instances.format(s.instance), map_path="x") as trace:
        result = replay_actions(s.spec, s.instance, {}, 0, s, trace)
    assert result.steps == 5 and result.agent == "human"
    assert replay(path)["steps"] == 5


def test_a_small_terminal_says_so_and_keeps_the_status_line():
    s = session_of("sudoku", "norvig_top95:1")
    shown = press(s, [], size=(24, 10))
    assert "too small" in shown and "step 0" in shown


def test_q_quits_and_the_game_is_given_up():
    s = session_of("daggers", "EASY1")
    press(s, ["q"])
    result = replay_actions(s.spec, s.instance, {}, 0, s, None)
    assert result.outcome.value == "gave_up"


def test_no_undo_where_a_move_shows_hidden_things():
    s = session_of("daggers", "EASY1")
    press(s, ["down", "space", "u"])
    assert "no undo" in s.message


def test_a_hex_board_is_won_by_hand_too(tmp_path):
    """The sweeper family's hex boards: rows drawn shifted, the same keys."""
    path = tmp_path / "hex.txt"
    path.write_text("name: hex5\ntopology: hex\nstart: 0,0\n"
                    ". . . d .\n. . . . .\n. d . d .\n. . . . .\n. . . . .\n")
    s = session_of("daggers", str(path))
    assert s.view.board(s.obs).row_shift  # drawn as a hex board
    safe = [(r, c) for r, row in enumerate(s.instance.tokens) for c, t in enumerate(row)
            if t != "d" and s.obs.at((r, c)) == "?"]
    shown = press(s, keys_for([(cell, "space") for cell in safe]))
    assert s.outcome == "won" and "WON" in shown


def test_without_textual_human_play_names_the_extra(monkeypatch):
    import sys

    from logic_agents.errors import UsageError

    monkeypatch.setitem(sys.modules, "textual", None)  # as if it were not installed
    s = session_of("sudoku", "norvig_top95:1")
    with pytest.raises(UsageError, match=r"pip install 'logic-agents\[tui\]'"):
        play_app(s, "t")


@pytest.mark.parametrize("size", [(110, 40), (40, 12)])
def test_the_status_line_is_the_last_row_and_nothing_covers_it(size):
    s = session_of("undead", "4x4de:1")
    app = play_app(s, "test")
    regions = {}

    async def drive():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            regions.update({name: app.query_one(f"#{name}").region
                            for name in ("board", "why", "keys", "status")})

    asyncio.run(drive())
    status = regions["status"]
    assert status.y == size[1] - 1 and status.height == 1
    for name in ("board", "why", "keys"):
        assert regions[name].bottom <= status.y, name


def test_a_human_game_reports_the_persons_time_not_the_replays():
    s = session_of("daggers", "EASY1")
    press(s, ["q"])
    s.seconds = 61.5  # what play_human measures around the app
    assert replay_actions(s.spec, s.instance, {}, 0, s, None).time_s == 61.5


def key_line(app, size) -> dict:
    """The key line as the app draws it in a terminal of `size`, its region and the keys."""
    shown = {}

    async def drive():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            shown["line"] = str(app.query_one("#keys").render())
            shown["region"] = app.query_one("#keys").region
            shown["keys"] = {active.binding.description
                             for active in app.active_bindings.values() if active.binding.show}

    asyncio.run(drive())
    return shown


def test_the_key_line_lists_the_keys_and_the_help_is_not_said_twice():
    s = session_of("undead", "4x4de:1")
    shown = key_line(play_app(s, "test"), (110, 40))
    assert {"move", "hint", "rules", "restart", "new game", "quit", "undo",
            "ghost / vampire / zombie"} <= shown["keys"]
    assert all(words in shown["line"] for words in shown["keys"])
    assert s.help() not in s.message  # the keys are in the key line, not also in the message


@pytest.mark.parametrize("game, ref", [("daggers", "EASY1"), ("sudoku", "norvig_top95:1"),
                                       ("undead", "4x4de:1"), ("ooze", None)])
def test_every_key_shows_at_80_columns(game, ref):
    """Issue 41: at 80 columns Textual's footer cut the line (`... n new game q qu`); the key
    line wraps, a key never parted from its words."""
    from logic_agents.world.registry import get_game

    s = session_of(game, ref or get_game(game).example)
    app = play_app(s, "test")
    shown = key_line(app, (80, 24))
    lines = shown["line"].splitlines()
    assert all(len(line) <= 78 for line in lines) and shown["region"].right <= 80
    for key, words in app.shown:
        assert any(f"{key} {words}" in line for line in lines), (key, words)


def test_after_n_the_title_and_the_result_name_the_new_puzzle():
    """Issue 41: after `n` (HARD1 to HARD2) the title still said HARD1, and the result line on
    `q` said HARD1 while the trace held the new puzzle."""
    from logic_agents.cli.play import next_puzzle_after
    from logic_agents.world.registry import get_game

    spec = get_game("daggers")
    s = Session(spec, resolve("HARD1", spec)[1][0], {}, 0, None,
                next_puzzle_after("HARD1", spec))
    app = play_app(s, "daggers HARD1")
    shown = {}

    async def drive():
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("n")
            await pilot.pause()
            shown["title"] = app.title

    asyncio.run(drive())
    assert shown["title"] == f"daggers {s.instance.name}" and s.instance.name != "HARD1"
    assert replay_actions(spec, s.instance, {}, s.seed, s, None).map == s.instance.name


def test_question_mark_shows_the_rules_and_any_key_closes_them():
    s = session_of("undead", "4x4de:1")
    app = play_app(s, "test")
    seen = {}

    async def drive():
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            seen["screen"] = type(app.screen).__name__
            seen["text"] = str(app.screen.query_one("#rules").render())
            await pilot.press("x")
            await pilot.pause()
            seen["after"] = type(app.screen).__name__

    asyncio.run(drive())
    assert seen["screen"] == "Rules" and "line of sight" in seen["text"]
    assert seen["after"] != "Rules" and not s.actions  # closing it played nothing


def test_restart_and_new_game():
    from logic_agents.cli.play import next_puzzle_after

    spec = get_game("undead")
    s = Session(spec, resolve("4x4de:1", spec)[1][0], {}, 0, None,
                next_puzzle_after("4x4de:1", spec))
    press(s, ["g", "right", "v"])
    assert len(s.actions) == 2
    press(s, ["r"])
    assert s.actions == [] and s.instance.name == "4x4de:1" and s.outcome is None
    press(s, ["n"])
    assert s.instance.name == "4x4de:2" and s.actions == []
    daggers = get_game("daggers")
    d = Session(daggers, resolve("HARD1", daggers)[1][0], {}, 0, None,
                next_puzzle_after("HARD1", daggers))
    d.new_game()
    assert d.instance.name == "HARD2"  # the next map of its folder, in natural order
    inline = Session(spec, resolve("4x4de:1", spec)[1][0], {}, 0, None, None)
    inline.new_game()
    assert inline.seed == 1  # no file to step through: the next seed


def test_a_click_on_a_cell_acts_there():
    s = session_of("sudoku", "norvig_top95:1")
    app = play_app(s, "test")

    async def drive():
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            board = app.query_one("#board")
            # the board is padded 1 row and 2 columns; line 0 holds the column numbers, the
            # row numbers take 2 characters, and a cell 3: cell (0, 1) is at x = 2 + 2 + 3 + 1
            await pilot.click(board, offset=(2 + 2 + 3 + 1, 1 + 1))
            await pilot.pause()

    asyncio.run(drive())
    assert s.cursor == (0, 1) and [str(a) for a in s.actions] == ["place 0 1 1"]
    assert s.cell_at(2 + 3 * 4 + 1, 1 + 4 + 1) == (4, 4)  # past a box line and a box column


def test_broken_clues_are_drawn_red():
    u = session_of("undead", "4x4de:1")
    kinds = lambda s: {t.kind for t in s.view.board(s.obs).tiles}  # noqa: E731
    assert "broken clue" not in kinds(u)
    # 4x4de:1's top clue of column 0 is 3; fill its whole line with ghosts, seen 0 times there
    for cell in [(0, 0), (1, 0), (2, 0), (3, 0)]:
        u.cursor = cell
        u.act("g")
    assert "broken clue" in kinds(u)
    sudoku = session_of("sudoku", "norvig_top95:1")
    sudoku.cursor = (0, 1)
    sudoku.act("4")  # 4 is given at r0c0: both are drawn red
    board = sudoku.view.board(sudoku.obs)
    assert board.tile(0, 0).kind == "given clash" and board.tile(0, 1).kind == "clash"
    from logic_agents.games.daggers.world import clue_neighbourhoods

    daggers = session_of("daggers", "HARD1")
    assert "broken" not in kinds(daggers)
    # a clue with more covered neighbours than it counts: flag one more than it allows
    cell, k, covered, _ = next(x for x in clue_neighbourhoods(daggers.obs) if len(x[2]) > x[1])
    for neighbour in covered[:k + 1]:
        daggers.cursor = neighbour
        daggers.act("secondary")
    board = daggers.view.board(daggers.obs)
    assert board.tile(*cell).kind == "broken" and board.tile(*cell).text == str(k)
    akari = session_of("akari", "akari-7x7-a")  # the plug-in marks its own, the same way
    for cell in [(0, 0), (0, 2)]:  # two bulbs in one row with no wall between: they see each other
        akari.cursor = cell
        akari.act("primary")
    assert "broken bulb" in kinds(akari)


def test_a_hint_that_is_a_guess_says_so_with_its_odds():
    s = session_of("daggers", "HARD10")
    for _ in range(200):
        s.hint()
        if "a guess" in s.message:
            break
        action = s.controls.act(s.obs, s.hint_move[0], "primary" if s.message.startswith(
            "hint: probe") else "secondary")
        s._step(action)
        s.actions.append(action)
    assert s.message.startswith("hint, a guess (not proven): probe ")
    assert "P(dagger) = 0." in s.message and "win chance 1.0000 (P(dagger)" not in s.message


@pytest.mark.parametrize("size", [(60, 30), (40, 12), (110, 40)])
def test_a_long_hint_is_never_cut_where_the_terminal_ends(size):
    # issue 54: a hint of 700 characters showed 6 lines of its 16 at 60 columns, with no word
    # that more was there; now it wraps in up to a third of the rows, says `?` shows all of
    # it, and the ? screen has the whole hint, scrolled with the arrows
    s = session_of("daggers", "HARD1")
    words = [f"cell{i}" for i in range(120)]
    message = "hint: probe 3 4 — satx: " + " ".join(words)
    app = play_app(s, "test")
    seen = {}

    async def drive():
        async with app.run_test(size=size) as pilot:
            s.message = message
            app.redraw()
            await pilot.pause()
            why = app.query_one("#why")
            shown = str(why.render())
            lines = Text(shown).wrap(app.console, why.region.width - 4)
            seen["fits"] = len(lines) <= why.region.height
            seen["shown"] = shown
            await pilot.press("question_mark")
            await pilot.pause()
            box = app.screen.query_one("#rules-box")
            seen["modal"] = str(app.screen.query_one("#rules").render())
            for _ in range(box.max_scroll_y + 1):
                await pilot.press("down")
            await pilot.pause()
            seen["scrolled"] = box.scroll_y == box.max_scroll_y
            await pilot.press("x")
            await pilot.pause()
            seen["closed"] = len(app.screen_stack) == 1

    asyncio.run(drive())
    assert seen["fits"], seen["shown"]
    flat = " ".join(seen["shown"].split())
    assert flat.endswith("… (? shows all of it)") or flat == message
    assert " ".join(message.split()) in " ".join(seen["modal"].split())
    assert seen["scrolled"] and seen["closed"]
