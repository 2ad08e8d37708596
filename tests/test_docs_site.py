"""The documentation site builds with `mkdocs build --strict` (as .ci/run builds it): the README
is its home page, every link of the pages (to another page, an image, an example file outside
docs/) resolves in the site, the API reference lists the public names of logic_agents,
logic_agents.world and logic_agents.logic from their docstrings (each call in the sidebar),
and no page loads anything from the network (issue 41: highlight.js came from a CDN)."""

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
    # the API page: the package's docstring list as a list, and every call in the sidebar
    api = (site / "api" / "logic_agents" / "index.html").read_text()
    assert "<li>load(ref" in api
    import logic_agents as la

    for name in ("load", "play", "view", "board", "compare", "solve", "registered_games",
                 "register", "make_world", "make_agent", "run_episode", "Study"):
        assert re.search(rf'data-bs-level="2"><a href="#logic_agents\.[\w.]*\b{name}"', api), name
        assert name in la.__all__
    # nothing loads from the network: no script, stylesheet or image from another host
    for page in site.rglob("*.html"):
        text = page.read_text()
        loads = re.findall(r'<(?:script|img)[^>]+src="(https?:[^"]+)"|'
                           r'<link[^>]+rel="stylesheet"[^>]+href="(https?:[^"]+)"', text)
        assert not loads, (page, loads[:2])
