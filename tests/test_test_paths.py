"""The tests use no file outside the checkout, its ``.venv`` and pytest's temporary folders.

A path that exists only on the machine a test was written on passes there and fails on every
fresh clone, so every string in the test suite is checked for an absolute path into the
machine's own folders. Programs are found on the PATH (``shutil.which``) or next to the running
interpreter (``sys.executable``); files are made under ``tmp_path`` or found relative to the
test file.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).parent

# The top folders of a Unix machine (and of the one running the tests), where nothing of ours
# lives: a string beginning with one of them names a file on some particular machine.
MACHINE_ROOTS = frozenset(
    {
        "bin", "boot", "etc", "home", "lib", "lib32", "lib64", "media", "mnt", "nix", "opt",
        "private", "proc", "root", "run", "sbin", "snap", "srv", "sys", "tmp", "Users", "usr",
        "var", "Volumes", "work",
    }
    | {entry.name for entry in Path("/").iterdir() if entry.name != "dev"}
)  # fmt: skip
# Serial port names (``/dev/ttyUSB0``) are the product's data, and the pseudo-terminals the LED
# tests open are made by the tests themselves.
ALLOWED_PREFIXES = ("/dev/",)
ABSOLUTE = re.compile(r"(?:^|[\s'\"=:(])(~/|/[^/\s'\"]+)")


def strings_in(source: str) -> Iterator[tuple[int, str]]:
    """Every string literal in a module, f-strings' literal parts included, with its line."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def machine_paths(text: str) -> list[str]:
    """The absolute paths into a machine's own folders that ``text`` names."""
    found = []
    for match in ABSOLUTE.finditer(text):
        head = match.group(1)
        if text[match.start(1) :].startswith(ALLOWED_PREFIXES):
            continue
        if head == "~/" or head[1:] in MACHINE_ROOTS:
            found.append(text[match.start(1) :].split()[0])
    return found


def test_no_test_names_a_path_outside_the_checkout() -> None:
    offences = [
        f"{path.relative_to(TESTS.parent)}:{line}: {found}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__)
        for line, text in strings_in(path.read_text(encoding="utf-8"))
        for found in machine_paths(text)
    ]
    assert offences == []


def test_the_check_finds_machine_paths_and_lets_the_rest_be() -> None:
    assert machine_paths("/tmp/venv/bin/atelier") == ["/tmp/venv/bin/atelier"]
    assert machine_paths("/usr/bin/chromium") == ["/usr/bin/chromium"]
    assert machine_paths("~/photos/table.png") == ["~/photos/table.png"]
    assert machine_paths("--config=/home/me/profile.json") == ["/home/me/profile.json"]
    assert machine_paths("cat /etc/hosts") == ["/etc/hosts"]
    # Routes of the web app, serial port names and relative paths are not files on a machine.
    assert machine_paths("/api/tables/1/events") == []
    assert machine_paths("/static/table.js") == []
    assert machine_paths("/dev/ttyUSB0") == []
    assert machine_paths("companion/content/examples/isle.json") == []
    assert machine_paths("3/4 of the board") == []


def test_this_file_would_be_caught_if_it_named_one() -> None:
    source = 'ATELIER = "/tmp/venv/bin/atelier"\nURL = f"/api/{1}"\n'
    assert [found for _, text in strings_in(source) for found in machine_paths(text)] == [
        "/tmp/venv/bin/atelier"
    ]
