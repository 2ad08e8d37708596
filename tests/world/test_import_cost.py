"""Issue 41: a plug-in whose entry point imports sympy at its top made every command of every
game 0.5 s slower, and `games --check` did not notice. The load check now imports each
installed game's entry point in a fresh process, after the built-in games, and fails one
that loads a heavy library (or spends more than IMPORT_BUDGET_S of CPU)."""

from __future__ import annotations

from logic_agents.world import contract
from logic_agents.world.import_cost import IMPORT_BUDGET_S, import_cost


def _module(tmp_path, monkeypatch, name: str, text: str) -> str:
    (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    return name


def test_an_entry_point_that_imports_sympy_is_named(tmp_path, monkeypatch):
    name = _module(tmp_path, monkeypatch, "heavy_game", "import sympy\nSPEC = None\n")
    cost = import_cost(name)
    assert cost.heavy == ("sympy",) and "imports sympy at its top" in cost.words()


def test_the_example_plugins_and_the_built_in_games_import_nothing_heavy():
    for module in ("lights_game", "akari_game", "logic_agents.games.daggers"):
        assert import_cost(module).heavy == (), module
    assert IMPORT_BUDGET_S == 0.1


def test_games_check_fails_the_load_of_a_heavy_entry_point(tmp_path, monkeypatch):
    name = _module(tmp_path, monkeypatch, "heavy_lights", "import sympy\n"
                   "from lights_game import SPEC\n")
    monkeypatch.setattr(contract, "entry_point_of", lambda game: f"{name}:SPEC")
    report = contract.check_game("lights-out")
    load = next(r for r in report.results if r.name == "load")
    assert not load.passed and "sympy" in load.detail and not report.ok
