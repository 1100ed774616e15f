"""``atelier bench SUITE --help``: each suite tells its own options and output, and no other's."""

from __future__ import annotations

import pytest

from companion.cli.bench.vision import chosen_families
from companion.errors import AtelierError
from tests.cli import assert_user_error, atelier_main

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
    "hub": (["--broker", "--tables", "--rate", "--minutes"], "--viewers"),
}


@pytest.mark.parametrize("suite", SUITES)
def test_each_suite_has_help_of_its_own(suite: str) -> None:
    run = atelier_main("bench", suite, "--help")
    assert run.status == 0, run
    assert run.stdout.startswith(f"usage: atelier bench {suite} ")
    own, foreign = SUITES[suite]
    for option in own:
        assert option in run.stdout
    assert foreign not in run.stdout
    assert f"atelier bench {suite}" in run.stdout.split("examples:")[1]


def test_the_bench_help_lists_every_suite_and_a_suite_is_required() -> None:
    run = atelier_main("bench", "--help")
    assert run.status == 0
    listed = [line.split()[0] for line in run.stdout.splitlines() if line.startswith("    ")]
    assert listed == list(SUITES)
    missing = atelier_main("bench")
    assert missing.status == 2
    assert missing.stderr.strip().splitlines() == [
        "atelier bench: the following arguments are required: SUITE (see 'atelier bench --help')"
    ]


def test_an_option_of_another_suite_is_refused_in_one_line() -> None:
    run = atelier_main("bench", "rules", "--boards", "3")
    assert run.status == 2
    assert run.stderr.strip().splitlines() == [
        "atelier: unrecognized arguments: --boards 3 (see 'atelier --help')"
    ]


def perturb(*names: str) -> list[str]:
    return [f.name for f in chosen_families(list(names))]


def test_perturb_takes_the_names_of_old_and_family_colon_strength() -> None:
    old = ("noise", "ev+1", "ev-1", "two-light", "cast", "motion", "focus", "jpeg")
    assert perturb(*old, "1280x720", "960x540") == [
        "noise:12", "ev:+1", "ev:-1", "two-light:0.2", "cast:0.15", "motion:6-8", "focus:1.5",
        "jpeg:50", "size:1280x720", "size:960x540",
    ]  # fmt: skip
    assert perturb("jpeg:25", "noise:6", "noise") == ["noise:6", "noise:12", "jpeg:25"]
    assert perturb("hand", "warm-light", "cool-light:6500K") == [
        "warm-light:2700K", "cool-light:6500K", "hand",
    ]  # fmt: skip
    assert perturb() == []


def test_perturb_all_is_every_family_at_its_default_and_family_all_every_strength() -> None:
    every = perturb("all")
    assert perturb("all", "noise", "hand") == every
    assert {"noise:12", "ev:+1", "ev:-1", "size:960x540", "hand"} <= set(every)
    assert "noise:6" not in every and "ev:+1.5" not in every
    assert perturb("noise:all") == ["noise:6", "noise:12", "noise:20"]
    assert perturb("ev:all") == ["ev:+0.5", "ev:+1", "ev:+1.5", "ev:-1", "ev:-2"]
    both = perturb("all", "motion:all")
    assert set(both) == {*every, "motion:12-14", "motion:18-20"}
    assert both.index("motion:6-8") + 2 == both.index("motion:18-20")  # the catalogue's order


@pytest.mark.parametrize("name", ["nonsense", "noise:13", "ev", "bogus:all", "noise:"])
def test_an_unknown_family_or_strength_is_refused(name: str) -> None:
    with pytest.raises(AtelierError, match=f"--perturb: unknown family '{name}'"):
        chosen_families([name])


def test_an_unknown_strength_is_refused_in_one_line_naming_the_option() -> None:
    assert_user_error(
        atelier_main("bench", "vision", "--perturb", "noise:13"),
        "--perturb", "'noise:13'", "FAMILY:all", "noise:12", "ev+1",
    )  # fmt: skip
