"""The documentation site builds with `mkdocs build --strict` (as .ci/run builds it): the README
is its home page, every link of the pages (to another page, an image, an example file outside
docs/) resolves in the site, and the API reference lists the public names of logic_agents,
logic_agents.world and logic_agents.logic from their docstrings."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from .conftest import ROOT

if importlib.util.find_spec("mkdocs") is None:  # `make test` installs it: a setup fault
    raise RuntimeError("tests/test_docs_site.py needs the 'docs' extra: "
                       "pip install -e '.[docs]' (make test installs it)")


@pytest.mark.slow
def test_the_site_builds_strict_with_the_readme_home_and_the_api(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(site)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    home = (site / "index.html").read_text()
    assert "Quick start" in home and 'href="notebooks/"' in home  # docs/notebooks.md, as a page
    assert (site / "src" / "examples" / "tour.ipynb").is_file()  # linked from the README
    assert 'href="src/examples/tour.ipynb"' in home
    world = (site / "api" / "world" / "index.html").read_text()
    import logic_agents.world as world_module

    for name in world_module.__all__:  # each under its home module: world.spec.GameSpec
        assert re.search(rf'id="logic_agents\.world\.(\w+\.)?{name}"', world), name
