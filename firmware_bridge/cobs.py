"""Consistent Overhead Byte Stuffing: takes every 0x00 out so that 0x00 can end a frame."""

from __future__ import annotations


class CobsError(ValueError):
    """Bytes that no COBS encoder could have produced."""


def encode(data: bytes) -> bytes:
    out = bytearray([0])
    code_at = 0
    for index, byte in enumerate(data):
        if byte == 0:
            out[code_at] = len(out) - code_at
            code_at = len(out)
            out.append(0)
            continue
        out.append(byte)
        # A full block ends without an implied zero; the next one starts only if bytes remain.
        if len(out) - code_at == 0xFF and index + 1 < len(data):
            out[code_at] = 0xFF
            code_at = len(out)
            out.append(0)
    out[code_at] = len(out) - code_at
    return bytes(out)


def decode(data: bytes) -> bytes:
    out = bytearray()
    read = 0
    while read < len(data):
        code = data[read]
        read += 1
        if code == 0:
            raise CobsError("a zero byte inside a frame")
        block = data[read : read + code - 1]
        if len(block) != code - 1 or 0 in block:
            raise CobsError("a block runs past the end of the frame")
        out += block
        read += code - 1
        if code != 0xFF and read < len(data):
            out.append(0)
    return bytes(out)
