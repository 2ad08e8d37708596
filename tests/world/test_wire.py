"""referee.wire: the frames between the referee and a player carry one JSON object each, and
whatever else a player writes is refused in words, never run or trusted (issue 38)."""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.referee import protocol
from logic_agents.referee.wire import HEADER, Channel, Delta, WireError, encode

OK = (protocol.Ok,)


def channel_pair(limit: int = 1 << 20) -> tuple[Channel, int]:
    r, w = os.pipe()
    return Channel(r, os.open(os.devnull, os.O_WRONLY), limit=limit), w


def test_a_frame_is_one_json_object_and_anything_else_is_refused():
    reader, w = channel_pair(limit=64)
    os.write(w, encode(protocol.Ok("g")))
    assert reader.receive(OK, time.monotonic() + 1) == protocol.Ok("g")
    for raw, words in ((HEADER.pack(3) + b"[1]", "not a JSON object"),
                       (HEADER.pack(5) + b"{nope", "not JSON"),
                       (HEADER.pack(10**6), "over the 64 allowed"),
                       (HEADER.pack(2000) + b"[" * 2000, "not JSON")):
        reader, w = channel_pair(limit=4096)
        reader.limit = 64 if "allowed" in words else 4096
        os.write(w, raw)
        with pytest.raises(WireError, match=words):
            reader.receive(OK, time.monotonic() + 1)


def test_silence_is_a_timeout_and_a_closed_stream_says_so():
    reader, w = channel_pair()
    with pytest.raises(WireError) as late:
        reader.receive(OK, time.monotonic() + 0.05)
    assert late.value.timeout
    os.close(w)
    with pytest.raises(WireError) as gone:
        reader.receive(OK, time.monotonic() + 1)
    assert gone.value.closed


@settings(deadline=None, max_examples=200)
@given(st.lists(st.dictionaries(st.sampled_from(["grid", "lives", "step", "puzzle"]),
                                st.one_of(st.integers(), st.text(max_size=5),
                                          st.lists(st.text(max_size=3), max_size=3))),
                min_size=1, max_size=6))
def test_a_delta_rebuilds_every_record_of_a_game(records):
    sender, receiver = Delta(), Delta()
    for index, record in enumerate(records):
        full = {"step": index, **record}
        changed, whole = sender.pack(full)
        assert receiver.unpack(changed, keep=index > 0 and not whole) == full
