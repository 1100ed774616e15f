"""``atelier bench SUITE --help``: each suite tells its own options and output, and no other's."""

from __future__ import annotations

import pytest

from tests.cli import atelier

# Each suite's own options, and one that belongs to another suite only.
SUITES = {
    "rules": (["--seconds", "--seed"], "--boards"),
    "markers": (["--scenes", "--marker-mm"], "--seconds"),
    "vision": (
        ["--boards", "--difficulty", "--game", "--seed", "--lighting", "--split", "--perturb"],
        "--fps",
    ),
    "web": (["--viewers", "--scans", "--minutes"], "--lighting"),
    "led": (["--changes"], "--viewers"),
    "live": (["--minutes", "--turns", "--game", "--fps"], "--changes"),
}


@pytest.mark.parametrize("suite", SUITES)
def test_each_suite_has_help_of_its_own(suite: str) -> None:
    run = atelier("bench", suite, "--help")
    assert run.status == 0, run
    assert run.stdout.startswith(f"usage: atelier bench {suite} ")
    own, foreign = SUITES[suite]
    for option in own:
        assert option in run.stdout
    assert foreign not in run.stdout
    assert f"atelier bench {suite}" in run.stdout.split("examples:")[1]


def test_the_bench_help_lists_every_suite_and_a_suite_is_required() -> None:
    run = atelier("bench", "--help")
    assert run.status == 0
    listed = [line.split()[0] for line in run.stdout.splitlines() if line.startswith("    ")]
    assert listed == list(SUITES)
    missing = atelier("bench")
    assert missing.status == 2
    assert missing.stderr.strip().splitlines() == [
        "atelier bench: the following arguments are required: SUITE (see 'atelier bench --help')"
    ]


def test_an_option_of_another_suite_is_refused_in_one_line() -> None:
    run = atelier("bench", "rules", "--boards", "3")
    assert run.status == 2
    assert run.stderr.strip().splitlines() == [
        "atelier: unrecognized arguments: --boards 3 (see 'atelier --help')"
    ]
