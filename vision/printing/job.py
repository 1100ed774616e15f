"""``print_games``: every component of some games drawn at 300 dpi, one PNG each, packed onto A4
and US Letter sheets (PNG pages and one PDF per game and paper), and ``manifest.json``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.draw import draw_layout
from vision.images import Image
from vision.layout.catalogue import layouts
from vision.layout.ids import DICTIONARY
from vision.layout.model import Layout
from vision.printing.packing import SheetPlan, pack
from vision.printing.paper import DPI, GAP_MM, MARGIN_MM, PAPERS, PPM, Paper
from vision.printing.pdf import PdfWriter
from vision.printing.png import encode_png
from vision.printing.sheet import Pasted, compose, origin

Progress = Callable[[str], None]


@dataclass(frozen=True)
class PrintSummary:
    files: tuple[str, ...]  # relative to the output folder, in the order written
    components: int
    sheets: Mapping[str, int]  # paper key -> sheets over all games

    def to_json(self) -> dict[str, Any]:
        return {
            "files": list(self.files),
            "components": self.components,
            "sheets": dict(self.sheets),
        }


def component_file(layout: Layout) -> str:
    return f"components/{layout.key.replace('/', '_')}.png"


class _Job:
    def __init__(self, folder: Path, progress: Progress) -> None:
        self.folder = folder
        self.progress = progress
        self.files: list[str] = []
        self.components: dict[str, dict[str, Any]] = {}
        self.sheets: list[dict[str, Any]] = []

    def write(self, name: str, data: bytes) -> None:
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.files.append(name)

    def draw_components(self, game: str, pieces: Sequence[Layout]) -> None:
        for number, layout in enumerate(pieces, 1):
            self.progress(f"{game}: component {number}/{len(pieces)}")
            image = draw_layout(layout, PPM)
            name = component_file(layout)
            self.write(name, encode_png(image, DPI))
            self.components[layout.key] = {
                **layout.to_json(),
                "dictionary": DICTIONARY,
                "png": name,
                "size_px": [image.shape[1], image.shape[0]],
                "placements": [],
            }

    def print_sheets(self, game: str, pieces: Sequence[Layout], paper: Paper) -> int:
        plans = pack([layout.size for layout in pieces], paper.size, MARGIN_MM, GAP_MM)
        pdf_name = f"{game}-{paper.key}.pdf"
        with PdfWriter(self.folder / pdf_name, f"Atelier {game}, {paper.title}") as pdf:
            for number, plan in enumerate(plans, 1):
                self.progress(f"{game}: {paper.title} sheet {number}/{len(plans)}")
                name = f"sheets/{game}-{paper.key}-{number:02d}.png"
                image = self.sheet(game, pieces, paper, plan, (number, len(plans)), name)
                png = encode_png(image, DPI)
                self.write(name, png)
                pdf.add_page(png, plan.size)
                self.sheets.append(
                    {
                        "file": name,
                        "game": game,
                        "paper": paper.key,
                        "pdf": pdf_name,
                        "page": number,
                        "orientation": plan.orientation,
                        "size_mm": list(plan.size),
                        "size_px": [image.shape[1], image.shape[0]],
                        "components": [pieces[p.item].key for p in plan.placements],
                    }
                )
        self.files.append(pdf_name)
        return len(plans)

    def sheet(
        self,
        game: str,
        pieces: Sequence[Layout],
        paper: Paper,
        plan: SheetPlan,
        count: tuple[int, int],
        name: str,
    ) -> Image:
        pasted = []
        for placement in plan.placements:
            layout = pieces[placement.item]
            x, y = origin(placement.x, placement.y)
            pasted.append(Pasted(draw_layout(layout, PPM), (x, y)))
            self.components[layout.key]["placements"].append(
                {
                    "paper": paper.key,
                    "sheet": name,
                    "page": count[0],
                    # Exactly where the pasted pixels put the component's (0, 0) corner.
                    "origin_mm": [round(x / PPM, 4), round(y / PPM, 4)],
                    "origin_px": [x, y],
                }
            )
        footer = (
            f"Atelier  |  {game}  |  sheet {count[0]}/{count[1]}  |  {paper.title}  |  "
            "print at 100 %, no scaling"
        )
        return compose(plan.size, pasted, footer)

    def manifest(self, games: Sequence[str]) -> dict[str, Any]:
        return {
            "games": list(games),
            "dictionary": DICTIONARY,
            "dpi": DPI,
            "papers": {
                paper.key: {"title": paper.title, "size_mm": list(paper.size)} for paper in PAPERS
            },
            "components": list(self.components.values()),
            "sheets": self.sheets,
        }


def print_games(games: Sequence[str], folder: Path, progress: Progress) -> PrintSummary:
    """Write the print files of ``games`` into ``folder`` (which must exist)."""
    job = _Job(folder, progress)
    counts = {paper.key: 0 for paper in PAPERS}
    for game in games:
        pieces = layouts(game)
        job.draw_components(game, pieces)
        for paper in PAPERS:
            counts[paper.key] += job.print_sheets(game, pieces, paper)
    manifest = json.dumps(job.manifest(games), indent=1)
    job.write("manifest.json", manifest.encode() + b"\n")
    return PrintSummary(tuple(job.files), len(job.components), counts)
