"""The hub under a hall's load: simulated tables publish their changes to a broker while
``atelier hub`` (a process of its own, as in the hall) keeps the leaderboard and one viewer
follows its live stream.

For each change: the time from the table publishing it to the hub's leaderboard having it (the
hub stamps each table with when it took its state) and to the viewer receiving it. The hub's
resident memory is sampled throughout. The states are real scoreboards (``scores_json`` of real
tables, four players each), their totals and rounds changed at each publish.
"""

from __future__ import annotations

import bisect
import http.client
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.errors import AtelierError
from web.broker.local_broker import Mosquitto
from web.broker.protocol import (
    event_payload,
    parse_broker,
    server_status_topic,
    state_payload,
    status_payload,
    table_events_topic,
    table_state_topic,
)

SITE = "bench"
GAMES = ("colorfield", "paintings", "isle", "pigments")
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
# What a game cannot start without: Paintings' scoring cards, Isle of Colors' conditions.
OPTIONS: dict[str, dict[str, Any]] = {
    "paintings": {"scoring_cards": ["variety", "repetition", "emphasis", "composition"]},
    "isle": {"conditions": {"green": "grass", "blue": "shore", "brown": "desert", "red": "town"}},
}
TABLES_PER_SERVER = 4  # a table computer may serve a few tables
HUB_START_S = 20.0
DRAIN_S = 3.0  # after the last publish, how long the viewer may still take to see it


def run_hub_bench(
    broker_url: str | None,
    tables: int,
    rate: float,
    minutes: float,
    sample_s: float,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    """Publish ``rate`` changes a second from each of ``tables`` tables for ``minutes`` (to
    ``broker_url``, or to a Mosquitto of our own) and measure the hub; the results as JSON."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="atelier-bench-")))
        if broker_url is None:
            broker = Mosquitto(folder / "broker")
            broker.start()
            stack.callback(broker.stop)
            broker_url = broker.url
        address = parse_broker(broker_url)
        progress("starting the hub")
        hub, port = stack.enter_context(_hub_process(broker_url))
        viewer = _Viewer(port)
        viewer.start()
        stack.callback(viewer.stop)
        templates = _templates(folder / "tables")
        publisher = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"atelier-bench-{os.getpid()}"
        )
        if address.username:
            publisher.username_pw_set(address.username, address.password)
        if address.tls:
            publisher.tls_set()
        publisher.max_queued_messages_set(0)
        publisher.max_inflight_messages_set(1000)
        publisher.connect(address.host, address.port, keepalive=15)
        publisher.loop_start()
        stack.callback(publisher.loop_stop)
        stack.callback(publisher.disconnect)
        names = [f"t{i:04d}" for i in range(tables)]
        servers = sorted({_server(i) for i in range(tables)})
        for server in servers:
            publisher.publish(
                server_status_topic(SITE, server),
                status_payload(server, True, time.time()),
                1,
                True,
            )
        load_before = os.getloadavg()
        published: dict[tuple[str, int], float] = {}
        memory: list[dict[str, float]] = []
        seconds = minutes * 60
        start = time.monotonic()
        next_sample = start
        period = 1.0 / (rate * tables)  # the tables take turns, evenly spread over each second
        rng = random.Random(5)
        count = 0
        while True:
            now = time.monotonic()
            if now >= next_sample:
                memory.append({"seconds": round(now - start, 1), "rss_mb": _rss_mb(hub.pid)})
                next_sample += sample_s
                progress(f"{now - start:.0f}/{seconds:.0f} s, hub {memory[-1]['rss_mb']} MB")
            due = start + count * period
            if due - start >= seconds:
                break
            if due > now:
                time.sleep(due - now)
            index = count % tables
            seq = count // tables + 1
            name = names[index]
            at = time.time()
            state = _state(templates[GAMES[index % len(GAMES)]], name, seq, rng)
            server = _server(index)
            publisher.publish(
                table_events_topic(SITE, name),
                event_payload(server, name, seq, "scan", f"{NAMES[seq % len(NAMES)]} scanned", at),
                1,
            )
            publisher.publish(
                table_state_topic(SITE, name), state_payload(server, name, seq, at, state), 1, True
            )
            published[(name, seq)] = at
            count += 1
        viewer.wait_for(published.keys(), DRAIN_S)
        memory.append({"seconds": round(time.monotonic() - start, 1), "rss_mb": _rss_mb(hub.pid)})
        load_after = os.getloadavg()
        return _results(
            tables, rate, minutes, published, viewer.seen(), memory, load_before, load_after
        )


def _server(index: int) -> str:
    return f"pi-{index // TABLES_PER_SERVER:03d}"


def _templates(folder: Path) -> dict[str, dict[str, Any]]:
    """A real scoreboard of each game, as a table publishes it."""
    from companion.table.session import Tables
    from companion.table.setup import PRINTED_SEATS

    made: dict[str, dict[str, Any]] = {}
    tables = Tables(folder)
    try:
        for game in GAMES:
            seats = min(4, PRINTED_SEATS[game])
            players = [{"name": NAMES[i], "colour": COLOURS[i]} for i in range(seats)]
            setup = {"game": game, "players": players, "options": OPTIONS.get(game, {})}
            created = tables.create(setup)
            made[game] = tables.state(created.table).scores_json()
    finally:
        tables.close()
    return made


def _state(template: dict[str, Any], table: str, seq: int, rng: random.Random) -> dict[str, Any]:
    """The template, as a table would show it after ``seq`` changes."""
    # Only the top level and the players change: shallow copies keep the simulation cheap, so
    # that the bench's own work does not hold up the hub it measures.
    state = {**template, "players": [dict(p) for p in template["players"]]}
    state["id"] = table
    state["round"] = 1 + seq // 8
    state["last_event"] = seq
    totals = [rng.randrange(0, 40 + seq) for _ in state["players"]]
    ranked = sorted(totals, reverse=True)
    for player, total in zip(state["players"], totals, strict=True):
        player["total"] = total
        player["place"] = ranked.index(total) + 1
    state["changed_seats"] = [state["players"][seq % len(state["players"])]["seat"]]
    return state


def _rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


@contextmanager
def _hub_process(broker_url: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``atelier hub`` on a free loopback port, as the hall would run it."""
    command = [sys.executable, "-m", "companion", "hub", "--broker", broker_url]
    command += ["--site", SITE, "--host", "127.0.0.1", "--port", "0"]
    hub = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = _first_line(hub, HUB_START_S)
        port = int(line.rstrip("/\n").rsplit(":", 1)[1])
        yield hub, port
    finally:
        hub.terminate()
        try:
            hub.wait(10)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait()


def _first_line(process: subprocess.Popen[str], timeout: float) -> str:
    assert process.stdout is not None
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(process.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout)
    if not found or not found[0].startswith("http://"):
        process.kill()
        raise AtelierError(f"atelier hub did not start within {timeout:g} s")
    return found[0]


class _Viewer:
    """One browser's worth of the hub's live stream: when it first saw each table's change."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._seen: dict[tuple[str, int], tuple[float, float, float]] = {}
        self._lock = threading.Condition()
        self._connection: http.client.HTTPConnection | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)

    def start(self) -> None:
        self._connection = http.client.HTTPConnection("127.0.0.1", self._port, timeout=30)
        self._connection.request("GET", "/api/live", headers={"Accept": "text/event-stream"})
        self._thread.start()

    def stop(self) -> None:
        if self._connection is not None:
            self._connection.close()

    def seen(self) -> dict[tuple[str, int], tuple[float, float, float]]:
        """(table, seq): (published at, taken by the hub at, received by the viewer at)."""
        with self._lock:
            return dict(self._seen)

    def wait_for(self, wanted: Any, timeout: float) -> None:
        wanted = set(wanted)
        with self._lock:
            self._lock.wait_for(lambda: wanted <= self._seen.keys(), timeout)

    def _read(self) -> None:
        assert self._connection is not None
        try:
            response = self._connection.getresponse()
            data: list[str] = []
            for raw in response:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    self._take(json.loads("".join(data)), time.time())
                    data = []
        # The bench closes the connection under this thread: http.client then finds its file
        # gone (AttributeError) or the socket closed.
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return

    def _take(self, message: dict[str, Any], now: float) -> None:
        with self._lock:
            for table in message["tables"]:
                key = (table["table"], table["seq"])
                self._seen.setdefault(key, (table["at"], table["received"], now))
            self._lock.notify_all()


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "p95": None, "max": None}
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))], 1)

    return {"median": at(0.5), "p95": at(0.95), "max": round(ordered[-1], 1)}


def _slope(memory: list[dict[str, float]]) -> float | None:
    """The least-squares slope of the hub's memory, MB a minute."""
    if len(memory) < 2:
        return None
    xs = [m["seconds"] / 60 for m in memory]
    ys = [m["rss_mb"] for m in memory]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    return round(sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread, 3)


def _minute_mean(memory: list[dict[str, float]], first: bool) -> float | None:
    if not memory:
        return None
    end = memory[-1]["seconds"]
    chosen = [
        m["rss_mb"] for m in memory if (m["seconds"] <= 60 if first else m["seconds"] >= end - 60)
    ]
    return round(sum(chosen) / len(chosen), 1) if chosen else None


def _shown(
    published: dict[tuple[str, int], float],
    seen: dict[tuple[str, int], tuple[float, float, float]],
) -> dict[tuple[str, int], tuple[float, float, float]]:
    """For each change published, when the hub and the viewer first had it or a later change
    of its table (a state holds every change before it: a page that skipped a state still shows
    its change, once the next one arrives). A change no later state covered is not here."""
    by_table: dict[str, list[tuple[int, float, float]]] = {}
    for (table, seq), (_, hub, viewer) in seen.items():
        by_table.setdefault(table, []).append((seq, hub, viewer))
    covering: dict[str, list[tuple[int, float, float]]] = {}
    for table, states in by_table.items():
        states.sort()
        # The earliest arrival among this state and every later one, from the last back.
        earliest, hub_first, viewer_first = [], float("inf"), float("inf")
        for seq, hub, viewer in reversed(states):
            hub_first, viewer_first = min(hub_first, hub), min(viewer_first, viewer)
            earliest.append((seq, hub_first, viewer_first))
        covering[table] = earliest[::-1]
    shown = {}
    for (table, seq), at in published.items():
        states = covering.get(table, [])
        index = bisect.bisect_left(states, (seq, -math.inf, -math.inf))
        if index < len(states):
            shown[(table, seq)] = (at, states[index][1], states[index][2])
    return shown


def _results(
    tables: int,
    rate: float,
    minutes: float,
    published: dict[tuple[str, int], float],
    seen: dict[tuple[str, int], tuple[float, float, float]],
    memory: list[dict[str, float]],
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> dict[str, Any]:
    shown = _shown(published, seen)
    taken = list(shown.values())
    return {
        "tables": tables,
        "rate_per_table": rate,
        "minutes": minutes,
        "published": len(published),
        "seen": sum(1 for k in published if k in seen),
        # Folded into a later state before the viewer's next message: shown, not on its own.
        "superseded": sum(1 for k in shown if k not in seen),
        "missing": len(published) - len(shown),
        "latency_ms": {
            "hub": _percentiles([(hub - at) * 1000 for at, hub, _ in taken]),
            "viewer": _percentiles([(viewer - at) * 1000 for at, _, viewer in taken]),
        },
        "memory": memory,
        "rss_mb_first_minute": _minute_mean(memory, first=True),
        "rss_mb_last_minute": _minute_mean(memory, first=False),
        "rss_slope_mb_per_minute": _slope(memory),
        "load_average": {"before": round(load_before[0], 2), "after": round(load_after[0], 2)},
        "cpus": os.cpu_count(),
    }
