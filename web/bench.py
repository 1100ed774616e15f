"""``atelier bench web``: live viewers on one table, on loopback.

``viewers`` streams watch one table while a photo is scanned through the API, again and again,
by the reader the command line hands in. For every accepted scan and every viewer: the time from
the event being written to the log to its message arriving at that viewer. Then, optionally,
scans keep coming for ``minutes`` while the server's memory is sampled. The viewers run in this
process too, so their reading competes with the server for the interpreter: the latencies are an
upper bound of the server's own.
"""

from __future__ import annotations

import http.client
import json
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.process import resident_mb
from companion.reading import TableReader
from web import create_app
from web.server import make_server
from web.services import services_of

HOST = "127.0.0.1"  # loopback only: the benchmark never listens on the network
PLAYERS = [{"name": f"Player {n}"} for n in range(1, 5)]


@dataclass
class Viewer:
    """One live stream, recording when each event id arrived."""

    port: int
    table: str
    arrived: dict[int, float] = field(default_factory=dict)
    connected: threading.Event = field(default_factory=threading.Event)

    def run(self, stop: threading.Event) -> None:
        connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
        connection.request("GET", f"/api/tables/{self.table}/events")
        response = connection.getresponse()
        self.connected.set()
        while not stop.is_set():
            line = response.readline()
            if not line:
                break
            if line.startswith(b"id: "):
                self.arrived[int(line[4:])] = time.time()
        connection.close()


def _post(port: int, path: str, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    connection.request("POST", path, body, headers)
    response = connection.getresponse()
    data: dict[str, Any] = json.loads(response.read())
    connection.close()
    if response.status >= 300:
        raise RuntimeError(f"{path}: {response.status} {data}")
    return data


def _multipart(jpeg: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="t.jpg"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + jpeg
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_web_bench(
    photo: bytes,
    reader: TableReader,
    viewers: int,
    scans: int,
    minutes: float,
    rate: float,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    """``photo`` (a JPEG showing a board of seat 1..4 of a Color Field table) scanned through
    the API ``scans`` times, then at ``rate`` a second for ``minutes``."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATA_DIR": folder, "SSE_MAX_SECONDS": 24 * 3600.0}, reader)
        server = make_server(app, HOST, 0, threads=viewers + 16)
        port = int(server.effective_port)  # type: ignore[union-attr]
        serving = threading.Thread(target=server.run, daemon=True)
        serving.start()
        tables = services_of(app).tables
        stop = threading.Event()
        try:
            made = _post(
                port,
                "/api/tables",
                json.dumps({"game": "colorfield", "players": PLAYERS}).encode(),
                {"Content-Type": "application/json"},
            )
            table, token = made["id"], made["token"]
            watchers = [Viewer(port, table) for _ in range(viewers)]
            threads = [threading.Thread(target=w.run, args=(stop,), daemon=True) for w in watchers]
            for thread in threads:
                thread.start()
            hub = services_of(app).hub
            deadline = time.monotonic() + 30
            while hub.watchers(table) < viewers and time.monotonic() < deadline:
                time.sleep(0.01)
            body, kind = _multipart(photo)
            headers = {"Content-Type": kind, "X-Table-Token": token}
            scan_ms: list[float] = []
            ids: list[int] = []
            for number in range(1, scans + 1):
                progress(f"scan {number}/{scans}")
                start = time.perf_counter()
                ids.append(int(_post(port, f"/api/tables/{table}/scans", body, headers)["event"]))
                scan_ms.append((time.perf_counter() - start) * 1000)
                time.sleep(0.05)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any(ids[-1] not in w.arrived for w in watchers):
                time.sleep(0.01)
            written = {e.id: e.at for e in tables.events(table)}
            latencies = [
                (w.arrived[i] - written[i]) * 1000 for w in watchers for i in ids if i in w.arrived
            ]
            missing = len(ids) * viewers - len(latencies)
            memory = []
            if minutes > 0:
                end = time.monotonic() + minutes * 60
                next_sample = 0.0
                count = 0
                while time.monotonic() < end:
                    _post(port, f"/api/tables/{table}/scans", body, headers)
                    count += 1
                    now = time.monotonic()
                    if now >= next_sample:
                        memory.append(
                            {
                                "seconds": round(minutes * 60 - (end - now), 1),
                                "rss_mb": round(resident_mb(), 1),
                            }
                        )
                        progress(f"soak: {count} scans, {memory[-1]['rss_mb']} MB")
                        next_sample = now + 10
                    time.sleep(max(0.0, 1 / rate - 0.001))
                memory.append(
                    {"seconds": round(minutes * 60, 1), "rss_mb": round(resident_mb(), 1)}
                )
        finally:
            stop.set()
            server.close()
            tables.close()
    return {
        "suite": "web",
        "viewers": viewers,
        "scans": scans,
        "delivered": len(latencies),
        "missing": missing,
        "latency_ms": {
            "median": round(statistics.median(latencies), 2) if latencies else None,
            "p95": round(_percentile(latencies, 0.95), 2) if latencies else None,
            "max": round(max(latencies), 2) if latencies else None,
        },
        "scan_request_ms_median": round(statistics.median(scan_ms), 1) if scan_ms else None,
        "soak_minutes": minutes,
        "memory": memory,
    }
