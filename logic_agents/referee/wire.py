"""What crosses between the referee and a player process: framed JSON, nothing else.

Every message is a referee.protocol class: it is encoded here (`send`) and decoded and
checked here (`receive(deadline, expect)`: the one validator, protocol.parse, with the
classes the caller may receive now); a record that is not one of them is a WireError.

Concepts:
- A frame: four bytes (big-endian length), then that many bytes of UTF-8 JSON, one object.
  Only data crosses: no pickle in either direction, so nothing a player sends can make the
  referee run code, and nothing the referee sends can hand the player an object of its own.
- Channel: one end of a frame stream over two file descriptors. `receive(deadline)` waits
  at most until `deadline` (time.monotonic()); a frame over `limit` bytes, bytes that are not
  one JSON object, text with a lone surrogate (no file can hold it), or the end of the stream
  are WireError, which the referee turns into the agent's failure.
- Delta: observations cross as their game's Observations record; `Delta.pack` sends only the
  fields that changed since the last record of the same game (an Undead puzzle crosses once,
  not at every move), or the whole record when a field went away, and `Delta.unpack` on the
  other side rebuilds the whole record.
"""

from __future__ import annotations

import json
import os
import select
import socket
import struct
import time
from typing import TypeVar

from logic_agents.ground.inputs import is_text
from logic_agents.ground.shapes import Record
from logic_agents.referee.protocol import Message, ProtocolError, parse, record

M = TypeVar("M", bound=Message)

HEADER = struct.Struct(">I")
ANSWER_LIMIT = 1 << 20  # the most a player may send in one frame (an action, a why, stats)
ORDER_LIMIT = 1 << 30  # what a player accepts from the referee (a large board's observation)


class WireError(Exception):
    """The stream broke, ran past its deadline, or carried what is not a frame of JSON."""

    def __init__(self, message: str, *, timeout: bool = False, closed: bool = False,
                 not_data: bool = False):
        """A broken frame.

        `timeout` or `closed` say it was not the peer's data; `not_data`, that what this side
        was to send is not JSON data (nothing of it was sent).
        """
        super().__init__(message)
        self.timeout, self.closed, self.not_data = timeout, closed, not_data


def _json(message: Record) -> bytes:
    """A message's JSON.

    WireError(not_data) when it holds what JSON does not carry (a set, an object, NaN), said
    before a byte of it is sent.
    """
    try:
        return json.dumps(message, separators=(",", ":"), allow_nan=False).encode()
    except (TypeError, ValueError, RecursionError) as e:
        raise WireError(f"{type(e).__name__}: {str(e)[:200]}", not_data=True) from None


def encode(message: Message) -> bytes:
    """A message as one frame: its length, then its JSON."""
    data = _json(record(message))
    return HEADER.pack(len(data)) + data


def _message(data: Record, expect: tuple[type[M], ...]) -> M:
    try:
        return parse(data, expect)
    except ProtocolError as e:
        raise WireError(f"a message the protocol does not allow here: {e}") from None


class Channel:
    """One end of a frame stream: read from `rfd`, write to `wfd`."""

    def __init__(self, rfd: int, wfd: int, limit: int = ANSWER_LIMIT):
        """A channel over two file descriptors; an answer over `limit` bytes is refused."""
        self.rfd, self.wfd, self.limit = rfd, wfd, limit
        self._buffer = bytearray()

    def send(self, message: Message) -> None:
        """Send one message."""
        data = memoryview(encode(message))
        try:
            while data:
                written = os.write(self.wfd, data)
                data = data[written:]
        except (BrokenPipeError, ConnectionResetError, OSError) as e:
            raise WireError(f"the stream is closed ({type(e).__name__})", closed=True) from None

    def pending(self) -> bool:
        """Whether a frame (or the end of the stream) is already waiting to be read."""
        if len(self._buffer) >= HEADER.size:
            return True
        readable, _, _ = select.select([self.rfd], [], [], 0)
        return bool(readable)

    def receive(self, expect: tuple[type[M], ...], deadline: float | None = None) -> M:
        """The next frame's message, one of `expect`.

        Raises:
            WireError: past `deadline`, at the end of the stream, or when the frame is too
                long, is not a JSON object, or is not a message `expect` allows.
        """
        while True:
            frame = self._frame()
            if frame is not None:
                return _message(_decode(frame), expect)
            if deadline is not None:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    raise WireError("no answer before the deadline", timeout=True)
                readable, _, _ = select.select([self.rfd], [], [], wait)
                if not readable:
                    continue
            try:
                chunk = os.read(self.rfd, 1 << 16)
            except InterruptedError:  # pragma: no cover - PEP 475 retries for us
                continue
            except OSError as e:
                raise WireError(f"the stream is closed ({type(e).__name__})", closed=True) from None
            if not chunk:
                raise WireError("the stream ended", closed=True)
            self._buffer += chunk

    def _frame(self) -> bytes | None:
        if len(self._buffer) < HEADER.size:
            return None
        (length,) = HEADER.unpack_from(self._buffer)
        if length > self.limit:
            raise WireError(f"a frame of {length:,} bytes, over the {self.limit:,} allowed")
        end = HEADER.size + length
        if len(self._buffer) < end:
            return None
        frame = bytes(self._buffer[HEADER.size:end])
        del self._buffer[:end]
        return frame


def _decode(frame: bytes) -> Record:
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError) as e:
        raise WireError(f"a frame that is not JSON ({str(e)[:80]})") from None
    if not isinstance(message, dict):
        raise WireError(f"a frame that is not a JSON object ({type(message).__name__})")
    # a lone surrogate (an escape \ud800-\udfff without its pair) is text no file holds: a
    # page or a results file written from it would fail; refused here, as names are
    if (b"\\ud" in frame or b"\\uD" in frame) and not _all_text(message):
        raise WireError("a frame with text no file can hold (a lone surrogate)")
    return message


def _all_text(value: object) -> bool:
    """Whether every str in `value` (keys too) encodes as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_text(item):
                return False
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return True


class Delta:
    """Observation records sent as the fields that changed since the last one."""

    def __init__(self) -> None:
        """A sender's (or receiver's) memory of the last observation."""
        self.last: Record = {}

    def pack(self, record: Record) -> tuple[Record, bool]:
        """(the fields of `record` that differ from the last one packed, whether it is whole).

        The whole of it the first time and whenever a field went away; `forget()` starts
        again (a new game).
        """
        last, self.last = self.last, record
        if not last or any(k not in record for k in last):
            return dict(record), True
        return {k: v for k, v in record.items() if k not in last or last[k] != v}, False

    def unpack(self, changed: Record, keep: bool) -> Record:
        """The whole record: the last one updated with `changed`.

        With `keep` False, `changed` is the whole record.
        """
        record = {**self.last, **changed} if keep else dict(changed)
        self.last = record
        return record

    def forget(self) -> None:
        """Forget the last observation (a new game)."""
        self.last = {}


class Packets:
    """A control socket (SOCK_SEQPACKET): one JSON object a packet, a socket riding along.

    The referee orders a player server on one (referee.server); a packet is read whole or not
    at all, so a socket sent with an order (SCM_RIGHTS) is never parted from it.
    """

    def __init__(self, sock: socket.socket, limit: int = ANSWER_LIMIT):
        """Packets over `sock`; an answer over `limit` bytes is refused."""
        self.sock, self.limit = sock, limit

    def send(self, message: Message, fds: tuple[int, ...] = ()) -> None:
        """Send one message (with `fds`, open descriptors the peer receives copies of)."""
        data = _json(record(message))
        try:
            if fds:
                socket.send_fds(self.sock, [data], list(fds))
            else:
                self.sock.send(data)
        except OSError as e:
            raise WireError(f"the socket is closed ({type(e).__name__})", closed=True) from None

    def receive(self, expect: tuple[type[M], ...], deadline: float | None = None) -> M:
        """The next message, one of `expect`, waiting at most until `deadline`.

        Raises:
            WireError: past `deadline`, at the end of the socket, or when the packet is too
                long, is not a JSON object, or is not a message `expect` allows.
        """
        return self.receive_with_fds(expect, deadline)[0]

    def receive_with_fds(self, expect: tuple[type[M], ...], deadline: float | None = None,
                         most: int = 0) -> tuple[M, list[int]]:
        """The next message, one of `expect`, and up to `most` descriptors sent with it.

        The descriptors are the caller's to close (closed here when the message is refused).
        """
        while deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0:
                raise WireError("no answer before the deadline", timeout=True)
            readable, _, _ = select.select([self.sock], [], [], wait)
            if readable:
                break
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, self.limit + 1, most)
        except OSError as e:
            raise WireError(f"the socket is closed ({type(e).__name__})", closed=True) from None
        try:
            if not data:
                raise WireError("the socket ended", closed=True)
            if len(data) > self.limit:
                raise WireError(f"a packet over the {self.limit:,} bytes allowed")
            return _message(_decode(data), expect), fds
        except WireError:
            for fd in fds:
                os.close(fd)
            raise
