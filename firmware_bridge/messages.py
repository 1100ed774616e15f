"""The messages of the display protocol: types, flags, reasons and their bodies.

Every request the host sends is idempotent, so sending it twice (a retry after a lost ACK) is
harmless and the device needs no duplicate filter.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass

PROTOCOL_VERSION = 1
MAX_DISPLAYS = 4
DIGITS = 8
TEXT_MAX = 16
BRIGHTNESS_MAX = 15
BRIGHTNESS_DEFAULT = 8
SCORE_MIN = -9_999_999
SCORE_MAX = 99_999_999
# A SCORES entry that leaves its display as it is, because that display shows text.
SCORE_KEEP = -0x80000000
FLAG_SYNCED = 0x01


class Msg(enum.IntEnum):
    HELLO_REQUEST = 0x01
    PING = 0x02
    STATS_REQUEST = 0x03
    SCORES = 0x10
    TEXT = 0x11
    BRIGHTNESS = 0x12
    MARKS = 0x13
    ACK = 0x80
    HELLO = 0x81
    NAK = 0x82
    STATS = 0x83


class Nak(enum.IntEnum):
    CRC = 1
    FRAMING = 2
    TOO_LONG = 3
    UNKNOWN_TYPE = 4
    BAD_BODY = 5

    @property
    def is_link_error(self) -> bool:
        """The frame was damaged on the way (send it again), not refused for what it says."""
        return self <= Nak.TOO_LONG


@dataclass(frozen=True)
class Request:
    """A message for the device, not yet given a sequence number."""

    type: Msg
    body: bytes = b""


@dataclass(frozen=True)
class Hello:
    synced: bool
    protocol: int
    firmware: tuple[int, int]
    device_id: int
    displays: int
    digits: int

    def to_json(self) -> dict[str, object]:
        return {
            "device_id": f"{self.device_id:08x}",
            "firmware": f"{self.firmware[0]}.{self.firmware[1]}",
            "protocol": self.protocol,
            "displays": self.displays,
            "digits": self.digits,
        }


@dataclass(frozen=True)
class DeviceStats:
    """The device's own link counters."""

    frames_ok: int
    crc_errors: int
    framing_errors: int
    rejected: int
    rx_overruns: int

    def to_json(self) -> dict[str, int]:
        return {
            "frames_ok": self.frames_ok,
            "crc_errors": self.crc_errors,
            "framing_errors": self.framing_errors,
            "rejected": self.rejected,
            "rx_overruns": self.rx_overruns,
        }


class BodyError(ValueError):
    """A reply whose body does not have the layout its type promises."""


def hello_request() -> Request:
    return Request(Msg.HELLO_REQUEST)


def ping() -> Request:
    return Request(Msg.PING)


def stats_request() -> Request:
    return Request(Msg.STATS_REQUEST)


def scores(values: tuple[int, ...]) -> Request:
    """Scores for the first displays (SCORE_KEEP leaves one as it is); the others go blank."""
    if len(values) > MAX_DISPLAYS:
        raise ValueError(f"at most {MAX_DISPLAYS} displays, not {len(values)}")
    return Request(Msg.SCORES, bytes([len(values)]) + struct.pack(f"<{len(values)}i", *values))


def text(display: int, characters: str) -> Request:
    encoded = characters.encode("ascii")
    if len(encoded) > TEXT_MAX:
        raise ValueError(f"at most {TEXT_MAX} characters, not {len(encoded)}")
    return Request(Msg.TEXT, bytes([display]) + encoded)


def brightness(level: int) -> Request:
    return Request(Msg.BRIGHTNESS, bytes([level]))


def marks(highlight: int, blink: int) -> Request:
    return Request(Msg.MARKS, bytes([highlight, blink]))


def parse_flags(body: bytes) -> bool:
    """Whether the device says it is synced (the first byte of ACK, HELLO and STATS)."""
    if not body:
        raise BodyError("no flags byte")
    return bool(body[0] & FLAG_SYNCED)


def parse_hello(body: bytes) -> Hello:
    if len(body) != 10:
        raise BodyError(f"HELLO has 10 bytes, not {len(body)}")
    flags, protocol, major, minor, device_id, displays, digits = struct.unpack("<BBBBIBB", body)
    return Hello(bool(flags & FLAG_SYNCED), protocol, (major, minor), device_id, displays, digits)


def parse_stats(body: bytes) -> DeviceStats:
    if len(body) != 11:
        raise BodyError(f"STATS has 11 bytes, not {len(body)}")
    return DeviceStats(*struct.unpack("<5H", body[1:]))


def parse_nak(body: bytes) -> Nak:
    if len(body) != 1:
        raise BodyError(f"NAK has 1 byte, not {len(body)}")
    try:
        return Nak(body[0])
    except ValueError:
        raise BodyError(f"unknown NAK reason {body[0]}") from None
