"""world.installed reads the entry points importlib.metadata reads, without importing it:
the same (name, value, distribution) for every group on this machine's path, the first of
two distributions with one name, the fallback where only importlib.metadata can read, and a
command that never imports it."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from logic_agents.world import installed

from ..conftest import ROOT


def by_importlib(group: str) -> list[tuple[str, str, str]]:
    return sorted((ep.name, ep.value, str(ep.dist.name) if ep.dist is not None else "?")
                  for ep in metadata.entry_points(group=group))


def by_us(group: str) -> list[tuple[str, str, str]]:
    return sorted((e.name, e.value, e.distribution) for e in installed.entry_points(group))


def dist_info(folder: Path, folder_name: str, name: str, entry_points: str) -> None:
    info = folder / folder_name
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1\n\nbody\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


@pytest.mark.parametrize("group", ["logic_agents.games", "console_scripts", "pytest11",
                                   "no.such.group"])
def test_every_group_reads_as_importlib_metadata_reads_it(group):
    assert not installed._needs_importlib()  # this venv's path is plain folders
    assert by_us(group) == by_importlib(group)


def test_of_two_distributions_with_one_name_the_first_on_the_path_wins(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    dist_info(first, "Demo_Pkg-1.0.dist-info", "Demo-Pkg",
              "# a comment\n[demo.group]\none = first_mod:ONE\n\n[other]\nx = y:z\n")
    dist_info(second, "demo.pkg-2.0.dist-info", "demo.pkg", "[demo.group]\none = second_mod:ONE\n")
    dist_info(second, "another-1.0.egg-info", "another",
              "[demo.group]\n  two =  egg_mod : TWO  \n")
    monkeypatch.setattr(sys, "path", [str(first), str(second), *sys.path])
    assert by_us("demo.group") == by_importlib("demo.group") == [
        ("one", "first_mod:ONE", "Demo-Pkg"), ("two", "egg_mod : TWO", "another")]


def test_a_zip_on_the_path_is_read_by_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\n")
        z.writestr("zipped-1.0.dist-info/entry_points.txt", "[demo.zip]\nz = zmod:Z\n")
    monkeypatch.setattr(sys, "path", [str(archive), *sys.path])
    assert installed._needs_importlib()
    assert by_us("demo.zip") == by_importlib("demo.zip") == [("z", "zmod:Z", "zipped")]


def test_a_built_in_game_loads_without_importlib_metadata():
    code = ("import json, sys\nfrom logic_agents.world import registry\n"
            "spec = registry.get_game('daggers')\n"
            "print(json.dumps([spec.name, 'importlib.metadata' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == ["daggers", False]


def test_a_plugins_load_reads_as_importlib_metadata_loads_it():
    entry = installed.Installed("x", "no_such_module_here:SPEC", "g", "d")
    with pytest.raises(ModuleNotFoundError):
        entry.load()
    own = installed.Installed("daggers", "logic_agents.games.daggers:SPEC", "g", "logic-agents")
    assert own.load() is metadata.EntryPoint("d", own.value, "g").load()


def test_a_line_that_is_no_entry_point_is_skipped_where_importlib_metadata_fails(
        tmp_path, monkeypatch):
    """A third party's broken entry_points.txt cannot take the games' listing down."""
    dist_info(tmp_path, "broken-1.0.dist-info", "broken", "[demo.broken]\nno equals sign\nok = m:A\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    with pytest.raises(TypeError):
        by_importlib("demo.broken")
    assert by_us("demo.broken") == [("ok", "m:A", "broken")]
