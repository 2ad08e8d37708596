"""A warm command runner for the docs tests: one process imports logic-agents (and every
registered game) once, then runs each `logic-agents ARGS` command in a fork of itself, so a
page of commands does not pay Python's start-up and the imports again and again.

Each command still runs as the console script does (`main()` with `sys.argv` set: the same
signal handling and memory cap), in its own session, in the folder and environment asked,
with stdin from /dev/null and stdout and stderr in files; past `timeout` seconds, and once
every results file it was told of holds a finished game, its whole process group gets SIGINT
(as Ctrl-C), then SIGKILL 20 s later. The server is single-threaded,
so forking it is safe.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SERVER = r"""
import json, os, signal, sys, time
sys.path.insert(0, os.getcwd())  # the checkout (the runner starts here): tests.warm's helper
from tests.warm import results_written
import logic_agents.cli
from logic_agents.cli import main
from logic_agents.world.registry import games
games()  # every game's package imported once, here


print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setsid()
            os.chdir(job["cwd"])
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.dup2(os.open(job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
            os.dup2(os.open(job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
            os.environ.update(job["env"])
            sys.argv = ["logic-agents", *job["argv"]]
            code = main()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 0
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code or 0)
    deadline, hard, timed_out = time.monotonic() + job["timeout"], None, False
    give_up = deadline + job.get("no_progress", 600.0)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        now = time.monotonic()
        if not timed_out and now > deadline and (results_written(job["cwd"], job.get("outs", ()))
                                                 or now > give_up):
            timed_out, hard = True, now + 20
            os.killpg(pid, signal.SIGINT)
        elif timed_out and now > hard:
            os.killpg(pid, signal.SIGKILL)
        time.sleep(0.01)
    try:
        os.killpg(pid, signal.SIGKILL)  # nothing the command started outlives it
    except (ProcessLookupError, PermissionError):
        pass
    print(json.dumps({"code": os.waitstatus_to_exitcode(status), "timed_out": timed_out}),
          flush=True)
"""


def results_written(cwd: str | Path, outs: Iterable[str]) -> bool:
    """Whether each results file of `outs` (relative to `cwd`) holds a finished game: a
    CSV's header and a row, or a JSON line."""
    for out in outs:
        try:
            lines = (Path(cwd) / out).read_bytes().count(b"\n")
        except OSError:
            return False
        if lines < (2 if out.endswith(".csv") else 1):
            return False
    return True


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str
    timed_out: bool


class WarmRunner:
    """`with WarmRunner() as run: run(argv, cwd, timeout=...)` -> Ran."""

    def __enter__(self) -> WarmRunner:
        self.folder = tempfile.TemporaryDirectory()
        self.server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True,
                                       cwd=Path(__file__).resolve().parent.parent)
        assert json.loads(self.server.stdout.readline())["ready"]
        return self

    def __call__(self, argv: list[str], cwd: Path, timeout: float = 600.0,
                 env: dict[str, str] | None = None, outs: tuple[str, ...] = ()) -> Ran:
        """Run `argv`; past `timeout`, and once each results file of `outs` holds a finished
        game (at most 600 s more), it is stopped as Ctrl-C stops it."""
        out, err = Path(self.folder.name) / "out", Path(self.folder.name) / "err"
        job = {"argv": argv, "cwd": str(cwd), "timeout": timeout, "env": env or {},
               "out": str(out), "err": str(err), "outs": list(outs)}
        self.server.stdin.write(json.dumps(job) + "\n")
        self.server.stdin.flush()
        result = json.loads(self.server.stdout.readline())
        return Ran(result["code"], out.read_text(errors="replace"),
                   err.read_text(errors="replace"), result["timed_out"])

    def __exit__(self, *exc: object) -> None:
        self.server.stdin.close()
        self.server.wait(timeout=60)
        self.folder.cleanup()
