"""Who plays where, and how a player is contained: the settings of fair play.

Concepts:
- Isolation: which agents play in player processes (by default every agent named by a file
  or module reference; `isolate="all"` every agent; `trusted` references stay in-process),
  the sandbox tool (`auto`: bubblewrap where installed), the folders and files it hides, the
  import cap, the cap on processes, the environment variables a player may read, and where
  each agent's output is kept. It travels in a study's settings; nothing process-wide.
- player_environment(names): a player's whole environment, an allowlist: the locale, PATH and
  TZ, then only what the user names (`--pass-env`). A grader's tokens never reach an agent.
- hidden_paths(texts): the files and folders a command names (maps, results), absolute, for
  the sandbox to hide.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from logic_agents.errors import UsageError
from logic_agents.ground.inputs import path_exists
from logic_agents.referee import sandbox
from logic_agents.referee.cgroups import memory_cgroups
from logic_agents.referee.shared_channels import mqueue_listed

SANDBOXES = ("auto", "bwrap", "none")
ISOLATE = ("untrusted", "all", "none")
DEFAULT_IMPORT_TIMEOUT_S = 60.0
DEFAULT_MAX_PROCESSES = 32


@dataclass(frozen=True)
class Isolation:
    """Which agents play in player processes, and how those are contained."""

    isolate: str = "untrusted"  # untrusted: references; all: built-ins too; none: nobody
    trusted: tuple[str, ...] = ()  # references that may play in the referee's process
    sandbox: str = "auto"  # auto: bubblewrap where installed; bwrap: required; none
    hide: tuple[str, ...] = ()  # folders the sandbox shows as empty (maps, answers)
    import_timeout: float = DEFAULT_IMPORT_TIMEOUT_S
    max_processes: int = DEFAULT_MAX_PROCESSES
    # a fresh player server (a fresh interpreter) for every game; every game is a fresh child
    # of its server anyway, so nothing an agent keeps reaches its next game either way
    player_per_game: bool = False
    env: tuple[str, ...] = ()  # environment variables a player may read besides ALLOWED_ENV
    output_dir: str | None = None  # where each agent's whole output is kept (--agent-output)
    # agents' files (absolute) whose folder holds another agent of the study (a class's
    # single-file submissions, students/zed.py beside students/ann/): in the sandbox each sees
    # its own file only, never its neighbours' code (see own_files)
    file_only: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Check the fields (an unknown isolation or sandbox is a UsageError)."""
        if self.isolate not in ISOLATE:
            raise UsageError(f"isolate must be one of {', '.join(ISOLATE)}, not {self.isolate!r}")
        if self.sandbox not in SANDBOXES:
            raise UsageError(f"sandbox must be one of {', '.join(SANDBOXES)}, not "
                             f"{self.sandbox!r}")
        if self.sandbox == "bwrap" and sandbox.bubblewrap() is None:
            raise UsageError("--sandbox bwrap: bubblewrap is not installed (Debian and Ubuntu: "
                             "apt-get install bubblewrap)")

    def isolates(self, registered: bool, reference: str) -> bool:
        """Whether the agent `reference` plays in a player process."""
        if self.isolate == "none" or reference in self.trusted:
            return False
        return self.isolate == "all" or not registered

    def tool(self) -> str | None:
        """The bubblewrap executable players run under, or None."""
        return None if self.sandbox == "none" else sandbox.bubblewrap()

    def unsandboxed(self) -> str:
        """One line for a study whose isolated agents ran without a sandbox ("" with one)."""
        if self.tool() is not None:
            return ""
        why = "--sandbox none" if self.sandbox == "none" else NO_SANDBOX_HERE
        queues = "POSIX queues too, /dev/mqueue being mounted" if mqueue_listed() else \
            "not POSIX queues, which cannot be listed without /dev/mqueue"
        return (f"the isolated agents ran without a sandbox ({why}): they ran as you, so they "
                "could read and write your files, read the study's secret seed, forge its rows "
                "in a way a killed study keeps, and keep what they learn from game to game in "
                "/dev/shm, System V and POSIX IPC and your files; at its end the study removed "
                f"what its games left in /dev/shm and System V IPC ({queues}), never your "
                "files (docs/compare.md, fair play)")

    def memory_words(self, memory_cap: int | None) -> str:
        """One line where a player's memory cap cannot count shared memory ("" where it can).

        The cap is RLIMIT_DATA's per process, plus a memory cgroup of the player's own where
        the machine gives one: only the cgroup counts MAP_SHARED memory and tmpfs files.
        """
        if not memory_cap or memory_cgroups():
            return ""
        return (f"the memory cap ({memory_cap} MiB) held each player process's own heap only: "
                "this machine gives no memory cgroup, so shared memory (MAP_SHARED, /dev/shm) "
                "and files in /tmp were not counted")

    def refuse_unsandboxed(self, others: str) -> None:
        """Fail closed: stop a study of others' agents where no sandbox is available.

        `others` says whose (a class's files, a --submissions folder); the study stops
        before any of their code runs, unless --sandbox none was given by name.

        Raises:
            UsageError: with the two ways on.
        """
        if others and self.sandbox == "auto" and self.tool() is None:
            raise UsageError(
                f"this study plays others' agents ({others}), and no sandbox is available "
                f"here ({NO_SANDBOX_HERE}): without one they run as you, can read and write "
                "your files, read the secret seed and forge rows. Install bubblewrap (Debian "
                "and Ubuntu: apt-get install bubblewrap), or give --sandbox none to play them "
                "without one")

    def describe(self) -> str:
        """The isolation in words, for a study page."""
        tool = self.tool()
        return (f"sandbox {'bubblewrap' if tool else 'none'}"
                + (f", {len(self.hide)} hidden folder(s)" if self.hide else ""))


DEFAULT_ISOLATION = Isolation()
NO_SANDBOX_HERE = "bubblewrap is not installed, or this machine forbids its namespaces"

# what a player's environment holds of the referee's without being named: the locale (how its
# text is read and printed), the search path for programs, the time zone. Nothing else: a
# grader's tokens and keys live in the environment
ALLOWED_ENV = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ")


def own_files(files: Iterable[str]) -> tuple[str, ...]:
    """The agents' files (absolute) whose folder holds another of them, at any depth.

    Such a file is shown alone in the sandbox: a single-file submission (students/zed.py)
    would otherwise see the whole submissions folder, the others' code included. A file alone
    in its folder (students/ann/agent.py, a person's own my_agent.py) sees its folder, so
    helper modules beside it import as they do when its author runs it.
    """
    unique = sorted(set(files))
    return tuple(f for f in unique if any(
        other != f and other.startswith(str(Path(f).parent).rstrip("/") + "/")
        for other in unique))


def env_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Names of environment variables, checked (`--pass-env`)."""
    for name in names:
        if not name or "=" in name or "\0" in name or not name.isprintable():
            raise UsageError(f"--pass-env {name!r}: not the name of an environment variable")
    return tuple(dict.fromkeys(names))


def player_environment(names: tuple[str, ...] = ()) -> dict[str, str]:
    """A player's whole environment: ALLOWED_ENV and `names`, as the referee has them."""
    return {name: os.environ[name] for name in (*ALLOWED_ENV, *names) if name in os.environ}


def hidden_paths(texts: Iterable[str]) -> list[str]:
    """The absolute paths of the texts that name a file or folder (FILE:K names FILE).

    A shipped name or an inline instance names none.
    """
    found = []
    for text in texts:
        for candidate in (text, text.rpartition(":")[0]):
            if candidate and path_exists(Path(candidate)):
                found.append(str(Path(candidate).resolve()))
                break
    return found
