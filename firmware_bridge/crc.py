"""CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection): the frame check."""

from __future__ import annotations

import binascii


def crc16(data: bytes) -> int:
    """The CRC of ``data``; ``crc16(b"123456789") == 0x29B1``.

    The standard library's CRC-CCITT is this very CRC when started from 0xFFFF.
    """
    return binascii.crc_hqx(data, 0xFFFF)
