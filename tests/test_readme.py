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


def main_command() -> str:
    """The README's first command: the one that installs Atelier and runs it."""
    return next(
        line for line in (ROOT / "README.md").read_text().splitlines() if "pip install" in line
    )


def test_the_readme_main_command_installs_and_runs_the_live_demo() -> None:
    line = main_command()
    assert line.startswith("python3 -m venv .venv && .venv/bin/pip install -q -e . && ")
    assert line.endswith(" && .venv/bin/atelier serve --demo")


def test_the_readme_score_command_names_a_bundled_example() -> None:
    line = next(
        line for line in (ROOT / "README.md").read_text().splitlines() if "atelier score" in line
    )
    example = line.rsplit(" ", 1)[1]
    assert (ROOT / example).is_file()
