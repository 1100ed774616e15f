"""A board's score explained for people: short sections of short lines, each with its points,
whether it scored, and the components it is about (the names the board picture's marks carry),
built from the score's structured data, never from its text.

Pigment Lab boards are scored face down: a pan is judged against the face of its shade card (its
colour, its bands, lighter or darker), never its recipe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from companion.content import pigments
from companion.games.colorfield.words import tile_colours
from companion.games.pigments.colour import colour_of
from companion.games.pigments.faults import Cause
from companion.games.pigments.model import BOARD, PAN_NAMES
from companion.games.pigments.verdict_words import verdict_words
from companion.games.pigments.words import pan_label
from companion.table.community_tools import ToolPoints
from companion.table.penalties import SeatPenalties, diagnosis_points, spill_points
from companion.table.readings import PAINTING_PLACES
from companion.words import listed, plural

SIDE_WORDS = {"N": "top", "E": "right", "S": "bottom", "W": "left"}


@dataclass(frozen=True)
class Line:
    """One thing that scored or did not: ``points`` None when it earns no points of its own
    (a Paintings ribbon: its scoring card's track turns ribbons into points)."""

    text: str
    points: int | None
    good: bool
    marks: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "points": self.points,
            "good": self.good,
            "marks": list(self.marks),
        }


@dataclass(frozen=True)
class Section:
    title: str
    points: int | None
    lines: tuple[Line, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "points": self.points,
            "lines": [line.to_json() for line in self.lines],
        }


# ---- Color Field ----


def _tile(tile: dict[str, Any]) -> Line:
    # A tile is told by its colours as placed (top, right, bottom, left), never by its id.
    colours = tile_colours(side["color"] for side in tile["sides"])
    matched = sum(1 for side in tile["sides"] if side["matched"])
    if tile["perfect"]:
        how = f"all {matched} edges matched, perfect"
    elif matched:
        how = f"{plural(matched, 'edge')} matched"
    else:
        how = "no edge matched"
    text = f"Space {tile['space']} · {colours} tile: {how}"
    return Line(text, tile["points"], tile["points"] > 0, (f"space {tile['space']}",))


def _patch(patch: dict[str, Any]) -> Line:
    if patch["color"] is None:
        return Line("No patch: no two edges of one colour meet", 0, False)
    parts = [plural(len(patch["spaces"]), "tile")]
    if patch["segments"]:
        parts.append(plural(len(patch["segments"]), "border segment"))
    text = f"{patch['color'].capitalize()} patch of {patch['size']}: {listed(parts)}"
    if not patch["points"]:
        text += " (a patch scores from 3)"
    marks = tuple(f"space {space}" for space in patch["spaces"])
    return Line(text, patch["points"], patch["points"] > 0, marks)


def _colorfield(score: dict[str, Any], penalties: SeatPenalties | None) -> list[Section]:
    tiles = tuple(_tile(tile) for tile in score["tiles"])
    return [
        Section("Tiles", score["edge_points"], tiles),
        Section("Largest patch", score["patch"]["points"], (_patch(score["patch"]),)),
    ]


# ---- Paintings ----


def _cards(painting: int, icons: list[dict[str, Any]]) -> tuple[str, ...]:
    """The components (cards) of a painting that ``icons`` came from, bottom first."""
    cards = sorted({icon["card"] for icon in icons})
    return tuple(f"painting {painting} {PAINTING_PLACES[card]}" for card in cards)


def _card_words(icons: list[dict[str, Any]]) -> str:
    places = [PAINTING_PLACES[card].split()[1] for card in sorted({i["card"] for i in icons})]
    return f"{listed(places)} card{'s' if len(places) > 1 else ''}"


def _ribbon_lines(card: str, paintings: list[dict[str, Any]]) -> tuple[Line, ...]:
    lines = []
    for number, painting in enumerate(paintings, 1):
        explained = painting["explained"][card]
        if not explained["earned"]:
            lines.append(Line(f"Painting {number}: {explained['note']}", None, False))
        for ribbon in explained["earned"]:
            text = f"Painting {number}: {ribbon['reason']} ({_card_words(ribbon['icons'])})"
            lines.append(Line(text, None, True, _cards(number, ribbon["icons"])))
    return tuple(lines)


def _silver_lines(paintings: list[dict[str, Any]]) -> tuple[Line, ...]:
    lines = []
    for number, painting in enumerate(paintings, 1):
        for award in painting["silver_awards"]:
            bonus = award["bonus"]
            element = bonus["icon"].removeprefix("bonus-")
            text = (
                f"Painting {number}: {element} bonus in slot {bonus['slot']}"
                f" ({_card_words([bonus])}): {plural(award['ribbons'], 'ribbon')}"
            )
            marks = _cards(number, [bonus, *award["icons"]])
            lines.append(Line(text, None, award["ribbons"] > 0, marks))
    return tuple(lines)


def _paintings(score: dict[str, Any], penalties: SeatPenalties | None) -> list[Section]:
    sections = [
        Section(
            f"{card.capitalize()}: {plural(ribbons, 'ribbon')}",
            score["points"][card],
            _ribbon_lines(card, score["paintings"]),
        )
        for card, ribbons in score["ribbons"].items()
    ]
    silver = _silver_lines(score["paintings"])
    if silver:
        title = f"Silver: {plural(score['silver'], 'ribbon')}"
        sections.append(Section(title, score["points"]["silver"], silver))
    return sections


# ---- Isle of Colors ----


def _isle(score: dict[str, Any], penalties: SeatPenalties | None) -> list[Section]:
    sections = []
    for colour, scored in score["colors"].items():
        lines = tuple(
            Line(
                group["reason"][:1].upper() + group["reason"][1:],
                group["points"],
                True,
                tuple(f"cell ({row},{column})" for row, column in group["cells"]),
            )
            for group in scored["scored"]
        )
        if not lines:
            note = scored["note"]
            lines = (Line(f"Not met: {note}", 0, False),)
        title = f"{colour.capitalize()} · {scored['condition']}"
        sections.append(Section(title, scored["points"], lines))
    return sections


# ---- Pigment Lab ----


def verdict_word(pan: dict[str, Any]) -> str:
    """A pan's verdict in a word or two ("pressed", "too dark"), from the card's face alone."""
    verdict = pan["verdict"]
    if verdict != "nothing-happens":
        return verdict_words(verdict).label
    if pan["same_colour"]:
        return "another recipe"
    card = colour_of(pigments.default_content().shades[pan["shade"]["name"]].recipe)
    if [band.value for band in card.bands] != pan["bands"]:
        return "wrong colour"
    return "too light" if Fraction(pan["colour"]["tio2_share"]) > card.tio2 else "too dark"


def _verdict(pan: dict[str, Any], slots: int) -> str:
    """The verdict with why: what is missing, the fault, or what the pan makes instead."""
    word = verdict_word(pan)
    if pan["verdict"] == "not-full":
        return f"{word}, {len(pan['chips'])} of {slots} slots filled"
    if pan["verdict"] == "structural-fault":
        return f"{word}: {Cause(pan['fault']).words}"
    if pan["verdict"] == "no-shade":
        return f"full, {word} claimed"
    if pan["verdict"] == "nothing-happens":
        return f"{word}, makes {pan['colour']['shade'] or 'a colour on no card'}: nothing happens"
    return word


def _pan(name: str, pan: dict[str, Any]) -> Line:
    size = BOARD[PAN_NAMES.index(name)]
    label = pan_label(name).capitalize()
    if pan["shade"] is not None:
        label += f" · {pan['shade']['name']}"
    marks = [f"{name} window {i}" for i in range(1, size.windows + 1)]
    marks += [f"{name} binder {i}" for i in range(1, size.binder_slots + 1)]
    marks.append(f"shade {name}")
    text = f"{label}: {_verdict(pan, size.slots)}"
    return Line(text, pan["points"], bool(pan["pressed"]), tuple(marks))


def _entries(penalties: SeatPenalties) -> tuple[tuple[int, Line], ...]:
    """Each Spill Line and Fault diagnosis entered, with its round."""
    spills = tuple(
        (r, Line(f"Round {r} Spill Line: {plural(chips, 'chip')}", spill_points(chips), chips <= 1))
        for r, chips in penalties.spills
    )
    diagnoses = tuple(
        (
            r,
            Line(
                f"Round {r} Fault diagnosis: {'right' if right else 'wrong'}",
                diagnosis_points(right),
                right,
            ),
        )
        for r, right in penalties.diagnoses
    )
    return spills + diagnoses


def penalty_lines(penalties: SeatPenalties) -> tuple[Line, ...]:
    """A Pigment Lab seat's Spill Lines and Fault diagnoses, each with its points."""
    return tuple(line for _, line in _entries(penalties))


def scoreboard_lines(penalties: SeatPenalties, tools: Sequence[ToolPoints]) -> tuple[str, ...]:
    """What a seat scored beside its boards, round by round, each line with its points in words
    ("Round 1 Spill Line: 4 chips, -4 points"; a Community Tools card's "+6 points")."""
    cards = tuple(
        (t.round, Line(f"Round {t.round} {t.explanation}", t.points, t.points >= 0)) for t in tools
    )
    entries = sorted((*_entries(penalties), *cards), key=lambda entry: entry[0])
    return tuple(_with_points(line) for _, line in entries)


def _with_points(line: Line) -> str:
    points = line.points or 0
    return f"{line.text}, {plural(points, 'point', signed=points > 0)}"


def _pigments(score: dict[str, Any], penalties: SeatPenalties | None) -> list[Section]:
    pans = tuple(_pan(name, pan) for name, pan in zip(PAN_NAMES, score["pans"], strict=True))
    sections = [Section("Pans", score["total"], pans)]
    lines = () if penalties is None else penalty_lines(penalties)
    if lines:
        sections.append(Section("Penalties", sum(line.points or 0 for line in lines), lines))
    return sections


EXPLAINERS: Mapping[str, Callable[[dict[str, Any], SeatPenalties | None], list[Section]]] = (
    MappingProxyType(
        {"colorfield": _colorfield, "paintings": _paintings, "isle": _isle, "pigments": _pigments}
    )
)


def explanation_lines(
    game: str, score: dict[str, Any] | None, penalties: SeatPenalties | None = None
) -> tuple[Section, ...]:
    """The sections explaining a board's ``score`` (none for an unscored board), with a Pigment
    Lab seat's ``penalties`` (Spill Lines, diagnoses) after its pans."""
    return () if score is None else tuple(EXPLAINERS[game](score, penalties))
