"""``atelier score FILE``: score a position file of any game."""

from __future__ import annotations

from companion.cli.position_command import PositionCommand
from companion.positions import evaluate_document

HELP = """\
Score a position file (see the position format in the docs) and print the score as JSON.

example:
  atelier score --explain companion/content/examples/colorfield-rulebook.json
"""

COMMAND = PositionCommand(
    "score", "score a position file", HELP, "the breakdown", evaluate_document, metavar="FILE"
)
register = COMMAND.register
