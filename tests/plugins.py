"""Plug-in games installed for one test: a module and its distribution's metadata written to a
folder put on sys.path, found through the entry point as a pip-installed package is, and the
registry started afresh (and restored) around the test.

install(root, module, source, entry=NAME) writes one plug-in; `plugged(root)` is the context.
LIGHTS is a module source that copies the Lights Out example (`dataclasses.replace` of its
spec), for faults that need a working game around them.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

from logic_agents.world import registry


def install(root: Path, module: str, source: str, *, entry: str | None = None,
            attribute: str = "SPEC", dist: str | None = None) -> Path:
    """Write `module`.py (the source, dedented) and a dist-info that lists it as the game
    `entry` (default: the module's name with '-' for '_')."""
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    dist = dist or f"plugin-{module.replace('_', '-')}"
    info = root / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n",
                                   encoding="utf-8")
    name = entry or module.replace("_", "-")
    (info / "entry_points.txt").write_text(
        f"[logic_agents.games]\n{name} = {module}:{attribute}\n", encoding="utf-8")
    return root


@contextlib.contextmanager
def plugged(root: Path) -> Iterator[None]:
    """The registry as a fresh process with `root` installed would see it."""
    saved = (dict(registry._GAMES), dict(registry._ORIGINS), dict(registry._BROKEN),
             registry._scanned, set(registry._WARNED))
    modules = set(sys.modules)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    registry._GAMES.clear()
    registry._ORIGINS.clear()
    registry._BROKEN.clear()
    registry._WARNED.clear()
    registry._scanned = False
    try:
        yield
    finally:
        sys.path.remove(str(root))
        for name in set(sys.modules) - modules:
            if sys.modules[name] is not None and str(root) in str(
                    getattr(sys.modules[name], "__file__", "") or ""):
                del sys.modules[name]
        registry._GAMES.clear()
        registry._GAMES.update(saved[0])
        registry._ORIGINS.clear()
        registry._ORIGINS.update(saved[1])
        registry._BROKEN.clear()
        registry._BROKEN.update(saved[2])
        registry._scanned = saved[3]
        registry._WARNED.clear()
        registry._WARNED.update(saved[4])


def lights(name: str, changes: str = "", *, before: str = "", after: str = "") -> str:
    """A module source whose SPEC is Lights Out renamed `name`, with `changes` (keyword
    arguments of dataclasses.replace, as text); `before` runs first, `after` last."""
    return (f"import dataclasses\n{textwrap.dedent(before)}\n"
            "from lights_game import SPEC as _LIGHTS\n"
            f"SPEC = dataclasses.replace(_LIGHTS, name={name!r}{', ' if changes else ''}"
            f"{changes})\n{textwrap.dedent(after)}\n")
