"""The hub's side of the broker: one client subscribed to a site's (or every site's) status,
states and events, feeding each message to the shared leaderboard. It connects in the
background and reconnects after the broker or the network goes away; on each connection the
broker sends every retained state and status again, and the leaderboard ignores what it knew."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from web.broker.board import SharedBoard
from web.broker.client import BrokerLogin, new_client
from web.broker.protocol import hub_subscriptions


class Subscriber:
    def __init__(
        self,
        login: BrokerLogin,
        site: str | None,
        board: SharedBoard,
        report: Callable[[str], None],
        name: str,
    ) -> None:
        """``report`` gets one line each time the connection comes or goes (for the log);
        ``name`` is the hub's, one per hub on a broker: its session there is kept by it."""
        self._login = login
        self._report = report
        self._site = site
        self._board = board
        self._client = new_client(login, f"atelier-hub-{name}", kept=True)
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_message = self._message
        self._client.on_connect_fail = self._unreachable
        self._told_unreachable = False

    def start(self) -> None:
        """Connect in the background: a broker not up yet is tried again and again."""
        address = self._login.address
        self._client.connect_async(address.host, address.port, keepalive=self._login.keepalive)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
        self._board.set_connected(False)

    def _connected(
        self, client: mqtt.Client, _data: Any, _flags: Any, reason: Any, _p: Any
    ) -> None:
        address = self._login.address
        if reason.is_failure:
            # paho tries again; the page says "not connected" meanwhile.
            self._report(f"the broker {address} refused the hub: {reason}")
            return
        client.subscribe([(topic, 1) for topic in hub_subscriptions(self._site)])
        self._told_unreachable = False
        self._board.set_connected(True)
        self._report(f"connected to the broker {address}")

    def _disconnected(self, _client: mqtt.Client, _data: Any, _f: Any, _r: Any, _p: Any) -> None:
        if self._board.connected:
            self._report(f"lost the broker {self._login.address}: reconnecting")
        self._board.set_connected(False)

    def _unreachable(self, _client: mqtt.Client, _data: Any) -> None:
        if not self._told_unreachable:  # once, not at every retry
            self._told_unreachable = True
            self._report(f"cannot reach the broker {self._login.address}: retrying")

    def _message(self, _client: mqtt.Client, _data: Any, message: mqtt.MQTTMessage) -> None:
        self._board.apply(message.topic, bytes(message.payload))
