"""A minimal PDF 1.4 writer: one page per image, each page exactly its paper size, the image an
RGB XObject drawn over the whole page, its data the PNG's own compressed rows. Pages are written
as they come, so a long document never holds more than one page in memory."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from vision.printing.png import png_rows

POINTS_PER_MM = 72 / 25.4
_CATALOG, _PAGES = 1, 2  # fixed numbers; the page tree is written last, once its pages are known


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


class PdfWriter:
    """``with PdfWriter(path) as pdf: pdf.add_page(png, (w_mm, h_mm))``."""

    def __init__(self, path: Path, title: str) -> None:
        self._file: BinaryIO = path.open("wb")
        self._offsets: dict[int, int] = {}
        self._pages: list[int] = []
        self._next = _PAGES + 1
        self._title = title
        self._file.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        self._object(_CATALOG, b"<< /Type /Catalog /Pages 2 0 R >>")

    def _object(self, number: int, body: bytes, stream: bytes | None = None) -> None:
        self._offsets[number] = self._file.tell()
        self._file.write(f"{number} 0 obj\n".encode() + body)
        if stream is not None:
            self._file.write(b"\nstream\n" + stream + b"\nendstream")
        self._file.write(b"\nendobj\n")

    def _allocate(self) -> int:
        self._next += 1
        return self._next - 1

    def add_page(self, png: bytes, size_mm: tuple[float, float]) -> None:
        """A page ``size_mm`` (width, height) showing ``png`` over all of it: an 8-bit RGB PNG,
        not interlaced (as ``encode_png`` writes it). Its compressed rows go into the PDF as
        they are, with PNG's row filters declared: nothing is compressed twice."""
        cols, rows, data = png_rows(png)
        width, height = (_number(v * POINTS_PER_MM) for v in size_mm)
        image_id, content_id, page_id = self._allocate(), self._allocate(), self._allocate()
        self._object(
            image_id,
            (
                f"<< /Type /XObject /Subtype /Image /Width {cols} /Height {rows} "
                "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                f"/DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns {cols} >> "
                f"/Length {len(data)} >>"
            ).encode(),
            data,
        )
        content = f"q {width} 0 0 {height} 0 0 cm /Im0 Do Q".encode()
        self._object(content_id, f"<< /Length {len(content)} >>".encode(), content)
        self._object(
            page_id,
            (
                f"<< /Type /Page /Parent {_PAGES} 0 R /MediaBox [0 0 {width} {height}] "
                f"/Resources << /XObject << /Im0 {image_id} 0 R >> >> "
                f"/Contents {content_id} 0 R >>"
            ).encode(),
        )
        self._pages.append(page_id)

    def close(self) -> None:
        kids = " ".join(f"{page} 0 R" for page in self._pages)
        self._object(
            _PAGES, f"<< /Type /Pages /Kids [{kids}] /Count {len(self._pages)} >>".encode()
        )
        info = self._allocate()
        title = self._title.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        self._object(info, f"<< /Title ({title}) /Producer (Atelier) >>".encode())
        start = self._file.tell()
        size = self._next
        lines = [f"xref\n0 {size}\n", "0000000000 65535 f \n"]
        lines += [f"{self._offsets[n]:010d} 00000 n \n" for n in range(1, size)]
        lines.append(f"trailer\n<< /Size {size} /Root {_CATALOG} 0 R /Info {info} 0 R >>\n")
        lines.append(f"startxref\n{start}\n%%EOF\n")
        self._file.write("".join(lines).encode())
        self._file.close()

    def __enter__(self) -> PdfWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:
            self._file.close()
