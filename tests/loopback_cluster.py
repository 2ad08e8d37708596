"""A two-node Ray cluster (a head and one worker node) bound to 127.0.0.1 only, for tests.

Run as a script with RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0, RAY_AUTH_MODE=token and
RAY_AUTH_TOKEN set: it prints one JSON line {"address": ..., "nodes": ...} once both nodes are
alive, and shuts the cluster down when its stdin closes. Ray's own `ray start` refuses a worker
node in loopback mode, so the nodes are started the way Ray's test utilities start them.
"""

from __future__ import annotations

import json
import signal
import sys
import tempfile
import time
from pathlib import Path

from ray.cluster_utils import Cluster


def main() -> int:
    temp_dir = sys.argv[1]
    # a plain kill must still stop the nodes: turn SIGTERM into an exit that runs `finally`
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    node = {"node_ip_address": "127.0.0.1", "num_cpus": 1, "temp_dir": temp_dir,
            "include_dashboard": False}
    # Ray writes the address of its current cluster to /tmp/ray whatever temp_dir says, and
    # fails when that folder is not there yet (a fresh machine on which no Ray ran before)
    Path(tempfile.gettempdir(), "ray").mkdir(exist_ok=True)
    cluster = Cluster(initialize_head=True, head_node_args=node)
    try:
        cluster.add_node(**{k: v for k, v in node.items() if k != "include_dashboard"})
        cluster.wait_for_nodes()
        nodes = len(cluster.list_all_nodes())
        print(json.dumps({"address": cluster.address, "nodes": nodes}), flush=True)
        sys.stdin.read()
    finally:
        cluster.shutdown()
        time.sleep(0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
