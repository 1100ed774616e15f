"""Isle of Colors legality between a sheet at the start of a round and the same sheet after it.

Every player fills, each round, one connected group of exactly the rolled number of empty cells
with one colour they hold, or nothing when no such group fits (games.md section 3). Comparing a
sheet with itself one round earlier proves these rules broken:

- ``cell-erased``: a cell filled before is empty now (a pencil mark is never taken back);
- ``cell-recoloured``: a filled cell shows another colour;
- ``one-colour``: the new cells are of more than one colour;
- ``one-group``: the new cells do not make one connected group;
- ``roll-size``: the group is not as large as the roll (with no roll entered: larger than a die
  shows);
- ``room-left``: nothing was filled although a group of the roll's size fitted;
- ``colour-given-away``: the colour used was the one this player used the round before, which
  the swap gave away (with one or two players, as the rules are written for; with more, who
  receives what is not defined).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.isle.game import DIE_FACES
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, Sheet
from companion.games.isle.placements import can_fill, is_connected
from companion.games.isle.words import cells_words
from companion.games.violations import Violation
from companion.words import listed

SWAPPING_PLAYERS = 2  # the most players the colour swap is defined for


@dataclass(frozen=True)
class Round:
    """What the table knows of the round: the die (None until entered), the colour this player
    used the round before (None when unknown) and how many players swap colours."""

    roll: int | None = None
    previous_colour: Colour | None = None
    players: int = 2


@dataclass(frozen=True)
class Fill:
    """What changed between the two sheets: the cells filled, and those erased or recoloured."""

    filled: tuple[tuple[Cell, Colour], ...]
    erased: tuple[Cell, ...]
    recoloured: tuple[tuple[Cell, Colour, Colour], ...]  # cell, before, after

    @property
    def colour(self) -> Colour | None:
        """The one colour filled, or None for none or several."""
        colours = {colour for _, colour in self.filled}
        return colours.pop() if len(colours) == 1 else None


def fill_between(before: Sheet, after: Sheet) -> Fill:
    filled, erased, recoloured = [], [], []
    for cell in before.island.cells:
        was, now = before.at(cell), after.at(cell)
        if was is None and now is not None:
            filled.append((cell, now))
        elif was is not None and now is None:
            erased.append(cell)
        elif was is not None and now is not None and was is not now:
            recoloured.append((cell, was, now))
    return Fill(tuple(filled), tuple(erased), tuple(recoloured))


def check(before: Sheet, after: Sheet, round_: Round) -> tuple[Violation, ...]:
    """Every rule the round's change from ``before`` to ``after`` proves broken."""
    change = fill_between(before, after)
    found: list[Violation] = []
    if change.erased:
        found.append(
            Violation(
                "cell-erased",
                _names(change.erased),
                f"a filled cell stays filled, but {_cells(change.erased)} "
                f"{'is' if len(change.erased) == 1 else 'are'} empty now",
            )
        )
    if change.recoloured:
        found.append(
            Violation(
                "cell-recoloured",
                _names([cell for cell, _, _ in change.recoloured]),
                "a filled cell keeps its colour, but "
                + ", ".join(
                    f"{_cells([cell])} was {was}, now {now}" for cell, was, now in change.recoloured
                ),
            )
        )
    found.extend(_the_fill(before, change, round_))
    return tuple(found)


def _the_fill(before: Sheet, change: Fill, round_: Round) -> list[Violation]:
    island = before.island
    cells = [cell for cell, _ in change.filled]
    if not cells:
        if round_.roll is not None and can_fill(island, before.empty_mask, round_.roll):
            return [
                Violation(
                    "room-left",
                    (),
                    f"a player fills nothing only when no group of {round_.roll} empty cells "
                    f"fits, but one still fits on this sheet",
                )
            ]
        return []
    found: list[Violation] = []
    colours = sorted({colour for _, colour in change.filled})
    if len(colours) > 1:
        found.append(
            Violation(
                "one-colour",
                _names(cells),
                f"a round's group is of one colour, but the new cells are {listed(colours)}",
            )
        )
    if not is_connected(island, island.mask_of(cells)):
        found.append(
            Violation(
                "one-group",
                _names(cells),
                f"a round's cells make one connected group, but {_cells(cells)} do not",
            )
        )
    if round_.roll is not None and len(cells) != round_.roll:
        found.append(
            Violation(
                "roll-size",
                _names(cells),
                f"the roll is {round_.roll}, so the group has {round_.roll} "
                f"cell{'' if round_.roll == 1 else 's'}, but {len(cells)} were filled",
            )
        )
    elif round_.roll is None and len(cells) > DIE_FACES:
        found.append(
            Violation(
                "roll-size",
                _names(cells),
                f"a die shows at most {DIE_FACES}, but {len(cells)} cells were filled",
            )
        )
    used = change.colour
    if used is not None and used is round_.previous_colour and round_.players <= SWAPPING_PLAYERS:
        found.append(
            Violation(
                "colour-given-away",
                _names(cells),
                f"{used} was used the round before and went to "
                f"{'the reserve' if round_.players == 1 else 'the other player'} in the swap, "
                f"but it was used again",
            )
        )
    return found


def _names(cells: Sequence[Cell]) -> tuple[str, ...]:
    return tuple(f"cell ({cell.row},{cell.col})" for cell in sorted(cells))


def _cells(cells: Sequence[Cell]) -> str:
    return cells_words([(cell.row, cell.col) for cell in cells])
