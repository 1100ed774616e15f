"""The Pigment Lab content: the chip mix, the shade catalogue, the Fault deck, palette bonuses.

The default is ``pigments.json`` beside this module; a user may load their own file of the same
format (``--deck FILE``). Sections a user file leaves out fall back to the defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from companion.content.files import ContentFile, content_name, read_header
from companion.errors import FieldError
from companion.fields import Field
from companion.games.pigments.bonuses import PaletteBonus
from companion.games.pigments.codec import parse_bonus, parse_fault_card, parse_inline_shade
from companion.games.pigments.colour import colour_of
from companion.games.pigments.faults import FaultCard
from companion.games.pigments.model import Chip, Shade
from companion.games.pigments.shades import ShadeCatalogue

DEFAULT_PATH = Path(__file__).with_name("pigments.json")
T = TypeVar("T")


@dataclass(frozen=True)
class PigmentsContent:
    name: str
    chips: Mapping[Chip, int]  # the supply: how many chips of each kind
    catalogue: ShadeCatalogue
    faults: tuple[FaultCard, ...]  # the Fault deck, one entry per card
    bonuses: tuple[PaletteBonus, ...]

    @property
    def shades(self) -> Mapping[str, Shade]:
        return self.catalogue.by_name


def _parse_chips(field: Field) -> Mapping[Chip, int]:
    members = field.members(required=tuple(chip.value for chip in Chip))
    chips = {chip: members[chip.value].integer(0, 1000) for chip in Chip}
    if sum(chips.values()) == 0:
        raise field.error("the supply needs at least one chip")
    return MappingProxyType(chips)


def _parse_shades(field: Field) -> ShadeCatalogue:
    """Shades with unique names, and unique colours: a colour names exactly one shade."""
    names: dict[str, Shade] = {}
    colours: dict[object, Shade] = {}
    for entry in field.array(min_len=1):
        shade = parse_inline_shade(entry)
        if shade.name in names:
            raise entry.error(f"duplicate shade name {shade.name!r}")
        colour = colour_of(shade.recipe)
        if colour in colours:
            raise entry.error(
                f"{shade.name!r} shows the same colour as {colours[colour].name!r} "
                f"({colour.describe()}): each colour has one shade"
            )
        names[shade.name] = shade
        colours[colour] = shade
    return ShadeCatalogue(tuple(names.values()))


def _parse_faults(field: Field) -> tuple[FaultCard, ...]:
    deck: list[FaultCard] = []
    for entry in field.array(min_len=1):
        card, count = parse_fault_card(entry)
        deck.extend([card] * count)
    return tuple(deck)


def _parse_bonuses(field: Field) -> tuple[PaletteBonus, ...]:
    seen: set[str] = set()
    bonuses = []
    for entry in field.array():
        bonus = parse_bonus(entry)
        if bonus.id in seen:
            raise entry.error(f"duplicate bonus id {bonus.id!r}")
        seen.add(bonus.id)
        bonuses.append(bonus)
    return tuple(bonuses)


def parse_content(document: Any, fallback: PigmentsContent | None = None) -> PigmentsContent:
    """Validate a content document; sections it omits come from ``fallback``."""
    sections = ("chips", "shades", "faults", "bonuses")
    members = read_header(document, "pigments", "a Pigment Lab content file", optional=sections)
    return PigmentsContent(
        name=content_name(members),
        chips=_section(members, "chips", _parse_chips, fallback.chips if fallback else None),
        catalogue=_section(
            members, "shades", _parse_shades, fallback.catalogue if fallback else None
        ),
        faults=_section(members, "faults", _parse_faults, fallback.faults if fallback else None),
        bonuses=_section(
            members, "bonuses", _parse_bonuses, fallback.bonuses if fallback else None
        ),
    )


def _section(
    members: dict[str, Field], name: str, parse: Callable[[Field], T], fallback: T | None
) -> T:
    """A section parsed from the document, or the fallback's when the document leaves it out."""
    if name in members:
        return parse(members[name])
    if fallback is None:
        raise FieldError(name, "missing")
    return fallback


FILE = ContentFile(DEFAULT_PATH, parse_content)


def default_content() -> PigmentsContent:
    return FILE.default


def content_for(deck: Path | None) -> PigmentsContent:
    """The user's content over the defaults when a file is given, else the defaults."""
    return FILE.for_deck(deck)
