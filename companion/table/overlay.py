"""What to draw on a board's picture: for each component, the points it earned and the sides that
matched, taken from the score's own explanation (never computed again here).

Each mark is ``{"text", "good", "sides"}``: a short label in words ("+3 perfect", "2 ribbons",
"too dark"), whether it scored, and for a Color Field tile the sides (N, E, S, W) that matched,
drawn along the tile's edges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from companion.games.pigments.model import PAN_NAMES
from companion.table.explanations import verdict_word
from companion.table.readings import PAINTING_PLACES
from companion.words import plural

Marks = dict[str, dict[str, Any]]


def _colorfield(score: dict[str, Any]) -> Marks:
    marks: Marks = {}
    for tile in score["tiles"]:
        sides = [s["side"] for s in tile["sides"] if s["matched"]]
        text = f"+{tile['points']}" + (" perfect" if tile["perfect"] else "")
        marks[f"space {tile['space']}"] = {
            "text": text,
            "good": tile["points"] > 0,
            "sides": sides,
        }
    patch = score["patch"]
    for space in patch.get("spaces", []):
        marks.setdefault(f"space {space}", {"text": "", "good": False, "sides": []})
        marks[f"space {space}"]["patch"] = patch["color"]
    return marks


def _pigments(score: dict[str, Any]) -> Marks:
    return {
        f"shade {name}": {
            "text": verdict_word(pan) + (f" +{pan['points']}" if pan["points"] else ""),
            "good": bool(pan["pressed"]),
            "sides": [],
        }
        for name, pan in zip(PAN_NAMES, score["pans"], strict=True)
    }


def _isle(score: dict[str, Any]) -> Marks:
    marks: Marks = {}
    for colour in score["colors"].values():
        for group in colour["scored"]:
            for row, column in group["cells"]:
                marks[f"cell ({row},{column})"] = {"text": "", "good": True, "sides": []}
            row, column = group["cells"][0]
            marks[f"cell ({row},{column})"]["text"] = f"+{group['points']}"
    return marks


def _paintings(score: dict[str, Any]) -> Marks:
    marks: Marks = {}
    # The N-th painting is mat N: a board scores only with every mat up to the last in view and
    # three cards on each, listed bottom first (a gap or an unread card is a problem until fixed).
    for number, painting in enumerate(score["paintings"], 1):
        ribbons = sum(painting["ribbons"].values())
        marks[f"painting {number} {PAINTING_PLACES[-1]}"] = {
            "text": plural(ribbons, "ribbon")
            + (f", {painting['silver']} silver" if painting["silver"] else ""),
            "good": ribbons > 0,
            "sides": [],
        }
    return marks


MARKERS: Mapping[str, Callable[[dict[str, Any]], Marks]] = MappingProxyType(
    {"colorfield": _colorfield, "pigments": _pigments, "isle": _isle, "paintings": _paintings}
)


def marks(game: str, score: dict[str, Any] | None) -> Marks:
    """The marks of a scored board; an unscored board has none."""
    return {} if score is None else MARKERS[game](score)
