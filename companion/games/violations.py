"""A rule that a change between two scans of a board breaks, in the form every game reports it.

``components`` name what shows the violation as the scanner names a board's components
(``space 3``, ``painting 2 card top``, ``cell (4,7)``, ``medium-1 window 2``, ``shade large``),
so a page can point at them and a person can correct a misread one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Violation:
    """``rule`` is a stable machine name; ``message`` says in words what broke it."""

    rule: str
    components: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "components": list(self.components), "message": self.message}
