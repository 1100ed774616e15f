"""``atelier bench web``: live viewers on one table, on loopback.

``viewers`` streams watch one table while a photo is scanned through the API, again and again,
by the reader the command line hands in. For every accepted scan and every viewer: the time from
the event being written to the log to its message arriving at that viewer. The viewers are
read by one select loop in a child process, so their reading does not compete with the server
for one interpreter (on a 2-core machine they still share the cores). Then, with the viewers still
watching: a page fetched while ``half_open`` connections hold an unfinished request, and a body
of ``big_mb`` megabytes sent to the scan address. Then, optionally, scans keep coming for
``minutes`` while the server's memory is sampled. The same bench runs on waitress, the server
this one replaced, for comparison.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from companion.errors import AtelierError
from companion.process import resident_mb
from companion.reading import TableReader
from web import create_app
from web.bench_clients import HOST, half_open, run_viewers, upload, written_bytes
from web.front import create_server, raise_file_limit
from web.services import services_of

PLAYERS = [{"name": f"Player {n}"} for n in range(1, 5)]
PAGE_TIMEOUT_S = 10.0  # a page that takes longer is reported as not served
UPLOAD_TIMEOUT_S = 30.0


class Server(Protocol):
    def run(self) -> None: ...
    def close(self) -> None: ...


def _post(port: int, path: str, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    connection.request("POST", path, body, headers)
    response = connection.getresponse()
    data: dict[str, Any] = json.loads(response.read())
    connection.close()
    if response.status >= 300:
        raise RuntimeError(f"{path}: {response.status} {data}")
    return data


def _page_ms(port: int) -> float | None:
    """How long the start page takes on a new connection; None when it does not come."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=PAGE_TIMEOUT_S)
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
    except OSError:
        return None
    finally:
        connection.close()
    return round((time.perf_counter() - start) * 1000, 1) if response.status == 200 else None


def multipart_photo(jpeg: bytes) -> tuple[bytes, str]:
    """A photo as a form upload's body (field ``image``), and its content type."""
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


def _folder_bytes(folder: str) -> int:
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def _server(kind: str, app: Any, threads: int, viewers: int) -> tuple[Server, int]:
    if kind == "waitress":
        try:
            from waitress.server import create_server as waitress_server
        except ImportError:
            raise AtelierError("--server waitress: waitress is not installed") from None
        # Its default limit of 100 connections would turn viewers away: room for all of them.
        limit = max(100, viewers + 50)
        running = waitress_server(app, host=HOST, port=0, threads=threads, connection_limit=limit)
        return running, int(running.effective_port)  # type: ignore[union-attr]
    front = create_server(app, HOST, 0, threads)
    return front, front.effective_port


def run_web_bench(
    photo: bytes,
    reader: TableReader,
    viewers: int,
    scans: int,
    minutes: float,
    rate: float,
    progress: Callable[[str], None],
    *,
    server: str = "front",
    threads: int = 16,
    half_open_count: int = 0,
    big_mb: int = 0,
) -> dict[str, Any]:
    """``photo`` (a JPEG showing a board of seat 1..4 of a Color Field table) scanned through
    the API ``scans`` times, then at ``rate`` a second for ``minutes``."""
    raise_file_limit()  # the half-open connections' both ends are in this process
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATA_DIR": folder, "SSE_MAX_SECONDS": 24 * 3600.0}, reader)
        running, port = _server(server, app, threads, viewers)
        serving = threading.Thread(target=running.run, daemon=True)
        serving.start()
        tables = services_of(app).tables
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        watching = None
        held = []
        try:
            made = _post(
                port,
                "/api/tables",
                json.dumps({"game": "colorfield", "players": PLAYERS}).encode(),
                {"Content-Type": "application/json"},
            )
            table, token = made["id"], made["token"]
            progress(f"opening {viewers} viewers")
            watching = context.Process(target=run_viewers, args=(port, table, viewers, theirs))
            watching.start()
            opened = int(ours.recv())
            watching_mb = round(resident_mb(), 1)
            progress(f"{opened} viewers watching")
            body, kind = multipart_photo(photo)
            headers = {"Content-Type": kind, "X-Table-Token": token}
            scan_ms: list[float] = []
            ids: list[int] = []
            for number in range(1, scans + 1):
                progress(f"scan {number}/{scans}")
                start = time.perf_counter()
                ids.append(int(_post(port, f"/api/tables/{table}/scans", body, headers)["event"]))
                scan_ms.append((time.perf_counter() - start) * 1000)
                time.sleep(0.05)
            ours.send((ids[-1], 30.0))
            arrived: list[dict[int, float]] = ours.recv()
            written = {e.id: e.at for e in tables.events(table)}
            latencies = [(a[i] - written[i]) * 1000 for a in arrived for i in ids if i in a]
            missing = len(ids) * viewers - len(latencies)
            _page_ms(port)  # the page's template is compiled on its first showing
            page_alone = _page_ms(port)
            page_held = None
            if half_open_count:
                progress(f"{half_open_count} half-open connections")
                held = half_open(port, half_open_count)
                time.sleep(0.2)
                page_held = _page_ms(port)
                for connection in held:
                    connection.close()
                held = []
            refusal = None
            if big_mb:
                progress(f"a {big_mb} MB body")
                disk_before, folder_before = written_bytes(), _folder_bytes(folder)
                refused = upload(
                    port,
                    f"/api/tables/{table}/scans",
                    {"X-Table-Token": token, "Content-Type": "image/jpeg"},
                    big_mb * 1_000_000,
                    UPLOAD_TIMEOUT_S,
                )
                time.sleep(0.5)  # a server that spooled the body has written it by now
                refusal = {
                    "status": refused.status,
                    "seconds": round(refused.seconds, 3),
                    "sent_mb": round(refused.sent_mb, 1),
                    "disk_written_mb": round((written_bytes() - disk_before) / 1e6, 1),
                    "data_folder_grew_bytes": _folder_bytes(folder) - folder_before,
                }
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
            for connection in held:
                connection.close()
            if watching is not None:
                watching.kill()
                watching.join()
            running.close()
            tables.close()
    return {
        "suite": "web",
        "server": server,
        "threads": threads,
        "viewers": viewers,
        "viewers_opened": opened,
        "rss_mb_watching": watching_mb,
        "scans": scans,
        "delivered": len(latencies),
        "missing": missing,
        "latency_ms": {
            "median": round(statistics.median(latencies), 2) if latencies else None,
            "p95": round(_percentile(latencies, 0.95), 2) if latencies else None,
            "max": round(max(latencies), 2) if latencies else None,
        },
        "scan_request_ms": {
            "median": round(statistics.median(scan_ms), 1),
            "max": round(max(scan_ms), 1),
        },
        "page_ms": page_alone,
        "half_open": half_open_count,
        "page_ms_half_open": page_held,
        "big_body_mb": big_mb,
        "big_body": refusal,
        "soak_minutes": minutes,
        "memory": memory,
    }
