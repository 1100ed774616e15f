"""JSON text from outside (a file, standard input, a request's body) parsed within limits.

Python's parser recurses once per level of nesting, and gives up on whole numbers of more than
4,300 digits, each with an exception no caller expects. Every document a user or a client sends
is parsed here instead, and anything past the limits below is a one-line ``JsonError``.
"""

from __future__ import annotations

import json
import math
from typing import Any

# The deepest document Atelier reads is 6 levels (a Paintings position); 32 leaves room for any
# format to grow, and stays far below Python's recursion limit (1000).
MAX_DEPTH = 32
# Ids, seats and points are kept in SQLite, whose integers are 64-bit: no input needs more.
MAX_WHOLE = 2**63 - 1


class JsonError(ValueError):
    """The text is not JSON, or holds more than Atelier reads; the message is one line, naming
    the line and column or the field where it can."""


def parse_json(text: str) -> Any:
    """The value of ``text``, checked against ``MAX_DEPTH`` and ``MAX_WHOLE``; numbers are
    finite."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonError(
            f"line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    except RecursionError:
        raise JsonError(_too_deep()) from None
    except ValueError:
        # The only other refusal of json.loads: a whole number of more than 4,300 digits.
        raise JsonError(_too_large("")) from None
    _check(value)
    return value


def _check(root: Any) -> None:
    """Walk the parsed value without recursion; a path is built for containers only, and for
    the value refused."""
    pending: list[tuple[Any, str, int]] = [([root], "", 0)]
    while pending:
        container, path, depth = pending.pop()
        pairs = container.items() if type(container) is dict else enumerate(container)
        for key, child in pairs:
            # json.loads makes exactly these types: no subclasses (a bool is not an int here).
            kind = type(child)
            if kind is dict or kind is list:
                if depth == MAX_DEPTH:
                    raise JsonError(_too_deep())
                pending.append((child, _child(path, key, depth), depth + 1))
            elif kind is int and not -MAX_WHOLE <= child <= MAX_WHOLE:
                raise JsonError(_too_large(_child(path, key, depth)))
            elif kind is float and not math.isfinite(child):
                raise JsonError(_at(_child(path, key, depth), "expected a finite number"))


def _child(path: str, key: str | int, depth: int) -> str:
    """The path of a container's member; depth 0 is the list that holds the document."""
    if depth == 0:
        return ""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _at(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


def _too_deep() -> str:
    return f"nested more than {MAX_DEPTH} levels deep"


def _too_large(path: str) -> str:
    return _at(path, f"a whole number out of range (-{MAX_WHOLE}..{MAX_WHOLE})")
