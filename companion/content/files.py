"""What every content file shares: the ``format``/``game`` header, loading with errors that name
the file, the bundled default parsed once, and a user's own file layered over the default."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Generic, TypeVar

from companion.errors import FieldError, SourceError
from companion.fields import Field, read_json_file

FORMAT = 1
C = TypeVar("C")


def read_header(
    document: Any,
    game: str,
    what: str,
    required: Collection[str] = (),
    optional: Collection[str] = (),
) -> dict[str, Field]:
    """The members of a content document whose ``format`` and ``game`` have been checked.

    ``name`` is always allowed; ``what`` names the kind of file in errors ("a Paintings
    catalogue").
    """
    members = Field(document).members(
        required=("format", "game", *required), optional=("name", *optional)
    )
    if members["format"].integer() != FORMAT:
        raise members["format"].error(f"unsupported format (this version reads {FORMAT})")
    if members["game"].string() != game:
        raise members["game"].error(f"this is not {what}")
    return members


def content_name(members: dict[str, Field]) -> str:
    return members["name"].string() if "name" in members else "custom"


@dataclass(frozen=True)
class ContentFile(Generic[C]):
    """A content file format: its parser and the bundled default copy."""

    default_path: Path
    # Parses a document; sections it leaves out come from the fallback content, if any.
    parse: Callable[[Any, C | None], C]

    def load(self, path: Path, fallback: C | None = None) -> C:
        """Load a file; a mistake in it is a SourceError naming the file and the field."""
        try:
            return self.parse(read_json_file(path), fallback)
        except FieldError as exc:
            raise SourceError(str(path), exc) from None

    @cached_property
    def default(self) -> C:
        """The bundled content, parsed once: it is immutable, so sharing it is safe."""
        return self.load(self.default_path)

    def for_deck(self, deck: Path | None) -> C:
        """A user's file over the defaults when one is given, else the defaults."""
        return self.default if deck is None else self.load(deck, self.default)
