"""Install anywhere: the wheel, installed (not editable) into a fresh venv outside the checkout,
has its maps, puzzle sets and web assets, and every verb works there; so does the example
plug-in's wheel. This is what `pip install logic-agents` gives a user.

The venv gets its dependencies (python-sat, sympy, rich) from the package index, as a user's
does; pip's cache makes a second run quick."""

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _pip(*args: str, cwd: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def _can_build_here() -> bool:
    """Whether this venv has the setuptools the projects' build-system asks for, so the wheels
    build without an isolated build env (each would install setuptools afresh: 2-3 s of CPU)."""
    try:
        from importlib.metadata import version
        return int(version("setuptools").split(".")[0]) >= 77
    except Exception:  # no setuptools, or an odd version string: build in isolation
        return False


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder, a working folder outside the checkout) of a venv with both wheels."""
    base = tmp_path_factory.mktemp("install")
    wheels = base / "wheels"
    copies = []
    for project in (ROOT, ROOT / "examples" / "plugin-game", ROOT / "examples" / "lights-out"):
        # build from a copy, so that nothing but the wheel's own files can be found later
        copy = base / "src" / project.name
        shutil.copytree(project, copy, symlinks=True, ignore=shutil.ignore_patterns(
            ".venv", "*.egg-info", "build", "__pycache__", ".git", "tests", "docs", "scripts",
            "benchmarks", "*.so"))  # the editable install's kernel: the wheel builds its own
        copies.append(str(copy))
    here = ["--no-build-isolation"] if _can_build_here() else []
    _pip("wheel", "--no-deps", *here, "-w", str(wheels), *copies, cwd=base)
    env_dir = base / "venv"
    # no pip of its own: this process's pip installs into it (`pip --python`), which saves
    # ensurepip's 3 s; and no byte-compiling at install (sympy alone is 5 s of CPU): the venv
    # writes the bytecode of what it imports, once (run() lets it)
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    core = next(wheels.glob("logic_agents-*.whl"))
    plugins = [next(wheels.glob(f"logic_agents_{name}-*.whl")) for name in ("akari", "lights_out")]
    _pip("--python", str(python), "install", "--no-compile", str(core), *map(str, plugins),
         cwd=base)
    work = base / "work"
    work.mkdir()
    return env_dir / "bin", work


def _env() -> dict[str, str]:
    """A user's environment: not this checkout's path, and bytecode written as it is used."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")}


def run(installed, *argv: str) -> subprocess.CompletedProcess:
    bin_dir, work = installed
    env = {**_env(), "COLUMNS": "200"}
    return subprocess.run([str(bin_dir / "logic-agents"), *argv], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_wheel_is_installed_not_the_checkout(installed):
    bin_dir, work = installed
    done = subprocess.run([str(bin_dir / "python"), "-c",
                           "import logic_agents; print(logic_agents.__file__)"],
                          cwd=work, capture_output=True, text=True)
    assert done.returncode == 0 and "site-packages" in done.stdout
    assert str(ROOT) not in done.stdout


def test_the_wheel_has_prob_s_compiled_kernel(installed):
    """The wheel builds prob's C kernel (the odds' enumeration, the endgame search, and the
    Daggers agents' single-point bookkeeping) against the limited API (one build for every
    Python from 3.10), and the installed package uses it."""
    bin_dir, work = installed
    done = subprocess.run([str(bin_dir / "python"), "-c",
                           "from logic_agents.games.daggers import clues, components, endgame\n"
                           "for part in (components, endgame, clues): print(part.KERNEL.__file__)"],
                          cwd=work, capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split()
    assert len(lines) == 3
    assert all(line.endswith(".abi3.so") and "site-packages" in line for line in lines)


def test_version_comes_from_one_place(installed):
    from logic_agents import __version__

    done = run(installed, "--version")
    assert done.returncode == 0 and done.stdout.split() == ["logic-agents", __version__]


def test_maps_lists_every_shipped_map(installed):
    done = run(installed, "maps", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    by_game = {g: [r for r in rows if r["game"] == g] for g in {r["game"] for r in rows}}
    assert len(by_game["daggers"]) == 30
    assert {"sudoku", "undead", "mazes", "akari"} <= set(by_game)


def test_every_reference_maps_prints_plays_outside_the_checkout(installed):
    """Issue 41: `maps` printed checkout paths (maps/daggers/2018/HARD1.txt) that an installed
    package cannot open. Every name and folder it prints now loads from the installed package,
    and one game per game of them plays to its end."""
    bin_dir, work = installed
    rows = json.loads(run(installed, "maps", "--json").stdout)
    code = (
        "import json, sys\n"
        "import logic_agents as la\n"
        "rows = json.loads(sys.stdin.read())\n"
        "for row in rows:\n"
        "    ref = row['name'] + (':1' if row.get('puzzles') else '')\n"
        "    assert la.load(ref, game=row['game']).name, ref\n"
        "played = set()\n"
        "for row in rows:\n"
        "    if row['game'] not in played:\n"
        "        ref = row['name'] + (':1' if row.get('puzzles') else '')\n"
        "        result = la.play(ref, game=row['game'], seed=0)\n"
        "        assert result.outcome.value != 'error', (ref, result.error)\n"
        "        played.add(row['game'])\n"
        "print(len(rows), sorted(played))\n")
    done = subprocess.run([str(bin_dir / "python"), "-c", code], input=json.dumps(rows),
                          cwd=work, env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[0] == str(len(rows)) and str(ROOT) not in run(
        installed, "maps").stdout
    folders = {row["folder"] for row in rows if row["game"] == "daggers"}
    assert folders == {"2018"}


def test_play_a_shipped_map_by_name(installed):
    done = run(installed, "play", "HARD1", "--agent", "satx", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "HARD1" in done.stdout


def test_solve_a_shipped_sudoku_by_name(installed):
    done = run(installed, "solve", "norvig_hardest:1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["status"] == "solved"


def test_view_writes_the_page_from_package_data(installed):
    done = run(installed, "view", "EASY1", "--agent", "spx", "-o", "page.html")
    assert done.returncode == 0, done.stderr
    page = (installed[1] / "page.html").read_text()
    assert 'id="board-wrap"' in page and "EASY1" in page


def test_compare_on_a_shipped_folder(installed):
    done = run(installed, "compare", "2018", "--agents", "spx,satx", "--runs", "1", "--json",
               "--out", "runs.csv")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert set(summary["agents"]) == {"spx", "satx"}
    assert all(row["games"] == 30 for row in summary["agents"].values())
    assert (installed[1] / "runs.csv").read_text().count("\n") == 61


def test_the_plugin_wheel_plays_its_own_shipped_puzzles(installed):
    done = run(installed, "games", "--json")
    assert done.returncode == 0
    assert "akari" in {row["name"] for row in json.loads(done.stdout)}
    done = run(installed, "play", "akari-7x7-a", "--quiet")
    assert done.returncode == 0, done.stderr
    done = run(installed, "solve", "akari-7x7-a", "--json")
    assert done.returncode == 0, done.stderr


def test_the_second_plugin_wheel_keeps_the_contract_and_plays(installed):
    done = run(installed, "games", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "lights-out: ok" in done.stdout and "akari: ok" in done.stdout
    done = run(installed, "play", "lights-7x7-a", "--quiet")
    assert done.returncode == 0 and "WON" in done.stdout, done.stderr


def test_a_plugin_sees_the_real_types(installed, tmp_path):
    """The wheel is marked typed (py.typed) and the lazy public names are visible to a type
    checker: a plug-in author's `reveal_type` gives the class, not Any (issue 40)."""
    bin_dir, _ = installed  # mypy comes with the dev extra, which `make test` installs
    site = next((bin_dir.parent / "lib").glob("python3*/site-packages"))
    assert (site / "logic_agents" / "py.typed").is_file()
    plugin = tmp_path / "my_plugin.py"
    plugin.write_text("from logic_agents.world import GameSpec, PlanningAgent\n"
                      "from logic_agents.logic import KnowledgeBase\n"
                      "reveal_type(GameSpec)\nreveal_type(KnowledgeBase)\n"
                      "reveal_type(PlanningAgent)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--python-executable", str(bin_dir / "python"),
                           "--config-file", os.devnull, str(plugin)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    revealed = [line.split("Revealed type is ")[1] for line in done.stdout.splitlines()
                if "Revealed type is" in line]
    assert revealed[0].startswith('"def') and "logic_agents.world.spec.GameSpec" in revealed[0]
    assert "logic_agents.logic.kb.KnowledgeBase" in revealed[1]
    assert "logic_agents.world.base.PlanningAgent" in revealed[2]
    assert len(revealed) == 3 and '"Any"' not in revealed


def test_without_a_c_compiler_the_wheel_builds_pure_python(tmp_path):
    """prob's kernel is an optional extension: with no C compiler the build goes on, and the
    package falls back to its pure-Python search (tests/games/daggers/test_kernel.py shows that
    fallback plays the recorded games)."""
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, symlinks=True, ignore=shutil.ignore_patterns(
        ".venv", "*.egg-info", "build", "__pycache__", ".git", "tests", "docs", "scripts",
        "benchmarks", "examples", "*.so"))
    here = ["--no-build-isolation"] if _can_build_here() else []
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q",
                           "wheel", "--no-deps", *here, "-w", str(tmp_path / "wheels"),
                           str(copy)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "CC": "/bin/false"})
    assert done.returncode == 0, done.stderr[-3000:]
    wheel = next((tmp_path / "wheels").glob("logic_agents-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "logic_agents/games/daggers/components.py" in names
    assert not [n for n in names if n.endswith(".so")]
