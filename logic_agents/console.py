"""The `logic-agents` console script and `python -m logic_agents`.

Reading the command line's modules takes a moment; a Ctrl-C (or SIGTERM) in it ends the command
with one line and exit code 130, not a KeyboardInterrupt traceback. After that the command
line's own handlers (cli.common.stop_on_signals) take over.
"""

from __future__ import annotations

import contextlib
import signal
import sys

PROG = "logic-agents"


def main() -> int:
    """Run the command line as a console script."""
    previous = signal.signal(signal.SIGTERM, _interrupted)  # as Ctrl-C, until the CLI's own
    try:
        from logic_agents.cli import main as command_line  # the import a Ctrl-C may cut short

        signal.signal(signal.SIGTERM, previous)
        return command_line()
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):  # a closed stderr: nothing to say it on
            sys.stderr.write(f"{PROG}: interrupted\n")
        return 130


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
