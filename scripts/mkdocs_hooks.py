"""MkDocs hooks: the README as the site's home page, and the repository files the pages link to
(examples, a map folder's SOURCES.md) copied into the site, so that every link of the pages as
GitHub shows them also works in the site and `mkdocs build --strict` can check them all.

Concepts: on_files scans the README and docs/ for links that leave docs/, follows them (a
folder means its README.md; a linked .md page is scanned in turn) and adds each target under
src/ (the README itself becomes index.md); on_page_markdown rewrites those links, relative
to the page's place in the site. Nothing is fetched: every target is a file of the checkout.
api_page writes the reference of a package whose public names load lazily (PEP 562: its
`_HOMES` says where each lives), one section per home module, so a name added to the package's
`__all__` appears in the reference by itself.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
FENCE = re.compile(r"^(```|~~~)")
ORIGIN: dict[str, str] = {}  # a page's site path -> its path in the repository


def _site_path(repo_path: str) -> str | None:
    """Where a repository file lives in the site (None: not a file of the checkout)."""
    path = ROOT / repo_path
    if path.is_dir():
        path = path / "README.md"
        repo_path = posixpath.join(repo_path, "README.md")
    if not path.is_file():
        return None
    if repo_path == "README.md":
        return "index.md"
    if repo_path.startswith("docs/"):
        return repo_path.removeprefix("docs/")
    return "src/" + repo_path


def _targets(text: str, repo_path: str) -> list[tuple[str, str, str]]:
    """(link as written, the repo path it names, its #fragment) of each local link outside
    code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(line):
            link = m.group(2)
            if re.match(r"[a-z]+:", link) or link.startswith("#"):
                continue
            target, _, fragment = link.partition("#")
            named = posixpath.normpath(posixpath.join(posixpath.dirname(repo_path), target))
            if not named.startswith(".."):
                out.append((link, named, fragment))
    return out


API_PAGES = {
    "api/world.md": ("logic_agents.world", "`logic_agents.world`: the contract a game meets",
                     "The protocols, a game's declaration (GameSpec and its capabilities), the "
                     "base classes a game builds on, the registry and the runner. [Write a "
                     "game](../write-a-game.md) walks through them."),
    "api/logic.md": ("logic_agents.logic", "`logic_agents.logic`: knowledge bases and SAT",
                     "Knowledge bases written in sympy, compiled to clauses without blow-up, "
                     "written as DIMACS with named variables and asked incrementally through "
                     "PySAT ([Reading a CNF](../CNF.md))."),
}


def api_page(package: str, title: str, intro: str) -> str:
    import importlib

    module = importlib.import_module(package)
    homes: dict[str, str] = module._HOMES
    eager = sorted(set(module.__all__) - set(homes))
    by_home: dict[str, list[str]] = {}
    for name, home in homes.items():
        by_home.setdefault(home, []).append(name)
    out = [f"# {title}\n\n{intro}\n"]
    if eager:
        out.append(f"## Loaded with `{package}`\n")
        out += [f"::: {package}.{getattr(module, n).__module__.rsplit('.', 1)[-1]}.{n}\n"
                for n in eager]
    for home, names in by_home.items():
        doc = (importlib.import_module(f"{package}.{home}").__doc__ or "").strip()
        first = doc.split("\n\n")[0].replace("\n", " ")
        out.append(f"## `{package}.{home}`\n\n{first}\n")
        out += [f"::: {package}.{home}.{n}\n" for n in names]
    return "\n".join(out)


def on_files(files: Files, config: Any) -> Files:
    for site, (package, title, intro) in API_PAGES.items():
        files.append(File.generated(config, site, content=api_page(package, title, intro)))
    queue = ["README.md", *(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))]
    seen = set(queue)
    ORIGIN.clear()
    ORIGIN["index.md"] = "README.md"
    for src in queue:
        for _, named, _ in _targets((ROOT / src).read_text(encoding="utf-8"), src):
            site = _site_path(named)
            if site is None or not site.startswith("src/") or site in ORIGIN:
                continue
            repo_file = named if (ROOT / named).is_file() else posixpath.join(named, "README.md")
            ORIGIN[site] = repo_file
            files.append(File.generated(config, site, abs_src_path=str(ROOT / repo_file)))
            if repo_file.endswith(".md") and repo_file not in seen:
                seen.add(repo_file)
                queue.append(repo_file)
    files.append(File.generated(config, "index.md", abs_src_path=str(ROOT / "README.md")))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    site_here = page.file.src_uri
    repo_here = ORIGIN.get(site_here, "docs/" + site_here)

    def fix(m: re.Match[str]) -> str:
        link = m.group(2)
        if re.match(r"[a-z]+:", link) or link.startswith("#"):
            return m.group(0)
        target, _, fragment = link.partition("#")
        named = posixpath.normpath(posixpath.join(posixpath.dirname(repo_here), target))
        site = _site_path(named)
        if site is None:
            return m.group(0)  # left as written: strict mode reports it
        new = posixpath.relpath(site, posixpath.dirname(site_here) or ".")
        return m.group(1) + new + (f"#{fragment}" if fragment else "") + m.group(3)

    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if FENCE.match(line.strip()):
            fenced = not fenced
        out.append(line if fenced else LINK.sub(fix, line))
    return "".join(out)


__all__ = ["on_files", "on_page_markdown"]
