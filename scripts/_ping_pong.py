"""The bare round trip of one frame each way (referee.wire) between two processes, in
microseconds (scripts/bench_fair_play.py runs it on one core and across cores)."""

import os
import time

from logic_agents.referee.wire import Channel

ROUNDS = 5000


def main() -> None:
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    if os.fork() == 0:
        echo = Channel(r1, w2)
        while True:
            message = echo.receive()
            if message.get("op") == "bye":
                os._exit(0)
            echo.send({"op": "ok", "step": message["step"]})
    channel = Channel(r2, w1)
    start = time.perf_counter()
    for step in range(ROUNDS):
        channel.send({"op": "act", "step": step, "obs": {"grid": ["?????????"] * 9}})
        channel.receive(time.monotonic() + 10)
    print(f"{(time.perf_counter() - start) / ROUNDS * 1e6:.1f}")
    channel.send({"op": "bye"})
    os.wait()


if __name__ == "__main__":
    main()
