"""Every shell command the README and docs/ show works as written, on a fresh checkout.

test_docs.py runs the ```console blocks and compares their output. This file takes every
other command a reader may copy: each line of a ```sh block (continuations joined, prompts
such as `you$` and trailing comments dropped) and every inline `logic-agents ...`,
`python scripts/...` or `python benchmarks/...` span, in the order of its page, in one
scratch folder per page (so a command may use a file an earlier one wrote), with the
checkout's maps/, examples/, scripts/, benchmarks/ and .venv/ beside it and the environment's
bin/ first on PATH. Each kind is checked by what "works" means for it:

- a logic-agents command runs as written: it exits 0, or it is still working after RUN_SECONDS
  (2.5 s, long past the checks of every verb, which come before its first game or puzzle)
  without having said an error, and has written a finished game to the results file it
  names, if it names one (a study of 500 runs passes its checks, plays until its --out holds
  a row that the page's next command may read, and is then stopped, however loaded the
  machine); `--agent human` must say that it needs a terminal (the test has none);
- a command with a placeholder (MAP, K, NAME, FILE.cnf, HEAD_IP, a glob) or one that needs a
  Ray cluster or data outside the repository is checked for form: its verb exists and every
  --flag is one the verb's --help lists;
- `python scripts/X.py --flag` or `python benchmarks/X.py --flag`: the script exists and
  defines every flag (the benchmarks run for minutes and write docs/BENCHMARKS.md, so they
  are not run here: tests/test_benchmark_commands.py runs each on a tiny input); the same for
  `python examples/X.py` (an example that trains a network needs an extra CI does not
  install: torch);
- `make T`: the Makefile has target T; `pip install`: every extra and path it names exists;
  `jupyter lab FILE`: FILE exists; `ray start`: Ray's own command, form only.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest

from .conftest import ROOT
from .warm import WarmRunner, results_written

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "games").glob("*.md"))]
RUN_SECONDS = 2.5
NO_PROGRESS_S = 600.0  # a command that names --out and wrote no game by then has hung
PROMPT = re.compile(r"^[a-z]+\$\s+")  # `you$ `, `head$ ` in a multi-machine recipe
PLACEHOLDER = re.compile(r"(?<![\w-])(?:[A-Z][A-Z_]*[A-Z](?:\.[a-z]+)?|K|S|N|\[NAME\]|HEAD_IP[:\d]*"
                         r"|HOST:PORT)(?![\w-])|\*")
EXTERNAL_INPUTS = ("20x20givens-public.tsv", "/tmp/")  # benchmark records of inputs kept elsewhere
INLINE = re.compile(r"`((?:\.venv/bin/)?logic-agents [^`]+"
                    r"|(?:\.venv/bin/)?python3? (?:scripts|benchmarks)/[^`]+)`")


def _without_comment(line: str) -> str:
    """A shell line without its trailing `# comment` (a # inside quotes or a word stays)."""
    out, quote = [], ""
    for k, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1].isspace()):
            break
        out.append(ch)
    return "".join(out).strip()


def commands(page: Path) -> list[tuple[int, str]]:
    """(line, command) of every sh-block line and inline command span, in page order."""
    found: list[tuple[int, str]] = []
    block, pending, start = False, "", 0
    for lineno, line in enumerate(page.read_text().splitlines(), start=1):
        stripped = line.strip()
        if not block and re.fullmatch(r"```(sh|bash|shell)", stripped):
            block = True
            continue
        if block and stripped == "```":
            block = False
            continue
        if block:
            if not pending and (not stripped or stripped.startswith("#")):
                continue
            start = start if pending else lineno
            quoted = pending.count("'") % 2  # inside an open quote the line is kept as written
            text = PROMPT.sub("", stripped) if not pending else line.rstrip() if quoted else stripped
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            if (pending + text).count("'") % 2:  # a quote still open: the newline is in it
                pending += text + "\n"
                continue
            found.append((start, _without_comment(pending + text)))
            pending = ""
            continue
        if not stripped.startswith(("```", "#")):  # a heading names a verb; it is no command
            found += [(lineno, m.group(1)) for m in INLINE.finditer(line)]
    return found


@cache
def every_command() -> list[tuple[str, str, str]]:
    """(page, page:line, command) of every command, each checked once: a command a page
    repeats, or one an earlier page shows, is not run again."""
    seen: set[str] = set()
    out = []
    for page in PAGES:
        for n, command in commands(page):
            if command not in seen:
                seen.add(command)
                out.append((page.relative_to(ROOT).as_posix(), f"{page.relative_to(ROOT)}:{n}",
                            command))
    return out


@cache
def verb_flags(verb: str) -> str:
    done = subprocess.run([sys.executable, "-m", "logic_agents", verb, "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"no verb {verb!r}: {done.stderr}"
    return done.stdout


def check_form(argv: list[str], where: str) -> None:
    """The verb exists and knows every --flag (the values are placeholders or out of reach)."""
    verb = argv[1]
    text = verb_flags(verb)
    for token in argv[2:]:
        if token.startswith("--"):
            flag = token.split("=")[0]
            assert re.search(rf"{re.escape(flag)}\b", text), f"{where}: {verb} has no {flag}"


def _results_written(command: str, folder: Path) -> bool:
    """Whether the results file the command names (--out FILE) holds a finished game: what a
    later command of the page (report, --resume) reads. True for a command that names none."""
    words = shlex.split(command)
    return results_written(folder, [words[k + 1] for k, w in enumerate(words[:-1])
                                    if w == "--out"])


def run(command: str, folder: Path, where: str) -> None:
    """Run a command in `folder`; it passes when it exits 0, or when it is still working past
    RUN_SECONDS, has made the results it names (`--out FILE` holds a finished game) and has
    said no error: it is then stopped, with every process it started. Its verdict rests on
    what it did, not on how far a loaded machine let it get in RUN_SECONDS (issue 66: a page
    failed beside four CPU hogs when its study was stopped before its first row)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "COLUMNS": "100"}
    process = subprocess.Popen(["bash", "-c", command], cwd=folder, env=env, text=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    started = time.monotonic()
    while True:
        try:  # communicate again after a time-out loses no output (subprocess's contract)
            out, err = process.communicate(timeout=RUN_SECONDS if time.monotonic() - started
                                           < RUN_SECONDS else 0.25)
            break
        except subprocess.TimeoutExpired:
            waited = time.monotonic() - started
            if waited < RUN_SECONDS or not _results_written(command, folder) and \
                    waited < NO_PROGRESS_S:
                continue
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C: a study stops within a second
        try:
            out, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        assert "error" not in err.lower().replace("errors 0", ""), f"{where}: `{command}`:\n{err}"
        assert _results_written(command, folder), f"{where}: `{command}` wrote no game in " \
            f"{NO_PROGRESS_S:.0f} s:\n{err}"
        return
    assert process.returncode == 0, f"{where}: `{command}` exited {process.returncode}:\n{err}"


def check_script(argv: list[str], where: str) -> None:
    script = ROOT / argv[1]
    assert script.is_file(), f"{where}: no {argv[1]}"
    source = script.read_text()
    if "arguments(__doc__)" in source:  # a benchmark's --out and --tiny come from its harness
        source += (ROOT / "benchmarks" / "harness.py").read_text()
    for token in argv[2:]:
        if token.startswith("--"):
            assert f'"{token.split("=")[0]}"' in source, f"{where}: {argv[1]} has no {token}"


def check_install(argv: list[str], where: str) -> None:
    table = re.search(r"^\[project\.optional-dependencies\]\n(.*?)^\[",
                      (ROOT / "pyproject.toml").read_text(), re.S | re.M).group(1)
    extras = set(re.findall(r"^([\w-]+)\s*=", table, re.M))
    assert {"gym", "notebook", "tui"} <= extras
    for token in argv[2:]:
        if token.startswith("-"):
            continue
        named = re.fullmatch(r"(?:logic-agents|\.)\[([\w,-]+)\]", token)
        if named:
            missing = set(named.group(1).split(",")) - extras
            assert not missing, f"{where}: no extra {', '.join(sorted(missing))}"
        else:
            assert (ROOT / token).exists(), f"{where}: no {token}"


def run_warm(argv: list[str], folder: Path, where: str, warm: WarmRunner) -> None:
    """`run` for a plain logic-agents command, in a fork of a warm process (tests/warm.py)."""
    outs = tuple(argv[k + 1] for k, w in enumerate(argv[:-1]) if w == "--out")
    done = warm(argv[1:], folder, timeout=RUN_SECONDS, env={"COLUMNS": "100"}, outs=outs)
    shown = f"{where}: `{shlex.join(argv)}`"
    if done.timed_out:
        assert "error" not in done.stderr.lower(), f"{shown}:\n{done.stderr}"
        assert _results_written(shlex.join(argv), folder), f"{shown} wrote no game:\n" \
            f"{done.stderr}"
    else:
        assert done.code == 0, f"{shown} exited {done.code}:\n{done.stderr}"


def check(command: str, folder: Path, where: str, warm: WarmRunner | None = None) -> str:
    """Check one command; returns how ("ran", "form", ...), for the summary test."""
    argv = shlex.split(command.replace("\n", " ")) if "python3 -c" not in command else ["python3"]
    while argv and argv[0] in ("/usr/bin/time", "-v"):
        argv = argv[1:]
    if argv[:3] in (["python", "-m", "logic_agents"], ["python3", "-m", "logic_agents"]):
        argv = ["logic-agents", *argv[3:]]
    head = Path(argv[0]).name if argv else ""
    if head == "logic-agents":
        if (PLACEHOLDER.search(" ".join(argv[2:])) or "--backend" in argv
                or any(x in command for x in EXTERNAL_INPUTS)):
            check_form(argv, where)
            return "form"
        if "human" in argv:
            done = subprocess.run([sys.executable, "-m", "logic_agents", *argv[1:]], cwd=folder,
                                  capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                  timeout=120)
            assert done.returncode == 2 and "needs a terminal" in done.stderr, where
            return "needs a terminal"
        if warm is not None:  # as written, less a `/usr/bin/time -v` before it
            run_warm(argv, folder, where, warm)
        else:
            run(shlex.join(argv), folder, where)
        return "ran"
    if head in ("python", "python3") and len(argv) > 1 and argv[1].startswith(("scripts/",
                                                                                 "benchmarks/",
                                                                                 "examples/")):
        check_script(argv, where)
        return "script"
    if head in ("python", "python3"):  # a snippet (`python3 -c ...`) that makes an input
        run(command, folder, where)
        return "ran"
    if head == "make":
        targets = re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M)
        assert argv[1] in targets, f"{where}: the Makefile has no target {argv[1]}"
        return "make"
    if head == "pip":
        check_install(argv, where)
        return "pip"
    if head == "jupyter":
        assert (ROOT / argv[-1]).is_file(), f"{where}: no {argv[-1]}"
        return "jupyter"
    if head == "ray":
        return "form"
    raise AssertionError(f"{where}: no rule checks `{command}`; add one")


def scratch_for(tmp_path: Path) -> Path:
    for name in ("maps", "examples", "scripts", "benchmarks"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parent.parent)
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted({p for p, _, _ in every_command()}))
def test_every_command_of_a_page_works_as_written(page, tmp_path, warm):
    folder = scratch_for(tmp_path)
    started = time.monotonic()
    for _, where, command in (c for c in every_command() if c[0] == page):
        check(command, folder, where, warm)
    assert time.monotonic() - started < 600


@pytest.fixture(scope="module")
def warm():
    with WarmRunner() as run:
        yield run


def test_the_commands_are_found():
    found = every_command()
    assert len(found) >= 70
    # the one the issue met: `--generate expert` names a preset only Daggers has
    assert any("--generate expert --start 3,3" in c for _, _, c in found)
    # prompts and comments are gone, continuations joined
    assert not any(c.startswith(("you$", "head$")) or c.endswith("\\") for _, _, c in found)


def test_a_broken_command_fails_the_check(tmp_path, warm):
    folder = scratch_for(tmp_path)
    with pytest.raises(AssertionError, match="exited 2"):
        check("logic-agents play HARD11", folder, "x")
    with pytest.raises(AssertionError, match="exited 2"):
        check("logic-agents play HARD11", folder, "x", warm)
    with pytest.raises(AssertionError, match="has no --no-such-flag"):
        check("logic-agents compare MAP --no-such-flag 3", folder, "x")
    with pytest.raises(AssertionError, match="no extra"):
        check("pip install 'logic-agents[no-such-extra]'", folder, "x")
    with pytest.raises(AssertionError, match="no rule"):
        check("curl https://example.com", folder, "x")
