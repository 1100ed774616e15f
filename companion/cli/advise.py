"""``atelier advise POSITION``: the best next move for the player of a position file."""

from __future__ import annotations

from companion.cli.position_command import PositionCommand
from companion.positions import advise_document

HELP = """\
Advise the player of a position file (see the position format in the docs) and print the
advice as JSON with its reasons: Color Field, where and how to place a tile ("tile"); Paintings,
which 3 hand cards to paint and in which order ("hand"); Isle of Colors, the colour and cells to
fill for the roll ("roll", "hand"); Pigment Lab, which draft to take and into which pan of a
palette board ("crates", "spill_tray", optionally "spill_line" and "shade_row").

example:
  atelier advise --explain companion/content/examples/paintings-hand.json
  atelier advise --explain companion/content/examples/pigments-advise.json
"""

COMMAND = PositionCommand(
    "advise", "advise the next move of a position's player", HELP, "the reasons", advise_document
)
register = COMMAND.register
