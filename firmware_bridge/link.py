"""The transport layer above the framing: one request in flight, ACK or NAK, retries, counters.

The host sends a frame and waits for its answer before it sends anything else, so the device
never holds more than one request in its receive buffer. A request that is not answered within
the reply timeout is sent again with the same sequence number (every request is idempotent). A
NAK for a damaged frame makes the host send again at once, but only once the frame it answers
could have been wholly received, so a burst of NAKs cannot make the host flood the device.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from firmware_bridge.frames import Frame, FrameDecoder, FrameError, encode_frame
from firmware_bridge.messages import (
    BodyError,
    Hello,
    Msg,
    Nak,
    Request,
    hello_request,
    parse_flags,
    parse_hello,
    parse_nak,
)
from firmware_bridge.transport import BAUD, Port

_ANSWERS = {Msg.HELLO_REQUEST: Msg.HELLO, Msg.STATS_REQUEST: Msg.STATS}


class _Resend(enum.Enum):
    """The device NAKed a damaged frame while a request was waiting: send it again."""

    NOW = "now"


class NoAnswerError(Exception):
    """The device did not answer a request, however often it was sent."""


class RefusedError(Exception):
    """The device understood the frame and refused it (unknown type or a bad body)."""

    def __init__(self, request: Request, reason: Nak) -> None:
        self.request = request
        self.reason = reason
        super().__init__(f"the device refused {request.type.name}: {reason.name.lower()}")


@dataclass
class LinkStats:
    """What a field engineer asks first about a flaky display."""

    requests: int = 0
    retransmits: int = 0
    timeouts: int = 0
    naks: int = 0
    stale_replies: int = 0
    crc_errors: int = 0
    framing_errors: int = 0
    device_restarts: int = 0
    connects: int = 0
    link_losses: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def wire_seconds(size: int) -> float:
    """How long ``size`` bytes take on the wire (10 bits a byte)."""
    return size * 10 / BAUD


@dataclass
class Link:
    port: Port
    reply_timeout: float = 0.06
    retries: int = 8
    stats: LinkStats = field(default_factory=LinkStats)
    clock: Callable[[], float] = time.monotonic
    # Set when the device shows it lost its state (it started again); the owner clears it.
    restarted: bool = False
    _decoder: FrameDecoder = field(default_factory=FrameDecoder)
    _seq: int = 0

    def request(self, request: Request, retries: int | None = None) -> Frame:
        """Sends ``request`` until it is answered; returns the answer (ACK, HELLO or STATS)."""
        self._seq = self._seq % 255 + 1  # 0 is the device's own: announcements, damaged frames
        wire = encode_frame(Frame(request.type, self._seq, request.body))
        self.stats.requests += 1
        attempts = 1 + (self.retries if retries is None else retries)
        for attempt in range(attempts):
            if attempt:
                self.stats.retransmits += 1
            self.port.write(wire)
            self.stats.bytes_sent += len(wire)
            answer = self._await(request, wire)
            if answer is not None:
                return answer
        raise NoAnswerError(f"no answer to {request.type.name} after {attempts} tries")

    def hello(self, timeout: float, interval: float = 0.25) -> Hello:
        """HELLO until the device answers: covers a board that resets when its port opens."""
        deadline = self.clock() + timeout
        saved = self.reply_timeout
        self.reply_timeout = interval
        try:
            while True:
                try:
                    return parse_hello(self.request(hello_request(), retries=0).body)
                except NoAnswerError:
                    if self.clock() >= deadline:
                        raise NoAnswerError(f"no HELLO within {timeout:g} s") from None
                except BodyError as exc:
                    raise NoAnswerError(f"an answer that is not a HELLO: {exc}") from None
        finally:
            self.reply_timeout = saved

    def poll(self) -> None:
        """Reads what the device sent unasked (a restart announcement) without waiting."""
        self._events(self.port.read(0.0), None, 0)

    def _await(self, request: Request, wire: bytes) -> Frame | None:
        sent_at = self.clock()
        in_flight = wire_seconds(len(wire))
        deadline = sent_at + self.reply_timeout + 2 * in_flight
        while (now := self.clock()) < deadline:
            data = self.port.read(deadline - now)
            answer = self._events(data, request, self._seq)
            if isinstance(answer, Frame):
                return answer
            if answer is _Resend.NOW and self.clock() - sent_at >= in_flight:
                return None
        self.stats.timeouts += 1
        return None

    def _events(self, data: bytes, request: Request | None, seq: int) -> Frame | _Resend | None:
        """Handles received bytes; returns the answer to the request, or a NAK that asks for it."""
        self.stats.bytes_received += len(data)
        result: Frame | _Resend | None = None
        for event in self._decoder.feed(data):
            if isinstance(event, FrameError):
                if event is FrameError.CRC:
                    self.stats.crc_errors += 1
                else:
                    self.stats.framing_errors += 1
                continue
            outcome = self._frame(event, request, seq)
            if outcome is not None and not isinstance(result, Frame):
                result = outcome
        return result

    def _frame(self, frame: Frame, request: Request | None, seq: int) -> Frame | _Resend | None:
        try:
            if frame.type == Msg.NAK:
                reason = parse_nak(frame.body)
                self.stats.naks += 1
                if reason.is_link_error:
                    return _Resend.NOW if request is not None else None
                if request is not None and frame.seq == seq:
                    raise RefusedError(request, reason)
                return None
            synced = parse_flags(frame.body)
        except BodyError:
            self.stats.framing_errors += 1
            return None
        if not synced and not (request is not None and request.type == Msg.HELLO_REQUEST):
            self._restarted()
        if request is None or frame.seq != seq or frame.type != _ANSWERS.get(request.type, Msg.ACK):
            self.stats.stale_replies += 1
            return None
        return frame

    def _restarted(self) -> None:
        if not self.restarted:
            self.stats.device_restarts += 1
        self.restarted = True
