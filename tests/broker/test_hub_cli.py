"""``atelier hub`` as the hall runs it: a process of its own that prints its address, streams
the leaderboard live, and refuses bad options in one line; and ``atelier bench hub`` small."""

from __future__ import annotations

import http.client
import json
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.broker.hub_fixtures import publish, table_client
from tests.broker.scoreboards import scoreboard
from tests.cli import ATELIER, assert_user_error, atelier
from tests.mosquitto import Mosquitto
from web.broker.protocol import state_payload, table_state_topic

START_S = 30.0  # a guard against a hang on a loaded machine


@contextmanager
def hub_process(broker: Mosquitto) -> Iterator[int]:
    command = [str(ATELIER), "hub", "--broker", broker.url, "--host", "127.0.0.1", "--port", "0"]
    hub = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert hub.stdout is not None
        line = hub.stdout.readline()
        assert line.startswith("http://127.0.0.1:"), line
        yield int(line.strip().rstrip("/").rsplit(":", 1)[1])
    finally:
        hub.terminate()
        hub.wait(START_S)
    assert hub.returncode == 0  # SIGTERM is a normal stop


def _messages(port: int) -> Iterator[dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=START_S)
    connection.request("GET", "/api/live")
    response = connection.getresponse()
    assert response.headers["Content-Type"].startswith("text/event-stream")
    for raw in response:
        line = raw.decode().strip()
        if line.startswith("data: "):
            yield json.loads(line[6:])


def test_the_hub_streams_each_change_to_an_open_page(mosquitto: Mosquitto, tmp_path: Path) -> None:
    scores = scoreboard(tmp_path / "t", "isle", ["Ada", "Ben"], [3, 9])
    with hub_process(mosquitto) as port, table_client(mosquitto) as table:
        stream = _messages(port)
        first = next(stream)
        assert first["tables"] == [] and first["keys"] == []
        topic = table_state_topic("hall", "t1")

        def publish_later() -> None:
            publish(table, topic, state_payload("pi-1", "t1", 1, 1.0, scores), retain=True)

        threading.Thread(target=publish_later).start()
        message = next(m for m in stream if m["tables"])
        (shown,) = message["tables"]
        assert (shown["label"], shown["title"], shown["online"]) == (
            "Ada, Ben",
            "Isle of Colors",
            False,
        )
        assert message["keys"] == [["hall", "t1"]]
        assert [p["name"] for p in message["standings"][0]["players"]] == ["Ben", "Ada"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--broker", "http://hall"], "is not mqtt://HOST[:PORT]"),
        ([], "--broker: give the broker's address"),
        (["--broker", "mqtt://hall", "--broker-ca", "ca.pem"], "only with an mqtts://"),
        (["--broker", "mqtt://hall", "--broker-password-file", "pw"], "only with a user"),
    ],
)
def test_bad_hub_options_are_one_line(args: list[str], fragment: str) -> None:
    assert_user_error(atelier("hub", *args), fragment)


@pytest.mark.slow
def test_the_hub_bench_sees_every_update(mosquitto: Mosquitto) -> None:
    run = atelier(
        "bench",
        "hub",
        "--broker",
        mosquitto.url,
        "--tables",
        "20",
        "--rate",
        "2",
        "--minutes",
        "0.05",
        "--sample",
        "1",
    )
    assert run.status == 0, run.stderr
    results = json.loads(run.stdout)
    assert results["published"] == 20 * 6 and results["missing"] == 0
    for where in ("hub", "viewer"):
        assert set(results["latency_ms"][where]) == {"median", "p95", "max"}
    assert results["memory"] and results["memory"][0]["rss_mb"] > 0
    assert "publish -> hub leaderboard" in run.stderr
