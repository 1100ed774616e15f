"""``atelier print``: complete, consistent with the catalogue, markers where the manifest says,
PDFs that parse, and a folder written completely or not at all."""

from __future__ import annotations

import json
import re
import struct
import zlib
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli import assert_user_error, atelier_main
from vision.draw import draw_layout
from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
from vision.images import read_image
from vision.layout.catalogue import GAMES, layouts
from vision.printing.packing import SheetPlan, pack
from vision.printing.paper import A4, GAP_MM, LETTER, MARGIN_MM, PAPERS, PPM

DETECTOR = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))
POINTS = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}


def printed(folder: Path, game: str) -> tuple[Path, dict[str, Any], str]:
    out = folder / game
    run = atelier_main("print", game, "-o", out)
    assert run.status == 0, run.stderr
    return out, json.loads(run.stdout), run.stderr


@pytest.fixture(scope="module")
def calibration(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    return printed(tmp_path_factory.mktemp("print"), "calibration")


@pytest.fixture(scope="module")
def isle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    return printed(tmp_path_factory.mktemp("print"), "isle")


def manifest(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "manifest.json").read_text())
    return data


def written(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


# The summary and the files


def test_calibration_prints_one_card_on_one_sheet_per_paper(calibration: Any) -> None:
    folder, summary, stderr = calibration
    assert summary["components"] == 1
    assert summary["sheets"] == {"a4": 1, "letter": 1}
    assert summary["folder"] == str(folder)
    assert sorted(summary["files"]) == written(folder)
    assert written(folder) == [
        "calibration-a4.pdf",
        "calibration-letter.pdf",
        "components/calibration_reference_1.png",
        "manifest.json",
        "sheets/calibration-a4-01.png",
        "sheets/calibration-letter-01.png",
    ]
    # Not a terminal: no progress, only the paths written.
    assert "\r" not in stderr and "\x1b" not in stderr
    assert f"wrote {folder / 'calibration-a4.pdf'}" in stderr
    assert f"wrote {folder / 'manifest.json'}" in stderr


def test_the_output_folder_has_ordinary_permissions(calibration: Any) -> None:
    folder, _, _ = calibration
    assert folder.stat().st_mode & 0o755 == 0o755
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")]


def test_manifest_lists_every_isle_sheet_as_the_catalogue_lays_it_out(isle: Any) -> None:
    folder, summary, _ = isle
    data = manifest(folder)
    assert data["games"] == ["isle"]
    assert data["dictionary"] == "DICT_APRILTAG_36H11" == ATELIER_DICTIONARY
    assert data["dpi"] == 300
    catalogue = layouts("isle")
    assert [c["id"] for c in data["components"]] == [lay.key for lay in catalogue]
    assert summary["components"] == 4
    for seat, (entry, layout) in enumerate(zip(data["components"], catalogue, strict=True), 1):
        placements = entry.pop("placements")
        assert entry == {
            **json.loads(json.dumps(layout.to_json())),
            "dictionary": "DICT_APRILTAG_36H11",
            "png": f"components/isle_sheet_{seat}.png",
            "size_px": [3154, 2339],  # 267 x 198 mm at 300 dpi
        }
        assert entry["size_mm"] == [267.0, 198.0]
        assert [m["id"] for m in entry["markers"]] == [80 + 4 * (seat - 1) + k for k in range(4)]
        assert entry["content"]["island"] == "default"
        assert [p["paper"] for p in placements] == ["a4", "letter"]
        for placement in placements:
            sheet = next(s for s in data["sheets"] if s["file"] == placement["sheet"])
            assert sheet["components"] == [layout.key]
            assert sheet["page"] == placement["page"]


def test_isle_sheets_go_one_per_landscape_page(isle: Any) -> None:
    folder, summary, _ = isle
    data = manifest(folder)
    assert summary["sheets"] == {"a4": 4, "letter": 4}
    a4 = [s for s in data["sheets"] if s["paper"] == "a4"]
    assert [s["file"] for s in a4] == [f"sheets/isle-a4-0{n}.png" for n in range(1, 5)]
    assert {s["orientation"] for s in data["sheets"]} == {"landscape"}
    assert {tuple(s["size_px"]) for s in a4} == {(3508, 2480)}
    letter = [s for s in data["sheets"] if s["paper"] == "letter"]
    assert {tuple(s["size_px"]) for s in letter} == {(3300, 2550)}
    for sheet in data["sheets"]:
        image = read_image(folder / sheet["file"])
        assert image.shape == (sheet["size_px"][1], sheet["size_px"][0], 3)


def png_dpi(path: Path) -> tuple[int, int, int]:
    data = path.read_bytes()
    at = data.index(b"pHYs")
    assert data.count(b"pHYs") == 1 and at < data.index(b"IDAT")
    x, y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    return x, y, unit


def test_component_pngs_are_the_drawn_components_at_300_dpi(calibration: Any, isle: Any) -> None:
    for folder, _, _ in (calibration, isle):
        for entry in manifest(folder)["components"]:
            layout = next(lay for game in GAMES for lay in layouts(game) if lay.key == entry["id"])
            image = read_image(folder / entry["png"])
            w, h = layout.size
            assert image.shape == (round(h * 300 / 25.4), round(w * 300 / 25.4), 3)
            assert np.array_equal(image, draw_layout(layout, PPM))
            assert png_dpi(folder / entry["png"]) == (11811, 11811, 1)  # pixels per metre


def test_markers_are_detected_on_the_sheets_where_the_manifest_puts_them(
    calibration: Any, isle: Any
) -> None:
    for folder, _, _ in (calibration, isle):
        data = manifest(folder)
        by_sheet: dict[str, dict[int, list[tuple[float, float]]]] = {}
        for entry in data["components"]:
            for placement in entry["placements"]:
                ox, oy = placement["origin_mm"]
                assert placement["origin_px"] == [round(ox * PPM), round(oy * PPM)]
                for marker in entry["markers"]:
                    x, y, w, h = marker["rect"]
                    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
                    by_sheet.setdefault(placement["sheet"], {})[marker["id"]] = [
                        ((ox + cx) * PPM, (oy + cy) * PPM) for cx, cy in corners
                    ]
        assert set(by_sheet) == {s["file"] for s in data["sheets"]}
        for sheet, expected in by_sheet.items():
            found = {m.id: m.corners for m in DETECTOR.detect(read_image(folder / sheet))}
            assert set(found) == set(expected), sheet
            for marker_id, corners in expected.items():
                for (x, y), (u, v) in zip(corners, found[marker_id], strict=True):
                    assert abs(x - u) <= 1.5 and abs(y - v) <= 1.5, (sheet, marker_id)


def test_each_sheet_has_a_cut_line_just_outside_each_component(calibration: Any) -> None:
    folder, _, _ = calibration
    entry = manifest(folder)["components"][0]
    sheet = read_image(folder / "sheets/calibration-a4-01.png")
    x, y = entry["placements"][0]["origin_px"]
    w, h = entry["size_px"]
    grey = [0x66, 0x66, 0x66]
    assert sheet[y - 1, x + w // 2].tolist() == grey  # above the top edge
    assert sheet[y + h, x + w // 2].tolist() == grey  # below the bottom edge
    assert sheet[y + h // 2, x - 2].tolist() == grey
    assert sheet[y + h // 2, x - 3].tolist() == [255, 255, 255]
    # The footer, in the free paper under the card.
    footer = sheet[y + h + 10 :, :]
    assert (footer < 128).any()


# The PDF


def pdf_objects(data: bytes) -> tuple[dict[int, tuple[str, bytes | None]], dict[str, str]]:
    """Every object of a PDF found through its xref table: (dictionary text, stream)."""
    assert data.startswith(b"%PDF-1.4\n")
    end = re.search(rb"startxref\n(\d+)\n%%EOF\n$", data)
    assert end is not None
    start = int(end.group(1))
    head = re.match(rb"xref\n0 (\d+)\n", data[start:])
    assert head is not None
    size = int(head.group(1))
    table = start + head.end()
    objects: dict[int, tuple[str, bytes | None]] = {}
    for number in range(size):
        entry = data[table + 20 * number : table + 20 * (number + 1)]
        assert len(entry) == 20 and entry[-2:] == b" \n", entry
        if number == 0:
            assert entry == b"0000000000 65535 f \n"
            continue
        assert entry[10:] == b" 00000 n \n"
        offset = int(entry[:10])
        opening = f"{number} 0 obj\n".encode()
        assert data[offset : offset + len(opening)] == opening, number
        body = offset + len(opening)
        if (at := data.find(b"\nstream\n", body)) != -1 and at < data.find(b"endobj", body):
            text = data[body:at].decode()
            length = int(re.search(r"/Length (\d+)", text).group(1))  # type: ignore[union-attr]
            stream = data[at + 8 : at + 8 + length]
            assert data[at + 8 + length :].startswith(b"\nendstream\nendobj\n")
            objects[number] = (text, stream)
        else:
            stop = data.index(b"\nendobj\n", body)
            objects[number] = (data[body:stop].decode(), None)
    trailer = data[table + 20 * size : start + len(data)].decode("latin-1")
    assert trailer.startswith("trailer\n")
    root = re.search(r"/Root (\d+) 0 R", trailer)
    assert f"/Size {size} " in trailer and root is not None
    return objects, {"root": root.group(1)}


def ref(text: str, key: str) -> int:
    found = re.search(rf"/{key} (\d+) 0 R", text)
    assert found is not None, (key, text)
    return int(found.group(1))


def test_pdfs_are_valid_with_one_full_page_image_per_sheet(calibration: Any, isle: Any) -> None:
    for folder, summary, _ in (calibration, isle):
        data = manifest(folder)
        game = data["games"][0]
        for paper in PAPERS:
            sheets = [s for s in data["sheets"] if s["paper"] == paper.key]
            objects, trailer = pdf_objects((folder / f"{game}-{paper.key}.pdf").read_bytes())
            catalog, _ = objects[int(trailer["root"])]
            assert "/Type /Catalog" in catalog
            pages, _ = objects[ref(catalog, "Pages")]
            kids = [int(k) for k in re.findall(r"(\d+) 0 R", pages.split("/Kids")[1])]
            assert f"/Count {len(sheets)}" in pages and len(kids) == len(sheets)
            assert len(sheets) == summary["sheets"][paper.key]
            for kid, sheet in zip(kids, sheets, strict=True):
                page, _ = objects[kid]
                assert "/Type /Page " in page
                box = re.search(r"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", page)
                assert box is not None
                portrait = POINTS[paper.key]
                landscape = sheet["orientation"] == "landscape"
                expected = portrait[::-1] if landscape else portrait
                assert (float(box.group(1)), float(box.group(2))) == pytest.approx(
                    expected, abs=0.01
                )
                content = objects[ref(page, "Contents")][1]
                assert content == f"q {box.group(1)} 0 0 {box.group(2)} 0 0 cm /Im0 Do Q".encode()
                header, stream = objects[ref(page, "Im0")]
                assert "/Subtype /Image" in header and "/ColorSpace /DeviceRGB" in header
                assert "/Filter /FlateDecode" in header and stream is not None
                w, h = sheet["size_px"]
                assert f"/Width {w} " in header and f"/Height {h} " in header
                predictor = (
                    f"/DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns {w} >>"
                )
                assert predictor in header
                pixels = unfiltered(zlib.decompress(stream), w, h)
                png = read_image(folder / sheet["file"])
                assert np.array_equal(pixels[:, :, ::-1], png)


def unfiltered(rows: bytes, w: int, h: int) -> np.ndarray:
    """RGB pixels from rows as PNG filters them (PDF's /Predictor 15: a filter byte per row),
    for the filters the printer's encoder uses: none (0) and up (2, the row above added)."""
    table = np.frombuffer(rows, np.uint8).reshape(h, 1 + 3 * w)
    kinds, data = table[:, 0], table[:, 1:].astype(np.int64)
    assert set(np.unique(kinds).tolist()) <= {0, 2}
    pixels = np.empty_like(data)
    above = np.zeros(3 * w, np.int64)
    for row in range(h):
        above = (data[row] + (above if kinds[row] == 2 else 0)) % 256
        pixels[row] = above
    return pixels.astype(np.uint8).reshape(h, w, 3)


def test_paper_sizes_in_points_are_exact() -> None:
    assert A4.size == (210.0, 297.0) and LETTER.size == (215.9, 279.4)
    for paper in PAPERS:
        points = tuple(v * 72 / 25.4 for v in paper.size)
        assert points == pytest.approx(POINTS[paper.key], abs=0.001)


# Packing


def check_plans(plans: tuple[SheetPlan, ...], sizes: list[tuple[float, float]]) -> None:
    placed = sorted(p.item for plan in plans for p in plan.placements)
    assert placed == list(range(len(sizes)))
    for plan in plans:
        width, height = plan.size
        boxes = [(p.x, p.y, *sizes[p.item]) for p in plan.placements]
        for x, y, w, h in boxes:
            assert x >= MARGIN_MM - 1e-9 and y >= MARGIN_MM - 1e-9
            assert x + w <= width - MARGIN_MM + 1e-9 and y + h <= height - MARGIN_MM + 1e-9
        for (x, y, w, h), (u, v, s, t) in combinations(boxes, 2):
            apart = max(u - (x + w), x - (u + s), v - (y + h), y - (v + t))
            assert apart >= GAP_MM - 1e-9


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.key)
def test_packing_places_every_component_once_without_overlap(game: str, paper: Any) -> None:
    sizes = [lay.size for lay in layouts(game)]
    check_plans(pack(sizes, paper.size, MARGIN_MM, GAP_MM), sizes)


def test_paintings_fill_a4_with_a_mat_and_four_cards_per_landscape_sheet() -> None:
    # 285 x 198 mm usable: a 267 x 100 mat, and under it 94 mm: one row of four 63 mm cards
    # (4 x 63 + 3 x 4 = 264 mm). Fifteen mats carry the sixty cards; the Art Row goes alone.
    plans = pack([lay.size for lay in layouts("paintings")], A4.size, MARGIN_MM, GAP_MM)
    assert len(plans) == 16
    assert [len(p.placements) for p in plans] == [1] + [5] * 15
    assert {p.orientation for p in plans} == {"landscape"}


def test_tiles_go_24_to_a_portrait_a4_sheet() -> None:
    # 198 x 285 mm usable: 4 columns (4 x 40 + 3 x 4 = 172) by 6 rows (6 x 40 + 5 x 4 = 260).
    plans = pack([(40.0, 40.0)] * 50, A4.size, MARGIN_MM, GAP_MM)
    assert [len(p.placements) for p in plans] == [24, 24, 2]
    assert plans[0].orientation == "portrait"


def test_a_component_larger_than_the_paper_is_refused() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        pack([(300.0, 300.0)], A4.size, MARGIN_MM, GAP_MM)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(5.0, 267.0), st.floats(5.0, 198.0)).map(
            lambda s: (round(s[0], 1), round(s[1], 1))
        ),
        min_size=1,
        max_size=25,
    )
)
def test_any_components_that_fit_the_paper_are_packed_without_overlap(
    sizes: list[tuple[float, float]],
) -> None:
    check_plans(pack(sizes, A4.size, MARGIN_MM, GAP_MM), sizes)


# Bad input


def test_an_unknown_game_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    run = atelier_main("print", "chess", "-o", tmp_path / "out")
    assert_user_error(run, "unknown game 'chess'", "colorfield", "all")
    assert list(tmp_path.iterdir()) == []


def test_an_output_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "sheets.pdf"
    target.write_text("mine")
    assert_user_error(atelier_main("print", "calibration", "-o", target), "is a file")
    assert target.read_text() == "mine"


def test_a_folder_that_cannot_be_made_is_refused_without_leftovers(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    run = atelier_main("print", "calibration", "-o", blocker / "out")
    assert_user_error(run, str(blocker / "out"), "cannot write there")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_non_empty_folder_is_kept_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    assert_user_error(atelier_main("print", "calibration", "-o", target), "not empty", "--force")
    assert written(target) == ["notes.txt"]
    run = atelier_main("print", "calibration", "-o", target, "--force")
    assert run.status == 0, run.stderr
    assert "notes.txt" not in written(target)
    assert (target / "manifest.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_an_empty_folder_is_filled(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    assert atelier_main("print", "calibration", "-o", target).status == 0
    assert (target / "calibration-letter.pdf").is_file()


def test_missing_output_is_a_usage_error(tmp_path: Path) -> None:
    run = atelier_main("print", "isle")
    assert run.status == 2 and "-o" in run.stderr


# Every game


@pytest.mark.slow
def test_all_prints_every_component_of_every_game_with_unique_markers(tmp_path: Path) -> None:
    folder, summary, _ = printed(tmp_path, "all")
    data = manifest(folder)
    keys = [lay.key for game in GAMES for lay in layouts(game)]
    assert [c["id"] for c in data["components"]] == keys
    assert summary["components"] == len(keys) == 250
    ids = [m["id"] for c in data["components"] for m in c["markers"]]
    assert len(ids) == len(set(ids))
    assert {c["dictionary"] for c in data["components"]} == {"DICT_APRILTAG_36H11"}
    for entry in data["components"]:
        assert [p["paper"] for p in entry["placements"]] == ["a4", "letter"]
        assert (folder / entry["png"]).is_file()
    for game in GAMES:
        for paper in ("a4", "letter"):
            assert (folder / f"{game}-{paper}.pdf").is_file()
    assert len(data["sheets"]) == summary["sheets"]["a4"] + summary["sheets"]["letter"]
    assert summary["sheets"] == {"a4": 37, "letter": 38}
    assert sorted(summary["files"]) == written(folder)
    # One sheet of tiles: 24 tile markers, each where the manifest says.
    sheet = "sheets/colorfield-a4-05.png"
    expected = {
        m["id"]: (p["origin_px"][0] + m["rect"][0] * PPM, p["origin_px"][1] + m["rect"][1] * PPM)
        for c in data["components"]
        for p in c["placements"]
        if p["sheet"] == sheet
        for m in c["markers"]
    }
    found = {m.id: m.corners[0] for m in DETECTOR.detect(read_image(folder / sheet))}
    assert len(expected) == 24 and set(found) == set(expected)
    for marker_id, (x, y) in expected.items():
        assert found[marker_id] == pytest.approx((x, y), abs=1.5)
