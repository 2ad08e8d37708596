"""The Ray backend of `compare`: the same paired jobs, played on a local Ray or a cluster.

Concepts:
- address: HOST:PORT of a running cluster's head (what `ray start --head` prints), or None for
  a Ray started here for this run. The address is checked and dialled before Ray is asked,
  so a typo costs a second, not Ray's two minutes of retries.
- auth: a head that wants a token this process lacks (Ray's default token authentication,
  RAY_AUTH_MODE not "token" here) is found by a child that tries to join and is stopped at
  Ray's first complaint: one clear line in a second, where Ray printed 20 lines over 20 s.
- loopback: a head bound to 127.0.0.1 is dialled on 127.0.0.1. Ray on Linux rewrites a
  loopback address to the machine's interface address, which a loopback-only head does not
  listen on; Ray's RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 switch keeps it on loopback.
- tasks: chunks of CHUNK games. Each task carries its instances (pickled with the jobs), so
  worker nodes need the same logic-agents and extras installed, but no shared file system.
  A task reports its worker's logic-agents version; a mismatch stops the study.
- stop: Ctrl-C cancels the pending tasks; rows already returned are kept.
- caps: a task plays its games in a forked process of its own (sandbox.Pool, one worker), so
  the move and game caps stop an agent stuck in C on Ray as they do on --jobs.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from logic_agents._version import __version__
from logic_agents.errors import DependencyNotInstalled, LogicAgentsError, UsageError
from logic_agents.ground.shapes import Record

CHUNK = 8  # games per Ray task: small enough to stream, large enough to amortise dispatch
DIAL_TIMEOUT_S = 5.0
LOOPBACK_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def parse_address(address: str) -> tuple[str, int]:
    """HOST:PORT (IPv6 hosts in brackets) -> (host, port); a usage error otherwise."""
    text = address.strip()
    if text.startswith("ray://"):
        raise UsageError("--address takes the head's HOST:PORT (the GCS port of `ray start "
                         "--head`), not a Ray Client ray:// address")
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise UsageError(f"--address must be HOST:PORT, e.g. 10.0.0.5:6379, not {address!r}")
    return host, int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_reachable(host: str, port: int, timeout: float = DIAL_TIMEOUT_S) -> None:
    """Dial the head once; a clear error now instead of Ray's long retries later."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise LogicAgentsError(f"cannot reach a Ray head at {host}:{port} ({reason}); start one "
                               "with `ray start --head --port PORT` or check --address") from None


def _import_ray(loopback: bool) -> Any:
    if loopback:
        os.environ.setdefault(LOOPBACK_SWITCH, "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
        from ray._private import ray_constants
    except ImportError as e:
        raise DependencyNotInstalled(
            "the ray backend needs the 'ray' extra: pip install 'logic-agents[ray]'"
        ) from e
    if loopback and os.environ.get(LOOPBACK_SWITCH) == "0":
        # Ray reads the switch when it is first imported; an earlier import in this process
        # (the Python API) must see it too
        ray_constants.ENABLE_RAY_CLUSTER = False
    return ray


# what Ray's client prints, once a second for about 20 s, when the head wants a token it lacks
AUTH_REFUSED = ("InvalidAuthToken", "Unauthenticated")
AUTH_PROBE_S = 30.0
_PROBE = ("import sys, ray\n"
          "ray.init(address=sys.argv[1], include_dashboard=False, log_to_driver=False,"
          " configure_logging=False)\n")
AUTH_HINT = ("set RAY_AUTH_MODE=token here and give the cluster's token in RAY_AUTH_TOKEN or "
             "~/.ray/auth_token")


def wants_a_token(address: str) -> bool:
    """Whether the head at `address` refuses this process for want of a token: a child process
    tries to join, and is stopped at Ray's first complaint (instead of 20 lines over 20 s)."""
    probe = subprocess.Popen([sys.executable, "-c", _PROBE, address], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    refused = threading.Event()

    def read() -> None:
        assert probe.stderr is not None
        for line in probe.stderr:
            if any(word in line for word in AUTH_REFUSED):
                refused.set()
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        reader.join(AUTH_PROBE_S)  # ends at the complaint, or when the child is done
        return refused.is_set()
    finally:
        probe.kill()
        probe.wait()


def _connect(ray: Any, address: str | None) -> None:
    if address is not None and os.environ.get("RAY_AUTH_MODE", "").lower() != "token" \
            and wants_a_token(address):
        raise LogicAgentsError(f"the Ray cluster at {address} wants an authentication token: "
                               + AUTH_HINT)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    except (ConnectionError, RuntimeError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        hint = ""
        if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
            hint = "; if the cluster uses token authentication, " + AUTH_HINT
        raise LogicAgentsError(f"cannot join the Ray cluster at {address}: {first}{hint}") from None


def _task_error(error: Exception) -> Exception:
    cause = getattr(error, "cause", None)
    if isinstance(cause, ImportError) or "No module named 'logic_agents" in str(error):
        return LogicAgentsError("a Ray worker cannot import logic_agents: install the same "
                                "logic-agents version and extras on every node")
    return error


def run_ray(jobs: Sequence[Any], address: str | None, caps: Any, emit: Callable[[Any], None],
            stop: threading.Event, play_chunk: Callable[..., tuple[str, list[Any]]],
            agents: Record | None = None) -> None:
    """Play `jobs` on Ray, emitting each finished row; returns early once `stop` is set.
    `play_chunk(jobs, caps, agents) -> (version, rows)` runs on a worker (batch.play_chunk:
    this module imports nothing of batch's, so the two depend one way). `agents`: the study's
    agents given as objects (classes, factories), which a Ray worker cannot look up by name:
    they travel with every task (Ray pickles them)."""

    loopback = False
    if address is not None:
        host, port = parse_address(address)
        loopback = is_loopback(host)
        check_reachable(host, port)
    ray = _import_ray(loopback)
    started_here = not ray.is_initialized()
    if started_here:
        _connect(ray, address)
    try:
        remote = ray.remote(play_chunk)
        chunks = [list(jobs[i : i + CHUNK]) for i in range(0, len(jobs), CHUNK)]
        pending = [remote.remote(chunk, caps, agents or None) for chunk in chunks]
        while pending and not stop.is_set():
            done, pending = ray.wait(pending, num_returns=1, timeout=0.2)
            for ref in done:
                try:
                    version, rows = ray.get(ref)
                except ray.exceptions.RayError as e:
                    raise _task_error(e) from None
                if version != __version__:
                    raise LogicAgentsError(f"a Ray worker runs logic-agents {version}, this "
                                           f"machine {__version__}: install the same version "
                                           "on every node")
                for row in rows:
                    emit(row)
        for ref in pending:
            ray.cancel(ref)
    finally:
        if started_here:
            ray.shutdown()
