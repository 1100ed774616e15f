"""``atelier screenshots``: the documentation's pictures of the real pages, and the links to
them."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import cv2
import pytest

from companion.cli.main import main
from tests.chromium import chromium_path

ROOT = Path(__file__).parents[1]
# A picture in Markdown, or in HTML where the page sets its width.
IMAGE_LINK = re.compile(r'!\[[^\]]*\]\(([^)]+)\)|<img src="([^"]+)"')


@pytest.mark.slow  # a server, the scanner built, six photos rendered, Chromium: about 15 s
def test_the_command_writes_a_tablet_scoreboard_and_a_phone_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chromium_path()
    assert main(["screenshots", "-o", str(tmp_path / "screens")]) == 0
    for name, (width, height) in {"scoreboard.png": (1024, 768), "seat.png": (390, 844)}.items():
        image = cv2.imread(str(tmp_path / "screens" / name))
        assert image is not None, name
        assert image.shape == (height, width, 3)
        # Not a blank page: the window holds the page's dark bar and its light background.
        assert image.min() < 40 and image.max() > 220
        assert (tmp_path / "screens" / name).stat().st_size < 150_000
    wrote = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wrote")]
    assert [line.split()[1] for line in wrote] == [
        str(tmp_path / "screens" / "scoreboard.png"),
        str(tmp_path / "screens" / "seat.png"),
    ]


def test_without_playwright_the_command_names_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # import fails
    assert main(["screenshots", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == 'atelier: screenshots: Playwright is not installed (pip install -e ".[test]")\n'
    assert list(tmp_path.iterdir()) == []


def test_without_chromium_the_command_names_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "browsers"))  # none there
    assert main(["screenshots", "-o", str(tmp_path / "screens")]) == 2
    err = capsys.readouterr().err
    assert err == (
        "atelier: screenshots: Chromium is not installed (apt: chromium, or: playwright install "
        "chromium)\n"
    )
    assert not (tmp_path / "screens").exists()


@pytest.mark.parametrize("doc", ["README.md", "docs/web.md"])
def test_every_picture_the_docs_show_is_in_the_checkout(doc: str) -> None:
    text = (ROOT / doc).read_text()
    links = [markdown or html for markdown, html in IMAGE_LINK.findall(text)]
    assert {Path(link).name for link in links} >= {"scoreboard.png", "seat.png"}
    for link in links:
        assert (ROOT / doc).parent.joinpath(link).is_file(), link
