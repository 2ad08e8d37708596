"""The bare round trip of one message each way (referee.wire, referee.protocol: encoded,
framed, decoded and checked by the one validator) between two processes, in microseconds
(benchmarks/bench_fair_play.py runs it on one core and across cores)."""

import os
import time

from logic_agents.referee import protocol
from logic_agents.referee.wire import Channel

ROUNDS = 5000


def main() -> None:
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    if os.fork() == 0:
        echo = Channel(r1, w2)
        while True:
            message = echo.receive(protocol.GAME_ORDERS)
            if isinstance(message, protocol.Close):
                os._exit(0)
            echo.send(protocol.Action(message.game_id, message.step, None))
    channel = Channel(r2, w1)
    start = time.perf_counter()
    for step in range(ROUNDS):
        channel.send(protocol.Act("g", step, {"grid": ["?????????"] * 9}, False))
        channel.receive((protocol.Action,), time.monotonic() + 10)
    print(f"{(time.perf_counter() - start) / ROUNDS * 1e6:.1f}")
    channel.send(protocol.Close("g"))
    os.wait()


if __name__ == "__main__":
    main()
