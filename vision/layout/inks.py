"""The sRGB colours Atelier prints, by name. Readers classify against what was printed, and the
calibration card carries a patch of each so a camera's view of them can be measured."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

RGB = tuple[int, int, int]


def _hex(code: str) -> RGB:
    return (int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16))


INKS: Mapping[str, RGB] = MappingProxyType(
    {
        # Color Field paint.
        "lemon": _hex("#F4D03F"),
        "coral": _hex("#EE7457"),
        "navy": _hex("#1F2D6B"),
        "turquoise": _hex("#27B1A6"),
        # Isle of Colors pencils, as a filled cell looks.
        "green": _hex("#4C9A3B"),
        "blue": _hex("#3B6FC6"),
        "brown": _hex("#8B5A31"),
        "red": _hex("#C9352D"),
        # Pigment Lab chips.
        "Fe2O3": _hex("#A63129"),
        "FeO(OH)": _hex("#E6B52B"),
        "ultramarine": _hex("#2C3B9C"),
        "TiO2": _hex("#F8F8F3"),
        "binder": _hex("#B8A487"),
        # Paintings icons.
        "hue": _hex("#C0357A"),
        "shape": _hex("#2F6FB5"),
        "texture": _hex("#4A8C36"),
        "tone": _hex("#7A5A2E"),
        # Boards and neutrals. The pan well is a dark slate so white and yellow chips stand out.
        "paper": _hex("#F4F2EC"),
        "frame": _hex("#D8D4CA"),
        "well": _hex("#46505A"),
        "ink": _hex("#222222"),
        # A grey ramp for the calibration card, finest in the highlights, where a camera's tone
        # curve bends most.
        "white": _hex("#FFFFFF"),
        "grey-95": _hex("#F2F2F2"),
        "grey-90": _hex("#E6E6E6"),
        "grey-85": _hex("#D9D9D9"),
        "grey-80": _hex("#CCCCCC"),
        "grey-75": _hex("#BFBFBF"),
        "grey-65": _hex("#A6A6A6"),
        "grey-60": _hex("#999999"),
        "grey-50": _hex("#808080"),
        "grey-40": _hex("#666666"),
        "grey-20": _hex("#333333"),
        "black": _hex("#000000"),
    }
)


def ink(name: str) -> RGB:
    return INKS[name]
