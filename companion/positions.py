"""Position files: reading them from a file or stdin and dispatching on their ``"game"``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from companion.errors import FieldError, SourceError
from companion.fields import Field, read_json_file, read_json_text
from companion.games.registry import GameEntry, Report, games

STDIN = "-"


def read_position_source(name: str, stdin: TextIO) -> tuple[Any, str]:
    """The parsed JSON of a file (``-`` for standard input) and the name to use in errors."""
    if name == STDIN:
        source = "<stdin>"
        try:
            text = stdin.read()
        except UnicodeDecodeError:
            raise SourceError(source, "not UTF-8 text") from None
        if not text.strip():
            raise SourceError(source, "empty input, expected a position JSON document")
        return read_json_text(text, source), source
    return read_json_file(Path(name)), name


def evaluate_document(
    document: Any, source: str, deck: Path | None = None, *, face_down: bool = False
) -> Report:
    """Score one position document; any mistake in it is reported against ``source``.
    ``face_down``: as the players at a table see it, never naming a card's hidden side."""
    try:
        entry, root = _game_of(document)
        if face_down and entry.evaluate_face_down is not None:
            return entry.evaluate_face_down(root, deck)
        return entry.evaluate(root, deck)
    except FieldError as exc:
        raise SourceError(source, exc) from None


def advise_document(document: Any, source: str, deck: Path | None = None) -> Report:
    """Advise the player of one position document; a game without an advisor is refused."""
    try:
        entry, root = _game_of(document)
        if entry.advise is None:
            with_advice = ", ".join(name for name, e in games().items() if e.advise is not None)
            raise FieldError(
                "game", f"no advisor for {entry.title} yet (advice is given for: {with_advice})"
            )
        return entry.advise(root, deck)
    except FieldError as exc:
        raise SourceError(source, exc) from None


def _game_of(document: Any) -> tuple[GameEntry, Field]:
    """The game a document names, and the document as a Field to parse it from."""
    root = Field(document)
    if not isinstance(document, dict):
        raise root.error('expected a position object with a "game" key')
    if "game" not in document:
        raise FieldError("game", "missing (which game is this position for?)")
    known = games()
    name = Field(document["game"], "game").string()
    if name not in known:
        raise FieldError("game", f"unknown game {name!r} (known: {', '.join(known)})")
    return known[name], root
