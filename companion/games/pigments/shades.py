"""A shade catalogue: shades by name and by the colour they show (one shade per colour)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.games.pigments.colour import Colour, colour_of
from companion.games.pigments.model import Shade


@dataclass(frozen=True)
class ShadeCatalogue:
    shades: tuple[Shade, ...]
    by_name: Mapping[str, Shade] = field(init=False, compare=False)
    by_colour: Mapping[Colour, Shade] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        names: dict[str, Shade] = {}
        colours: dict[Colour, Shade] = {}
        for shade in self.shades:
            if shade.name in names:
                raise ValueError(f"two shades are named {shade.name!r}")
            colour = colour_of(shade.recipe)
            if colour in colours:
                other = colours[colour].name
                raise ValueError(f"shades {other!r} and {shade.name!r} show the same colour")
            names[shade.name] = shade
            colours[colour] = shade
        # Derived indexes of an immutable tuple: set once here, read-only afterwards.
        object.__setattr__(self, "by_name", MappingProxyType(names))
        object.__setattr__(self, "by_colour", MappingProxyType(colours))

    def named(self, colour: Colour) -> Shade | None:
        """The catalogue shade that shows ``colour``, if any."""
        return self.by_colour.get(colour)
