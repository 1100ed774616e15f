"""A hall in small: a real Mosquitto, two ``atelier serve --broker`` processes and ``atelier hub``.
A photo scanned at a table and changes made there reach the leaderboard; the broker killed and
started again, and a table's computer killed and started again, lose nothing and double
nothing; a table whose computer is gone shows offline."""

from __future__ import annotations

import json
import random
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from companion.positions import evaluate_document
from companion.samples import random_position
from tests.broker.test_publish_serve import SITE, new_table, post, serving, tokens
from tests.cli import ATELIER
from tests.mosquitto import Mosquitto
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, RenderOptions
from web.bench import multipart_photo

WAIT_S = 30.0  # a guard against a hang, not a speed claim: loaded machines are slow
T = TypeVar("T")


@contextmanager
def hub(broker: Mosquitto) -> Iterator[str]:
    command = [str(ATELIER), "hub", "--broker", broker.url, "--site", SITE]
    process = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        yield url
    finally:
        process.terminate()
        process.wait(WAIT_S)


def board(url: str) -> dict[str, dict[str, Any]]:
    """The hub's tables by id."""
    with urllib.request.urlopen(f"{url.rstrip('/')}/api/tables", timeout=WAIT_S) as answer:
        return {t["table"]: t for t in json.loads(answer.read())["tables"]}


def until(found: Callable[[], T | None]) -> T:
    """What ``found`` answers once it answers something, asked again every 50 ms."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        answer = found()
        if answer:
            return answer
        time.sleep(0.05)
    raise AssertionError(f"not seen in {WAIT_S} s")


def scanned(url: str, players: int, jpeg: bytes) -> tuple[str, int]:
    """A Color Field table made at the server ``url``, a photo of its boards scanned there (read
    by the server's own scanner): the table and the event of the scan."""
    names = [{"name": name} for name in ("Ana", "Ben", "Cy", "Dee")[:players]]
    made = post(f"{url}api/tables", {"game": "colorfield", "players": names})
    body, kind = multipart_photo(jpeg)
    headers = {
        "Content-Type": kind,
        "X-Table-Token": made["token"],
    }
    request = urllib.request.Request(
        f"{url}api/tables/{made['id']}/scans", body, headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=WAIT_S) as answer:
        return made["id"], int(json.loads(answer.read())["event"])


def shows(url: str, table: str, seq: int, online: bool = True) -> dict[str, Any] | None:
    shown = board(url).get(table)
    if shown is None or shown["seq"] != seq or shown["online"] is not online:
        return None
    return shown


@pytest.mark.slow
def test_two_tables_and_a_hub_through_a_broker_killed_and_a_table_killed(
    tmp_path: Path, mosquitto: Mosquitto
) -> None:
    with (
        hub(mosquitto) as leaderboard,
        serving(tmp_path / "a" / "data", mosquitto.url) as (_, a),
        serving(tmp_path / "b" / "data", mosquitto.url) as (server_b, b),
    ):
        # A photo scanned at table computer A: the hub shows the score its scanner read.
        position = random_position("colorfield", random.Random(11))  # seat 4's canvas
        photo = Renderer().render(plan_table(position, "test"), RenderOptions(11, Difficulty.EASY))
        canvas, scan = scanned(a, 4, photo.jpeg)
        read = until(lambda: shows(leaderboard, canvas, scan))
        dee = next(p for p in read["players"] if p["name"] == "Dee")
        assert dee["total"] == evaluate_document(position, "test").data["total"]

        (table_a, token_a), (table_b, token_b) = new_table(a), new_table(b)
        made_a = [tokens(a, table_a, token_a, n) for n in (1, 2)]
        made_b = [tokens(b, table_b, token_b, n) for n in (3,)]
        until(lambda: shows(leaderboard, table_a, made_a[-1]))
        until(lambda: shows(leaderboard, table_b, made_b[-1]))

        # Killed once it has saved the hub's session, as a hall's broker does every few
        # seconds (docs/broker.md): the events replayed before the hub is back wait for it.
        mosquitto.wait_saved(time.time())
        mosquitto.stop()
        made_a += [tokens(a, table_a, token_a, n) for n in (4, 5)]
        made_b += [tokens(b, table_b, token_b, n) for n in (6,)]
        mosquitto.start()
        shown_a = until(lambda: shows(leaderboard, table_a, made_a[-1]))
        shown_b = until(lambda: shows(leaderboard, table_b, made_b[-1]))
        with urllib.request.urlopen(f"{a}api/tables/{table_a}", timeout=WAIT_S) as answer:
            own = json.loads(answer.read())
        totals = sorted((p["name"], p["total"]) for p in own["players"])
        assert sorted((p["name"], p["total"]) for p in shown_a["players"]) == totals
        # Every event once: none lost while the broker was away, none doubled by the replay.
        assert (shown_a["events"], shown_b["events"]) == (len(made_a), len(made_b))

        server_b.kill()
        until(lambda: shows(leaderboard, table_b, made_b[-1], online=False))
        with serving(tmp_path / "b" / "data", mosquitto.url) as (_, b):
            made_b += [tokens(b, table_b, token_b, n) for n in (7,)]
            shown_b = until(lambda: shows(leaderboard, table_b, made_b[-1]))
            assert shown_b["events"] == len(made_b)
