"""A test's own MQTT client: it keeps every message under ``atelier/#`` and waits, without fixed
sleeps, until what it holds says what the test expects.

Its session is persistent (QoS 1, no clean start), as a hub's should be: while the broker is
down and back, the events published before it resubscribed are queued for it, not lost to it.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from paho.mqtt import client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from web.broker import protocol

WAIT_S = 20.0  # a guard against a hang, not a speed claim: loaded machines are slow
T = TypeVar("T")


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retained: bool

    def decoded(self) -> dict[str, Any] | None:
        return protocol.decode(self.payload)


class Watcher:
    def __init__(self, port: int, topic: str = "atelier/#") -> None:
        self.messages: list[Message] = []
        self.subscribed = threading.Event()
        self._changed = threading.Condition()
        self._topic = topic
        self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"watcher-{uuid.uuid4().hex}",
            clean_session=False,
        )
        self._client.reconnect_delay_set(1, 1)
        self._client.on_connect = self._on_connect
        self._client.on_subscribe = lambda *_: self.subscribed.set()
        self._client.on_disconnect = lambda *_: self.subscribed.clear()
        self._client.on_message = self._on_message
        self._client.connect("127.0.0.1", port, keepalive=5)
        self._client.loop_start()
        assert self.subscribed.wait(WAIT_S), "the watcher did not subscribe"

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: mqtt.Client, *_args: Any) -> None:
        client.subscribe(self._topic, qos=1)

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: Any) -> None:
        with self._changed:
            self.messages.append(Message(message.topic, bytes(message.payload), message.retain))
            self._changed.notify_all()

    def wait(self, found: Callable[[Watcher], T | None], timeout: float = WAIT_S) -> T:
        """What ``found`` answers once it answers something (not None nor False)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                answer = found(self)
                if answer is not None and answer is not False:
                    return answer
                left = deadline - time.monotonic()
                assert left > 0, f"not found in {timeout} s; received {self.messages[-5:]}"
                self._changed.wait(min(left, 0.5))

    def payloads(self, topic: str) -> list[dict[str, Any] | None]:
        """Every payload received on ``topic``, decoded (None: empty or not ours)."""
        with self._changed:
            return [m.decoded() for m in self.messages if m.topic == topic]

    def events(self, site: str, table: str) -> list[dict[str, Any]]:
        found = self.payloads(protocol.table_events_topic(site, table))
        return [p for p in found if p is not None]

    def state(self, site: str, table: str) -> dict[str, Any] | None:
        """The last state received for ``table`` (None: none yet, or its removal)."""
        found = self.payloads(protocol.table_state_topic(site, table))
        return found[-1] if found else None

    def status(self, site: str, server: str) -> dict[str, Any] | None:
        found = self.payloads(protocol.server_status_topic(site, server))
        return found[-1] if found else None
