"""Photos read at once: at most ``PHOTOS_AT_ONCE`` photos are decoded and scanned together; one
more waits up to ``PHOTO_WAIT_S`` for a slot, then is refused with a 503 that says when to try
again, and changes nothing."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.reading import PhotoError, PhotoReading
from tests.web.conftest import new_table
from web import create_app
from web.services import services_of


class HeldReader:
    """Reads no pixels: each photo is held until ``release``d, then read as showing nothing
    (``NothingReadError``, 422) or refused when it is ``b"bad"``. Counts the photos held at once."""

    def __init__(self) -> None:
        self.entered = threading.Semaphore(0)
        self.gate = threading.Semaphore(0)
        self.lock = threading.Lock()
        self.holding = 0
        self.most = 0

    def read_photo(self, data: bytes) -> PhotoReading:
        if data == b"bad":
            raise PhotoError("image: not an image (expected JPEG or PNG)")
        with self.lock:
            self.holding += 1
            self.most = max(self.most, self.holding)
        self.entered.release()
        self.gate.acquire()
        with self.lock:
            self.holding -= 1
        return PhotoReading((), {}, 1.0)

    def release(self, photos: int) -> None:
        for _ in range(photos):
            self.gate.release()


def make_app(folder: Path, reader: HeldReader, wait_s: float) -> Flask:
    config = {"DATA_DIR": folder, "PHOTOS_AT_ONCE": 2, "PHOTO_WAIT_S": wait_s}
    return create_app(config, reader)


@pytest.fixture
def reader() -> HeldReader:
    return HeldReader()


@pytest.fixture
def held(tmp_path: Path, reader: HeldReader) -> Iterator[tuple[Flask, str, str]]:
    app = make_app(tmp_path, reader, wait_s=0.2)
    table, token = new_table(app.test_client())
    yield app, table, token
    services_of(app).tables.close()


def send(app: Flask, table: str, token: str, data: bytes = b"photo") -> Any:
    return app.test_client().post(
        f"/api/tables/{table}/scans",
        data={"image": (io.BytesIO(data), "photo.jpg")},
        headers={"X-Table-Token": token},
    )


def in_background(app: Flask, table: str, token: str, answers: list[Any]) -> threading.Thread:
    thread = threading.Thread(target=lambda: answers.append(send(app, table, token).status_code))
    thread.start()
    return thread


def test_a_third_photo_finds_no_slot_and_is_told_to_retry(
    held: tuple[Flask, str, str], reader: HeldReader
) -> None:
    app, table, token = held
    answers: list[int] = []
    first = [in_background(app, table, token, answers) for _ in range(2)]
    for _ in first:
        assert reader.entered.acquire(timeout=10)
    refused = send(app, table, token)
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "2"
    assert refused.json == {
        "error": "the table is reading other photos: send this one again in a moment"
    }
    reader.release(2)
    for thread in first:
        thread.join(timeout=10)
    # Both held photos were read (and showed no board); the slots are free again.
    assert answers == [422, 422]
    assert reader.most == 2
    again = in_background(app, table, token, answers)
    assert reader.entered.acquire(timeout=10)
    reader.release(1)
    again.join(timeout=10)
    assert answers[-1] == 422
    history: Any = app.test_client().get(f"/api/tables/{table}/history").json
    assert history["history"] == []


def test_a_photo_waits_briefly_for_a_slot(tmp_path: Path, reader: HeldReader) -> None:
    app = make_app(tmp_path, reader, wait_s=10.0)
    table, token = new_table(app.test_client())
    answers: list[int] = []
    threads = [in_background(app, table, token, answers) for _ in range(3)]
    for _ in range(2):
        assert reader.entered.acquire(timeout=10)
    # The third waits for a slot, not in the reader.
    assert not reader.entered.acquire(timeout=0.3)
    reader.release(1)
    assert reader.entered.acquire(timeout=10)
    reader.release(2)
    for thread in threads:
        thread.join(timeout=10)
    assert answers == [422, 422, 422]
    assert reader.most == 2
    services_of(app).tables.close()


def test_a_refused_photo_gives_its_slot_back(held: tuple[Flask, str, str]) -> None:
    app, table, token = held
    for _ in range(5):
        answer = send(app, table, token, b"bad")
        assert (answer.status_code, answer.json["error"]) == (
            400,
            "image: not an image (expected JPEG or PNG)",
        )
