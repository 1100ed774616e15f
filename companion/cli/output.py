"""What every command does the same way: check an option's range or game, print JSON for
programs."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from companion.errors import AtelierError


def check_range(value: float, lo: float, hi: float, option: str) -> None:
    """Refuse an option outside ``lo..hi`` with the one-line error every command gives."""
    if not lo <= value <= hi:
        raise AtelierError(f"{option}: {value} is out of range ({lo}..{hi})")


def check_games(
    names: Sequence[str] | None, known: Sequence[str], unknown: str = "unknown game"
) -> list[str]:
    """The games ``--game`` chose (``names``), in the order of ``known``, every one when none
    is named; one not in ``known`` is refused with the same one-line error (``unknown``: what
    the message calls such a game)."""
    for name in names or ():
        if name not in known:
            raise AtelierError(f"--game: {unknown} {name!r} (one of {', '.join(known)})")
    return [name for name in known if name in names] if names else list(known)


def emit_json(data: Any) -> int:
    """Print ``data`` as JSON on standard output; the command's exit status (0)."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
