"""``atelier bench vision`` with a split and perturbation families: the JSON a report is built
from, and one-line refusals of options it does not know."""

from __future__ import annotations

import json

from tests.cli import assert_user_error, atelier_main
from vision.perturb import FAMILIES


def test_perturbed_boards_are_counted_per_family_with_intervals() -> None:
    run = atelier_main(
        "bench", "vision", "--boards", "1", "--difficulty", "easy", "--game", "colorfield",
        "--perturb", "noise", "--perturb", "jpeg",
    )  # fmt: skip
    assert run.status == 0, run.stderr
    results = json.loads(run.stdout)
    assert results["seeds"] == {"split": None, "first": 0, "last": 0}
    [row] = results["rows"]
    assert row["exact_interval"][0] <= row["exact_rate"] <= row["exact_interval"][1]
    rows = results["perturbations"]
    assert [(r["family"], r["difficulty"], r["game"]) for r in rows] == [
        ("noise", "easy", "colorfield"),
        ("jpeg", "easy", "colorfield"),
    ]
    for r in rows:
        assert r["boards"] == 1
        assert r["exact"] + r["refused"] + r["wrong"] == 1
        for outcome in ("exact", "refused", "wrong"):
            low, high = r[f"{outcome}_interval"]
            assert low <= r[f"{outcome}_rate"] == r[outcome] <= high
    assert isinstance(results["perturbed_not_exact"], list)
    table = run.stderr.split("family")[1]
    assert "noise" in table and "jpeg" in table and "[" in table


def test_the_help_names_every_family_and_the_new_examples() -> None:
    run = atelier_main("bench", "vision", "--help")
    for name in FAMILIES:
        assert name in run.stdout
    examples = run.stdout.split("examples:")[1]
    assert "--split test" in examples and "--perturb noise" in examples


def test_unknown_families_and_splits_are_refused_naming_the_known_ones() -> None:
    assert_user_error(
        atelier_main("bench", "vision", "--perturb", "nonsense"),
        "--perturb", "'nonsense'", "all", "noise", "960x540",
    )  # fmt: skip
    assert_user_error(
        atelier_main("bench", "vision", "--split", "nonsense"),
        "--split", "'nonsense'", "train", "validation", "test",
    )  # fmt: skip


def test_a_split_and_a_seed_are_not_given_together() -> None:
    assert_user_error(
        atelier_main("bench", "vision", "--split", "test", "--seed", "3"), "--split", "--seed"
    )


def test_a_split_holds_only_so_many_boards() -> None:
    assert_user_error(
        atelier_main("bench", "vision", "--split", "test", "--boards", "3000"), "--boards", "2000"
    )
