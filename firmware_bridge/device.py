"""The device side of the protocol in Python, byte for byte the firmware's ``device.c``.

The emulator runs it behind a pseudo-terminal; the shared test vectors hold both to the same
bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from firmware_bridge.frames import Frame, FrameDecoder, FrameError, encode_frame
from firmware_bridge.messages import (
    BRIGHTNESS_DEFAULT,
    BRIGHTNESS_MAX,
    DIGITS,
    FLAG_SYNCED,
    MAX_DISPLAYS,
    PROTOCOL_VERSION,
    SCORE_KEEP,
    TEXT_MAX,
    Msg,
    Nak,
)
from firmware_bridge.segments import render_score, render_text

FIRMWARE_VERSION = (1, 0)
_BLANK = (0,) * DIGITS
_NAK_FOR = {
    FrameError.CRC: Nak.CRC,
    FrameError.FRAMING: Nak.FRAMING,
    FrameError.TOO_LONG: Nak.TOO_LONG,
}


@dataclass(frozen=True)
class DisplayState:
    """What the displays show: cells per display, brightness, highlight and blink masks."""

    cells: tuple[tuple[int, ...], ...]
    brightness: int
    highlight: int
    blink: int


@dataclass
class DeviceCore:
    device_id: int
    displays: int = MAX_DISPLAYS
    synced: bool = False
    brightness: int = BRIGHTNESS_DEFAULT
    highlight: int = 0
    blink: int = 0
    rejected: int = 0
    cells: list[tuple[int, ...]] = field(default_factory=list)
    decoder: FrameDecoder = field(default_factory=FrameDecoder)

    def __post_init__(self) -> None:
        self.displays = min(self.displays, MAX_DISPLAYS)
        self.cells = [_BLANK] * self.displays

    @property
    def state(self) -> DisplayState:
        return DisplayState(tuple(self.cells), self.brightness, self.highlight, self.blink)

    def announce(self) -> bytes:
        """The HELLO the device sends by itself when it starts."""
        return self._hello(0)

    def feed(self, data: bytes) -> bytes:
        """Takes received bytes; returns the bytes of every reply."""
        replies = bytearray()
        for event in self.decoder.feed(data):
            if isinstance(event, FrameError):
                replies += self._nak(0, _NAK_FOR[event])
            else:
                replies += self._handle(event)
        return bytes(replies)

    def _flags(self) -> bytes:
        return bytes([FLAG_SYNCED if self.synced else 0])

    def _reply(self, msg: Msg, seq: int, body: bytes) -> bytes:
        return encode_frame(Frame(msg, seq, body))

    def _ack(self, seq: int) -> bytes:
        return self._reply(Msg.ACK, seq, self._flags())

    def _nak(self, seq: int, reason: Nak) -> bytes:
        if not reason.is_link_error:
            self.rejected = min(self.rejected + 1, 0xFFFF)
        return self._reply(Msg.NAK, seq, bytes([reason]))

    def _hello(self, seq: int) -> bytes:
        major, minor = FIRMWARE_VERSION
        body = self._flags() + struct.pack(
            "<BBBIBB", PROTOCOL_VERSION, major, minor, self.device_id, self.displays, DIGITS
        )
        return self._reply(Msg.HELLO, seq, body)

    def _stats(self, seq: int) -> bytes:
        stats = self.decoder.stats
        counters = (
            stats.frames,
            stats.crc_errors,
            stats.framing_errors + stats.too_long,
            self.rejected,
            0,
        )
        body = self._flags() + struct.pack("<5H", *(min(c, 0xFFFF) for c in counters))
        return self._reply(Msg.STATS, seq, body)

    def _handle(self, frame: Frame) -> bytes:
        body, seq = frame.body, frame.seq
        if frame.type == Msg.HELLO_REQUEST and not body:
            self.synced = True
            return self._hello(seq)
        if frame.type == Msg.PING and not body:
            return self._ack(seq)
        if frame.type == Msg.STATS_REQUEST and not body:
            return self._stats(seq)
        if frame.type == Msg.SCORES:
            return self._scores(seq, body)
        if frame.type == Msg.TEXT and 1 <= len(body) <= 1 + TEXT_MAX and body[0] < self.displays:
            self.cells[body[0]] = render_text(body[1:].decode("latin-1"))
            return self._ack(seq)
        if frame.type == Msg.BRIGHTNESS and len(body) == 1 and body[0] <= BRIGHTNESS_MAX:
            self.brightness = body[0]
            return self._ack(seq)
        if frame.type == Msg.MARKS and len(body) == 2:
            mask = (1 << self.displays) - 1
            self.highlight, self.blink = body[0] & mask, body[1] & mask
            return self._ack(seq)
        known = {m.value for m in Msg if m < Msg.ACK}
        return self._nak(seq, Nak.BAD_BODY if frame.type in known else Nak.UNKNOWN_TYPE)

    def _scores(self, seq: int, body: bytes) -> bytes:
        count = body[0] if body else 0xFF
        if count > MAX_DISPLAYS or len(body) != 1 + 4 * count:
            return self._nak(seq, Nak.BAD_BODY)
        values = struct.unpack(f"<{count}i", body[1:])
        for i in range(self.displays):
            if i >= count:
                self.cells[i] = _BLANK
            elif values[i] != SCORE_KEEP:
                self.cells[i] = render_score(values[i])
        return self._ack(seq)
