"""Typed, path-aware reading of JSON documents.

Every accessor checks the value's type and range and, on failure, raises a FieldError naming
the exact path (``spaces[3].edges[1]``), so every file format reports mistakes the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from companion.choices import known_choices
from companion.errors import FieldError, SourceError
from companion.json_input import JsonError, parse_json

E = TypeVar("E", bound=Enum)
T = TypeVar("T")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass(frozen=True)
class Field:
    """A value inside a JSON document together with its path from the document root."""

    value: Any
    path: str = ""

    def error(self, message: str) -> FieldError:
        return FieldError(self.path, message)

    def _child_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def is_null(self) -> bool:
        return self.value is None

    def members(
        self, required: Collection[str] = (), optional: Collection[str] = ()
    ) -> dict[str, Field]:
        """The members of an object; unknown keys are an error, since a typo must not pass."""
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, got {_kind(self.value)}")
        allowed = set(required) | set(optional)
        for key in self.value:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                raise FieldError(self._child_path(key), f"unknown key (expected one of: {known})")
        for key in required:
            if key not in self.value:
                raise FieldError(self._child_path(key), "missing")
        return {key: Field(val, self._child_path(key)) for key, val in self.value.items()}

    def child(self, key: str) -> Field:
        """A member of an object already checked by ``members``."""
        return Field(self.value[key], self._child_path(key))

    def items(self) -> Iterator[tuple[str, Field]]:
        """The members of an object whose keys are free (a mapping of names to values)."""
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, got {_kind(self.value)}")
        for key, val in self.value.items():
            yield key, Field(val, self._child_path(key))

    def array(
        self, length: int | None = None, min_len: int = 0, max_len: int | None = None
    ) -> list[Field]:
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, got {_kind(self.value)}")
        n = len(self.value)
        if length is not None and n != length:
            raise self.error(f"expected {length} entries, got {n}")
        if n < min_len:
            raise self.error(f"expected at least {min_len} entries, got {n}")
        if max_len is not None and n > max_len:
            raise self.error(f"expected at most {max_len} entries, got {n}")
        return [Field(val, self._child_path(i)) for i, val in enumerate(self.value)]

    def string(self, non_empty: bool = True) -> str:
        if not isinstance(self.value, str):
            raise self.error(f"expected a string, got {_kind(self.value)}")
        if non_empty and not self.value.strip():
            raise self.error("must not be empty")
        return self.value

    def integer(self, lo: int | None = None, hi: int | None = None) -> int:
        # bool is an int subclass in Python; true must not read as 1.
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self.error(f"expected a whole number, got {_kind(self.value)}")
        if (lo is not None and self.value < lo) or (hi is not None and self.value > hi):
            span = (
                f"{lo}..{hi}"
                if lo is not None and hi is not None
                else (f">= {lo}" if lo is not None else f"<= {hi}")
            )
            raise self.error(f"{self.value} is out of range ({span})")
        return self.value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"expected true or false, got {_kind(self.value)}")
        return self.value

    def enum(self, kind: type[E], what: str) -> E:
        """A string that must be one of ``kind``'s values (``what`` names it in errors)."""
        if not isinstance(self.value, str):
            raise self.error(f"expected a {what} name, got {_kind(self.value)}")
        try:
            return kind(self.value)
        except ValueError:
            names = [str(m.value) for m in kind]
            raise self.error(
                f"unknown {what} {self.value!r} ({known_choices(names, self.value)})"
            ) from None

    def lookup(self, table: Mapping[str, T], what: str) -> T:
        """A string naming an entry of ``table`` (a catalogue id)."""
        name = self.string()
        if name not in table:
            raise self.error(f"unknown {what} {name!r} ({known_choices(sorted(table), name)})")
        return table[name]

    def parse(self, parser: Callable[[Field], T]) -> T:
        return parser(self)


def read_json_text(text: str, source: str) -> Any:
    """Parse JSON text within the limits of ``companion.json_input``; a syntax error or a
    document past them is a one-line SourceError naming ``source``."""
    try:
        return parse_json(text)
    except JsonError as exc:
        raise SourceError(source, exc) from None


def read_json_file(path: Path) -> Any:
    """Read and parse a JSON file, every failure reported as a SourceError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SourceError(str(path), "no such file") from None
    except IsADirectoryError:
        raise SourceError(str(path), "is a directory, not a file") from None
    except PermissionError:
        raise SourceError(str(path), "permission denied") from None
    except UnicodeDecodeError:
        raise SourceError(str(path), "not UTF-8 text") from None
    except OSError as exc:
        raise SourceError(str(path), exc.strerror or str(exc)) from None
    return read_json_text(text, str(path))
