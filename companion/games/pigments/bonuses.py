"""Palette bonuses: the rule text leaves them blank, so they are data (none by default).

A bonus names a condition from ``CONDITIONS`` and its parameters; the condition is a small pure
function of a player's final tally.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.pigments.model import PanSize, Tally

Condition = Callable[[Tally, Mapping[str, int]], bool]


def _pressed_pans(tally: Tally, params: Mapping[str, int]) -> bool:
    """At least ``params[size]`` pans of each named size pressed."""
    pressed = Counter(tally.pressed)
    return all(pressed[PanSize(size)] >= count for size, count in params.items())


def _spill_at_most(tally: Tally, params: Mapping[str, int]) -> bool:
    """At most ``params["chips"]`` Spill Line chips over the whole game."""
    return sum(tally.spill_lines) <= params["chips"]


def _no_wrong_diagnosis(tally: Tally, params: Mapping[str, int]) -> bool:
    return tally.wrong_diagnoses == 0


CONDITIONS: Mapping[str, Condition] = MappingProxyType(
    {
        "pressed-pans": _pressed_pans,
        "spill-at-most": _spill_at_most,
        "no-wrong-diagnosis": _no_wrong_diagnosis,
    }
)
# The parameters each condition takes: (required, optional).
PARAMETERS: Mapping[str, tuple[frozenset[str], frozenset[str]]] = MappingProxyType(
    {
        "pressed-pans": (frozenset(), frozenset(size.value for size in PanSize)),
        "spill-at-most": (frozenset({"chips"}), frozenset()),
        "no-wrong-diagnosis": (frozenset(), frozenset()),
    }
)


@dataclass(frozen=True)
class PaletteBonus:
    id: str
    name: str
    points: int
    condition: str
    params: Mapping[str, int]
    text: str

    def __post_init__(self) -> None:
        if self.condition not in CONDITIONS:
            raise ValueError(f"unknown bonus condition {self.condition!r}")
        required, optional = PARAMETERS[self.condition]
        given = set(self.params)
        if not required <= given or not given <= required | optional:
            raise ValueError(f"bonus condition {self.condition!r} takes parameters {required}")

    def earned(self, tally: Tally) -> bool:
        return CONDITIONS[self.condition](tally, self.params)
