"""The README's test command is the one CI runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_ci_runs_the_readme_test_command() -> None:
    readme_commands = [
        line for line in (ROOT / "README.md").read_text().splitlines() if "pytest" in line
    ]
    ci_lines = [line for line in (ROOT / ".ci/run").read_text().splitlines() if "pytest" in line]
    assert len(readme_commands) == 1
    assert ci_lines == readme_commands


def test_the_readme_main_command_names_a_bundled_example() -> None:
    line = next(
        line for line in (ROOT / "README.md").read_text().splitlines() if "atelier score" in line
    )
    example = line.rsplit(" ", 1)[1]
    assert (ROOT / example).is_file()
