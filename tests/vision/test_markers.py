"""Fiducial detection on real photographs and on markers drawn at known places."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli import assert_user_error, atelier_main
from vision.fiducials import (
    ATELIER_DICTIONARY,
    MarkerDetector,
    predefined_dictionary,
    resolve_dictionary,
)
from vision.images import read_image

REAL = Path(__file__).parents[1] / "data/realdata"

EXPECTED = [
    ("singlemarkersoriginal.jpg", "6X6_250", [23, 40, 62, 98, 124, 203]),
    ("gboriginal.jpg", str(REAL / "tutorial_dict.yml"), list(range(35))),
    ("choriginal.jpg", "DICT_6X6_250", list(range(17))),
    ("chocclusion_original.jpg", "dict_6x6_250", [*range(11), 12, 15]),
]


@pytest.mark.parametrize(("photo", "dictionary", "ids"), EXPECTED)
def test_real_photos_give_exactly_the_expected_ids(
    photo: str, dictionary: str, ids: list[int]
) -> None:
    run = atelier_main("markers", REAL / photo, "--dict", dictionary)
    assert run.status == 0, run.stderr
    found = json.loads(run.stdout)
    assert [m["id"] for m in found] == ids
    for marker in found:
        assert len(marker["corners"]) == 4
        assert all(0 <= x < 640 and 0 <= y < 480 for x, y in marker["corners"])


def test_real_photo_corners_agree_with_opencvs_default_detector() -> None:
    image = read_image(REAL / "singlemarkersoriginal.jpg", grayscale=True)
    plain = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = plain.detectMarkers(image)
    reference = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    ours = MarkerDetector(predefined_dictionary("6X6_250")).detect(image)
    assert sorted(reference) == [m.id for m in ours]
    for marker in ours:
        assert np.abs(np.array(marker.corners) - reference[marker.id]).max() <= 1.0


def test_markers_drawn_at_known_places_are_found_there() -> None:
    dictionary = predefined_dictionary(ATELIER_DICTIONARY)
    canvas = np.full((600, 800), 255, np.uint8)
    placed = {5: (100, 120), 77: (400, 300), 586: (600, 80)}
    for marker_id, (x, y) in placed.items():
        canvas[y : y + 120, x : x + 120] = dictionary.draw(marker_id, 120)
    found = MarkerDetector(dictionary).detect(canvas)
    assert [m.id for m in found] == sorted(placed)
    for marker in found:
        x, y = placed[marker.id]
        # Corners clockwise from the marker's top-left, on the outer edge of its black border.
        expected = np.array([[x, y], [x + 120, y], [x + 120, y + 120], [x, y + 120]], float)
        assert np.abs(np.array(marker.corners) - expected).max() <= 1.5


def test_a_blank_image_has_no_markers(tmp_path: Path) -> None:
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((200, 300, 3), 128, np.uint8))
    run = atelier_main("markers", path)
    assert run.status == 0
    assert json.loads(run.stdout) == []


def test_every_predefined_dictionary_is_reachable_by_name() -> None:
    for name in ("4X4_50", "DICT_APRILTAG_16h5", "aruco_original", "ARUCO_MIP_36H12"):
        assert resolve_dictionary(name).size > 0


def test_bad_inputs(tmp_path: Path) -> None:
    assert_user_error(atelier_main("markers", tmp_path / "none.jpg"), "none.jpg: no such file")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    assert_user_error(atelier_main("markers", text), "notes.jpg: not an image")
    photo = REAL / "singlemarkersoriginal.jpg"
    assert_user_error(
        atelier_main("markers", photo, "--dict", "7X7_9"),
        "--dict: unknown marker dictionary '7X7_9'",
    )
    bad_yml = tmp_path / "bad.yml"
    bad_yml.write_text("%YAML:1.0\nfoo: 1\n")
    assert_user_error(atelier_main("markers", photo, "--dict", bad_yml), "bad.yml")
    assert_user_error(atelier_main("markers", photo, "--dict", tmp_path / "no.yml"), "no.yml")


@pytest.mark.slow
def test_marker_family_study_reports_every_candidate_and_a_choice() -> None:
    run = atelier_main("bench", "markers", "--scenes", "1")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    names = [f["dictionary"] for f in data["families"]]
    assert "DICT_APRILTAG_36H11" in names and "DICT_4X4_1000" in names
    for family in data["families"]:
        assert set(family["detected"]) == set(data["conditions"])
        # The easy condition (flat, sharp, 70 cm) is read perfectly by every family.
        assert family["detected"][data["conditions"][0]] == 1.0
    # The choice never falls on a family with too few ids or a wrong or phantom read.
    chosen = next(f for f in data["families"] if f["dictionary"] == data["chosen"])
    assert chosen["ids"] >= 340 and chosen["wrong_ids"] == 0 and chosen["false_positives"] == 0
    assert "chosen:" in run.stderr


def test_marker_study_rejects_silly_arguments() -> None:
    assert_user_error(
        atelier_main("bench", "markers", "--scenes", "0"), "--scenes: 0 is out of range"
    )
    assert_user_error(atelier_main("bench", "markers", "--marker-mm", "2"), "--marker-mm: 2.0")
