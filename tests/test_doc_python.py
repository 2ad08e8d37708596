"""Every ```python block of the README and docs/ runs as written: the blocks of a page in
order, in one namespace and one scratch folder (maps/ and examples/ beside it, as a reader
who cloned the repository has them; nothing added to the path), in a fresh process, with the
modules of an optional extra missing until the page's prose names the extra. Where a block
shows what a `print` prints (the comment lines right after it, `# Discrete(288) ...`), the
printed lines must be those."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

PAGES = [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
                     *sorted((ROOT / "docs" / "games").glob("*.md"))]
         if "```python" in p.read_text()]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)

# what each optional extra brings (pyproject.toml): a block may import it only where the page
# named the extra in its prose before the block (issue 54: README's block stopped at
# to_pandas() after `make demo`, which installs no extra)
EXTRA_MODULES = {"plot": ["matplotlib"], "ray": ["ray"], "tui": ["textual"], "pandas": ["pandas"],
                 "gym": ["gymnasium"], "rl": ["gymnasium", "sb3_contrib", "stable_baselines3",
                                               "torch"],
                 "notebook": ["ipykernel", "nbclient", "nbformat"]}
NAMED_EXTRA = re.compile(r"\[(\w+)\]|`(\w+)` extra|extra `(\w+)`")

RUNNER = r'''
import contextlib, importlib.abc, io, json, sys, traceback
blocks = json.loads(sys.stdin.read())
namespace = {"__name__": "__main__"}
refused = set()


class NotInstalled(importlib.abc.MetaPathFinder):
    """An extra the page has not named yet is not installed, as after `make demo`."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in refused:
            raise ModuleNotFoundError(f"No module named {name!r} (an extra this page has not "
                                      "named before the block)", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
for where, code, blocked in blocks:
    refused = set(blocked)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, where, "exec"), namespace)
    except BaseException:
        print(json.dumps({"where": where, "error": traceback.format_exc(limit=4)}))
        sys.exit(0)
    print(json.dumps({"where": where, "printed": out.getvalue()}))
'''


def blocks_of(page: Path) -> list[tuple[str, str]]:
    text = page.read_text()
    return [(f"{page.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 2}", m.group(1))
            for m in BLOCK.finditer(text)]


def shown_output(code: str) -> list[str]:
    """The lines a block says its prints print: comment lines right after a print(...)."""
    lines, shown, after_print = code.splitlines(), [], False
    for line in lines:
        if after_print and line.startswith("# "):
            shown.append(line[2:])
            continue
        after_print = line.lstrip().startswith("print(") and line.rstrip().endswith(")")
    return shown


def refused_modules(page: Path, where: str) -> list[str]:
    """The modules of the extras the page's prose has not named before the block at `where`
    (page:line): a block runs as after `make demo`, plus the extras named so far."""
    line = int(where.rsplit(":", 1)[1])
    prose = re.sub(r"^```.*?^```", "", "\n".join(page.read_text().splitlines()[:line - 1]),
                   flags=re.S | re.M)
    named = {name for m in NAMED_EXTRA.finditer(prose) for name in m.groups() if name}
    return sorted({module for extra, modules in EXTRA_MODULES.items() if extra not in named
                   for module in modules} - {module for extra in named
                                              for module in EXTRA_MODULES.get(extra, [])})


def test_pages_are_found():
    assert {p.name for p in PAGES} >= {"README.md", "compare.md", "gym.md", "write-a-game.md",
                                       "write-an-agent.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_block_of_a_page_runs(page, tmp_path):
    for name in ("maps", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    # no PYTHONPATH: a reader's python in the checkout has its folder on the path, no more
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "COLUMNS": "100"}
    blocks = [[where, code, refused_modules(page, where)] for where, code in blocks_of(page)]
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(blocks), cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    failed = [r for r in reports if "error" in r]
    assert not failed, f"{failed[0]['where']} raised:\n{failed[0]['error']}"
    assert len(reports) == len(blocks), done.stderr[-2000:]
    for (where, code, _), report in zip(blocks, reports, strict=True):
        shown = shown_output(code)
        if shown:
            printed = report["printed"].splitlines()
            assert printed[:len(shown)] == shown, f"{where}: printed {printed}, shows {shown}"


def test_the_check_reads_what_a_block_shows():
    code = "x = 1\nprint(x, x + 1)\n# 1 2\ny = 2  # not output\n"
    assert shown_output(code) == ["1 2"]
