"""The render-seed splits readers are judged on (train, validation, frozen test), and the seed
ranges already looked at, which no split may reuse.

Every seed below 14000 has been looked at: 5000-5499 and 8000-13999 were tuned on, 7000-7999
were measured after every change ("seen", no longer unseen), and the small seeds are the tests'
and the default bench runs'. The splits start far above them. The test split is run only to
report a figure, never to decide a change; if it ever decides one, draw a new range and say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class SeedRange:
    name: str
    first: int
    last: int  # inclusive, as the docs write ranges
    purpose: str

    def __post_init__(self) -> None:
        if self.last < self.first:
            raise ValueError(f"seed range {self.name}: {self.last} < {self.first}")

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def seeds(self, count: int) -> range:
        """The first ``count`` seeds of the range."""
        if not 1 <= count <= self.size:
            raise ValueError(f"{self.name} holds {self.size} seeds, not {count}")
        return range(self.first, self.first + count)

    def overlaps(self, other: SeedRange) -> bool:
        return self.first <= other.last and other.first <= self.last


TUNED = (
    SeedRange("tuning", 5000, 5499, "hard seeds the readers' rules were tuned on"),
    SeedRange("tuning, later", 8000, 13999, "Isle's and Pigment Lab's further tuning seeds"),
)
SEEN = SeedRange("seen", 7000, 7999, "once unseen; measured after every change, so seen")
# Tests and default runs start at 0; 6018 is named in the README: nothing below 14000 is fresh.
USED = SeedRange("used", 0, 13999, "every seed anyone has looked at")

SPLITS: Mapping[str, SeedRange] = MappingProxyType(
    {
        "train": SeedRange("train", 20000, 59999, "fitting model parameters"),
        "validation": SeedRange(
            "validation",
            60000,
            79999,
            "choosing features, calibrating confidence, setting the refusal threshold",
        ),
        "test": SeedRange("test", 100000, 101999, "frozen: run only to report a figure"),
    }
)
