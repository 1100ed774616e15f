"""Errors a user can cause and fix: each carries one line that says what is wrong and where."""

from __future__ import annotations


class AtelierError(Exception):
    """A mistake in what the user gave us (a file, an argument): reported in one line, exit 2."""


class FieldError(AtelierError):
    """A JSON document has a bad value at ``field`` (a path such as ``spaces[3].edges[1]``)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class SourceError(AtelierError):
    """An error tied to a file (or standard input): the line names the source first."""

    def __init__(self, source: str, error: Exception | str) -> None:
        self.source = source
        self.detail = str(error)
        super().__init__(f"{source}: {self.detail}")


class IllegalActionError(AtelierError):
    """A game action that breaks a rule; ``rule`` names the rule, the message says how."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{message} (rule: {rule})")
