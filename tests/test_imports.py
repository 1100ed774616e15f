"""The import rules of the architecture (the "may import" column of its table of top-level
folders), checked on the sources: every import statement, those inside functions too, since a
lazy import couples packages as surely as one at the top.

- ``web/`` never imports ``vision``: it is handed a reader.
- ``companion/`` imports none of the other packages; its command line (``companion/cli/``), the
  composition root, alone wires them in.
- ``vision/`` imports neither the web nor the LED bridge.
- ``calibration/`` imports none of the others, save the colour conversions it shares with vision
  (``companion.colour``) and the bounded JSON parser every input goes through
  (``companion.json_input``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Rule:
    package: str
    forbidden: frozenset[str]  # top-level packages it may not import
    exempt: tuple[str, ...] = ()  # folders of the package the rule leaves out
    allowed: tuple[str, ...] = ()  # modules of a forbidden package it may import all the same


RULES = (
    Rule("web", frozenset({"vision"})),
    Rule(
        "companion",
        frozenset({"vision", "web", "firmware_bridge", "calibration"}),
        exempt=("companion/cli",),
    ),
    Rule("vision", frozenset({"web", "firmware_bridge"})),
    Rule(
        "calibration",
        frozenset({"vision", "web", "firmware_bridge", "companion"}),
        allowed=("companion.colour", "companion.json_input"),
    ),
)


def module_of(path: Path) -> str:
    """The dotted name of a source file under the checkout."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Each module (or name of a module) an import statement anywhere in ``source`` brings in,
    with its line; relative imports are resolved against ``module``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def breaks(rule: Rule, name: str) -> bool:
    if name.split(".")[0] not in rule.forbidden:
        return False
    return not any(name == a or name.startswith(f"{a}.") for a in rule.allowed)


def offences(rule: Rule) -> list[str]:
    found = []
    for path in sorted((ROOT / rule.package).rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if any(where.startswith(f"{folder}/") for folder in rule.exempt):
            continue
        source = path.read_text(encoding="utf-8")
        module = module_of(path)
        for line, name in imported(source, module, path.name == "__init__.py"):
            if breaks(rule, name):
                found.append(f"{where}:{line}: {name}")
    return found


@pytest.mark.parametrize("rule", RULES, ids=[rule.package for rule in RULES])
def test_each_package_imports_only_what_the_architecture_allows(rule: Rule) -> None:
    assert offences(rule) == []


def test_imports_inside_functions_and_relative_ones_are_seen() -> None:
    source = (
        "from __future__ import annotations\n"
        "import json\n"
        "def later() -> None:\n"
        "    import vision.scan.scanner\n"
        "    from vision import photos\n"
        "from ..table import session\n"
        "from . import colour\n"
    )
    found = sorted(imported(source, "companion.live.feed", is_package=False))
    assert found == [
        (1, "__future__.annotations"),
        (2, "json"),
        (4, "vision.scan.scanner"),
        (5, "vision.photos"),
        (6, "companion.table.session"),
        (7, "companion.live.colour"),
    ]
    web, calibration = RULES[0], RULES[3]
    assert [line for line, name in found if breaks(web, name)] == [4, 5]
    assert not breaks(calibration, "companion.colour.srgb_to_lab")
    assert breaks(calibration, "companion.table.session")
