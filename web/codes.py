"""A table's short code: six characters a person reads off the scoreboard and types at
``/join``, shown grouped (``K7Q-4MZ``) and read back in any case, with or without the dash.

The code is derived from the table's id with the server's secret key (HMAC-SHA256), never
stored: it stays the same across restarts with no change to the tables' database, and the id,
which every watcher's link shows, does not give it away. The alphabet leaves out the characters
people mix up (0 and O, 1, I and L). Six characters of 31 are about 30 bits: a code only lets a
phone watch or ask to play, which a player on a device already at the table must allow, and
guesses are rate-limited (``web.access.RateLimit``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6
EXAMPLE = "K7Q-4MZ"
_SEPARATORS = str.maketrans("", "", " -_.")


def normalise(text: str) -> str | None:
    """The code a person typed, upper case without separators, or None when it cannot be one."""
    code = text.translate(_SEPARATORS).upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def grouped(code: str) -> str:
    """The code as shown: two groups of three (``K7Q-4MZ``)."""
    half = LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


@dataclass(frozen=True)
class TableCodes:
    """The codes of one server's tables, derived from its secret key."""

    secret: bytes

    def code(self, table: str) -> str:
        digest = hmac.new(self.secret, b"table code:" + table.encode(), hashlib.sha256).digest()
        number = int.from_bytes(digest[:8], "big")
        letters = []
        for _ in range(LENGTH):
            number, index = divmod(number, len(ALPHABET))
            letters.append(ALPHABET[index])
        return "".join(letters)

    def find(self, code: str, tables: Iterable[str]) -> str | None:
        """The first of ``tables`` (newest first, as the store lists them) whose code is
        ``code``: two tables of a folder share one about once in 890 million pairs, and then the
        newer game is the one people are joining."""
        return next(
            (t for t in tables if hmac.compare_digest(self.code(t), code)),
            None,
        )
