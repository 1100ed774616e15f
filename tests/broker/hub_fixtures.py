"""A hub fed by the real test broker, and a client publishing as a table's server would."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from flask.testing import FlaskClient
from paho.mqtt.enums import CallbackAPIVersion

from tests.mosquitto import Mosquitto
from web.broker.board import SharedBoard
from web.broker.client import BrokerLogin
from web.broker.hub_app import create_hub_app
from web.broker.protocol import parse_broker
from web.broker.subscriber import Subscriber

WAIT_S = 10.0


@dataclass
class Hub:
    board: SharedBoard
    client: FlaskClient
    log: list[str]

    def until(self, check: Callable[[], bool], what: str) -> None:
        """Wait for ``check`` to hold, woken by each change of the board."""
        deadline = time.monotonic() + WAIT_S
        while not check():
            left = deadline - time.monotonic()
            assert left > 0, f"the hub never had {what}"
            version = self.board.read(lambda b: b.version)
            self.board.wait(version, self.board.connected, min(left, 0.5))


@contextmanager
def running_hub(
    broker: Mosquitto,
    site: str | None = "hall",
    name: str | None = None,
    board: SharedBoard | None = None,
) -> Iterator[Hub]:
    """A hub named ``name`` (by default one of its own) over ``board`` (by default a new one),
    connected to ``broker`` until the block ends."""
    board = board or SharedBoard()
    log: list[str] = []
    login = BrokerLogin(parse_broker(broker.url), keepalive=5)
    subscriber = Subscriber(login, site, board, log.append, name or f"test-{time.monotonic_ns()}")
    subscriber.start()
    app = create_hub_app(board, {"HUB_MIN_INTERVAL": 0.0})
    try:
        hub = Hub(board, app.test_client(), log)
        hub.until(lambda: board.connected, "a connection")
        yield hub
    finally:
        subscriber.stop()


@contextmanager
def table_client(broker: Mosquitto, will: tuple[str, bytes] | None = None) -> Iterator[mqtt.Client]:
    """A connected client publishing as a table's server (with its last will)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-{time.monotonic_ns()}")
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.connect("127.0.0.1", broker.port, keepalive=5)
    client.loop_start()
    try:
        yield client
    finally:
        client.disconnect()
        client.loop_stop()


def publish(client: mqtt.Client, topic: str, payload: bytes, retain: bool = False) -> None:
    client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT_S)
