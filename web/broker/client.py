"""A paho-mqtt client set up for the broker: its login, TLS, and how it retries."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from web.broker.protocol import BrokerAddress

KEEPALIVE_S = 15  # a vanished peer is noticed within 1.5 keepalives (its last will then goes)
RETRY_MIN_S = 1  # paho doubles the wait after each failed attempt, up to RETRY_MAX_S
RETRY_MAX_S = 30


@dataclass(frozen=True)
class BrokerLogin:
    """Where the broker is and how to log in: the address, the CA that signs its certificate
    (mqtts; None: the system's), and how often to say we are alive."""

    address: BrokerAddress
    ca: Path | None = None
    keepalive: int = KEEPALIVE_S


def new_client(login: BrokerLogin, client_id: str, *, kept: bool = False) -> mqtt.Client:
    """A client for ``login`` that reconnects by itself, waiting longer after each failure.
    A ``kept`` session outlives its connection: the broker holds the QoS 1 messages that arrive
    while the client is away and hands them over when it is back."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=not kept)
    address = login.address
    if address.username is not None:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        client.tls_set(ca_certs=str(login.ca) if login.ca else None)
    client.reconnect_delay_set(RETRY_MIN_S, RETRY_MAX_S)
    return client
