"""The shared areas: the Paintings Art Row and the Pigment Lab market, read as what lies where."""

from __future__ import annotations

import cv2
import numpy as np

from companion.observation import GameOptions, score_observation
from vision.draw import draw_layout
from vision.images import Image
from vision.layout.catalogue import layouts
from vision.layout.geometry import bounds
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.scan.scanner import Scanner

PPM = 2.5


def by_kind(game: str, kind: str) -> list[Layout]:
    return [lay for lay in layouts(game) if lay.kind == kind]


def paste(face: Image, piece: Layout, region_name: str, board: Layout) -> None:
    box = bounds(board.region(region_name).shape)
    drawn = draw_layout(piece, PPM)
    y, x = round(box.y * PPM), round(box.x * PPM)
    face[y : y + drawn.shape[0], x : x + drawn.shape[1]] = drawn


def chip(face: Image, centre_mm: tuple[float, float], ink: str) -> None:
    r, g, b = INKS[ink]
    at = (round(centre_mm[0] * PPM), round(centre_mm[1] * PPM))
    cv2.circle(face, at, round(8.0 * PPM), (b, g, r), -1, cv2.LINE_AA)


def on_table(face: Image) -> Image:
    frame = np.full((1080, 1920, 3), (90, 110, 130), np.uint8)
    frame[200 : 200 + face.shape[0], 300 : 300 + face.shape[1]] = face
    return frame


def test_the_art_row_reads_each_place() -> None:
    (board,) = by_kind("paintings", "art-row")
    cards = by_kind("paintings", "art-card")
    face = draw_layout(board, PPM).copy()
    paste(face, cards[4], "row 0", board)
    paste(face, cards[9], "row 2", board)
    paste(face, cards[11], "row 4", board)
    observation = Scanner().scan(on_table(face))
    (row,) = [b for b in observation.boards if b.kind == "shared"]
    assert row.problems == ()
    assert row.position == {
        "game": "paintings",
        "art_row": [
            cards[4].content["card"],
            None,
            cards[9].content["card"],
            None,
            cards[11].content["card"],
        ],
    }
    scored = score_observation(row, GameOptions())
    assert scored.score is None and scored.problems == ()


def test_the_market_reads_crates_shade_row_and_spill_tray() -> None:
    (board,) = by_kind("pigments", "market")
    shades = by_kind("pigments", "shade")
    face = draw_layout(board, PPM).copy()
    for name, ink in (
        ("crate 1 slot 1", "Fe2O3"),
        ("crate 1 slot 2", "ultramarine"),
        ("crate 3 slot 3", "FeO(OH)"),
    ):
        circle = board.region(name).shape
        chip(face, bounds(circle).centre, ink)
    paste(face, shades[2], "shade row 1", board)
    paste(face, shades[5], "shade row 8", board)
    tray = bounds(board.region("spill tray").shape)
    chip(face, (tray.x + 20, tray.centre[1]), "TiO2")
    chip(face, (tray.x + 60, tray.centre[1]), "TiO2")
    chip(face, (tray.x + 100, tray.centre[1]), "binder")
    observation = Scanner().scan(on_table(face))
    (market,) = [b for b in observation.boards if b.kind == "shared"]
    assert market.problems == (), market.problems
    assert market.position["crates"] == [["Fe2O3", "ultramarine"], [], ["FeO(OH)"], [], []]
    row = market.position["shade_row"]
    assert row[0] == shades[2].content["shade"] and row[7] == shades[5].content["shade"]
    assert row[1:7] == [None] * 6
    assert market.position["spill_tray"] == {"TiO2": 2, "binder": 1}
