"""Frames on the wire: ``00 COBS(type seq body crc_hi crc_lo) 00``.

The CRC (:mod:`firmware_bridge.crc`) covers type, sequence number and body. The largest frame is
64 bytes with both delimiters, so a whole frame fits a 64-byte UART receive buffer. The decoder
takes any bytes at all: a delimiter always ends the current frame, which is how it resynchronises
after noise, a dropped byte or a device that restarted halfway through a frame.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from firmware_bridge import cobs
from firmware_bridge.crc import crc16

MAX_BODY = 57
MAX_RAW = MAX_BODY + 4
MAX_ENCODED = MAX_RAW + 1
MAX_WIRE = MAX_ENCODED + 2
DELIMITER = 0


@dataclass(frozen=True)
class Frame:
    type: int
    seq: int
    body: bytes = b""


class FrameError(enum.Enum):
    """Why bytes between two delimiters were not a frame."""

    CRC = "crc"
    FRAMING = "framing"
    TOO_LONG = "too long"


def encode_frame(frame: Frame) -> bytes:
    if len(frame.body) > MAX_BODY:
        raise ValueError(f"a frame body holds at most {MAX_BODY} bytes, not {len(frame.body)}")
    raw = bytes([frame.type, frame.seq]) + frame.body
    raw += crc16(raw).to_bytes(2, "big")
    return b"\x00" + cobs.encode(raw) + b"\x00"


@dataclass
class DecoderStats:
    frames: int = 0
    crc_errors: int = 0
    framing_errors: int = 0
    too_long: int = 0


@dataclass
class FrameDecoder:
    """Turns a byte stream into frames and errors, counting both."""

    stats: DecoderStats = field(default_factory=DecoderStats)
    _buffer: bytearray = field(default_factory=bytearray)
    _overflow: bool = False

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        events: list[Frame | FrameError] = []
        for byte in data:
            if byte != DELIMITER:
                if len(self._buffer) < MAX_ENCODED:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            event = self._finish()
            if event is not None:
                events.append(event)
        return events

    def _finish(self) -> Frame | FrameError | None:
        encoded, overflow = bytes(self._buffer), self._overflow
        self._buffer.clear()
        self._overflow = False
        if overflow:
            self.stats.too_long += 1
            return FrameError.TOO_LONG
        if not encoded:
            return None
        try:
            raw = cobs.decode(encoded)
        except cobs.CobsError:
            raw = b""
        if len(raw) < 4:
            self.stats.framing_errors += 1
            return FrameError.FRAMING
        if crc16(raw[:-2]) != int.from_bytes(raw[-2:], "big"):
            self.stats.crc_errors += 1
            return FrameError.CRC
        self.stats.frames += 1
        return Frame(raw[0], raw[1], raw[2:-2])
