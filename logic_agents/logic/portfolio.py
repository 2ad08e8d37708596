"""A portfolio: one question put to several solver set-ups at once; the first answer wins.

Concepts:
- Why: a CDCL solver's time on a hard instance is partly luck (variable numbering, clause
  order, phases). Two set-ups that fail on different instances, raced on two cores, cut the
  tail that either alone has (docs/BENCHMARKS.md, "SAT tails").
- race(tasks, accept): each task (a callable without arguments that returns a picklable
  answer) runs in a forked child of its own. The first answer `accept` takes is returned
  with its task's index; every other child is then killed and reaped before race returns,
  so no process outlives the call (children also die with their parent, and leave Ctrl-C to
  it). Each child takes SIGTERM's default action back from a parent that handles it in
  Python (the console script does): a loser inside a solver's C code then dies at once,
  where the inherited handler would wait for the call to return. `accept(index, answer)`
  lets an answer that would depend on timing wait for the answer of a set-up that is
  always asked (a second solution, which differs by solver).
- A child that dies without answering (the memory cap, a crash) drops out; when none
  answers, the first failure is raised. Where there is no fork, or one core, tasks[0] runs in
  this process alone.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from logic_agents.errors import SolverError
from logic_agents.ground.processes import fork_context, leave_signals_to, stop_process

T = TypeVar("T")


def cores() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def race(tasks: Sequence[Callable[[], T]],
         accept: Callable[[int, T], bool] = lambda index, answer: True) -> tuple[int, T]:
    """(index, answer) of the first task whose answer `accept` takes (see the module).

    tasks[0]'s answer is always taken.
    """
    if not tasks:
        raise ValueError("race needs at least one task")
    context = fork_context()
    racers = min(len(tasks), cores())
    if racers < 2 or context.get_start_method() != "fork":
        return 0, tasks[0]()
    parent = os.getpid()
    running: dict[Any, tuple[int, Any]] = {}

    def run(index: int, conn: Any) -> None:
        leave_signals_to(parent)  # the parent stops the race, and a loser's SIGTERM at once
        try:
            conn.send(("ok", tasks[index]()))
        except BaseException as e:  # the parent decides what a failure means
            try:
                conn.send(("raise", e))
            except Exception:  # an exception that does not pickle: its words still travel
                conn.send(("raise", SolverError(str(e))))

    from multiprocessing.connection import wait

    failures: list[BaseException] = []
    try:
        for index in range(racers):
            mine, theirs = context.Pipe(duplex=False)
            proc = context.Process(target=run, args=(index, theirs), daemon=True)
            proc.start()
            theirs.close()
            running[mine] = (index, proc)
        while running:
            ready: list[Any] = wait(list(running))
            for conn in ready:
                index, proc = running.pop(conn)
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):
                    proc.join(1.0)
                    failures.append(SolverError(
                        f"solver set-up {index} stopped without an answer "
                        f"(exit code {proc.exitcode})"))
                    continue
                finally:
                    conn.close()
                if kind == "raise":
                    failures.append(value)
                elif index == 0 or accept(index, value):
                    return index, value
    finally:
        for conn, (_, proc) in running.items():
            stop_process(proc)
            conn.close()
    raise failures[0]
