"""What goes over the broker, in one place: the broker's address, the topics and the payloads.

Topics, under ``atelier/<site>/``:

- ``servers/<server>/status`` (retained): ``{"v": 1, "server", "online": true|false, "at"}``;
  the broker itself publishes ``online: false`` as the server's last will when it vanishes.
- ``tables/<table>/state`` (retained, QoS 1): ``{"v": 1, "server", "table", "seq", "at",
  "scores"}``, where ``scores`` is the table's public scoreboard (the JSON every watcher gets)
  and ``seq`` the id of the last event it counts. An empty retained payload: the table is gone.
- ``tables/<table>/events`` (QoS 1): ``{"v": 1, "id", "server", "table", "seq", "kind",
  "summary", "at"}``, one per event of the log, in order; ``id`` (``<table>/<seq>``) makes a
  replay harmless.

No payload ever holds a join token.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from companion.errors import AtelierError

VERSION = 1
ROOT = "atelier"
DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
# A site or server name is one topic level: no wildcard, no separator, nothing a shell mangles.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class BrokerError(AtelierError):
    """A broker address or name that cannot be used."""


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker listens, and how to log in: ``mqtt://[user[:password]@]host[:port]``,
    or ``mqtts://`` for TLS."""

    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None

    def __str__(self) -> str:
        # Never the password: the address is printed and logged.
        who = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{who}{self.host}:{self.port}"


def parse_broker(url: str) -> BrokerAddress:
    """The broker at ``url``; a one-line error naming what is wrong with it."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise BrokerError(f"--broker: {url!r} is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    port_error = f"--broker: the port of {url!r} is not a number from 1 to 65535"
    try:
        port = parts.port
    except ValueError:
        raise BrokerError(port_error) from None
    if port == 0:  # urlsplit takes it; no broker listens there
        raise BrokerError(port_error)
    if not parts.hostname:
        raise BrokerError(f"--broker: {url!r} names no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BrokerError(f"--broker: {url!r} has more than mqtt://HOST[:PORT]")
    tls = parts.scheme == "mqtts"
    return BrokerAddress(
        host=parts.hostname,
        port=port or (DEFAULT_TLS_PORT if tls else DEFAULT_PORT),
        tls=tls,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )


def checked_name(what: str, name: str) -> str:
    """``name`` if it can be one topic level, else a one-line error naming ``what``."""
    if not NAME.fullmatch(name):
        raise BrokerError(
            f"{what}: {name!r} must be 1 to 64 letters, digits, '-', '_' or '.', "
            "starting with a letter or digit"
        )
    return name


def server_status_topic(site: str, server: str) -> str:
    return f"{ROOT}/{site}/servers/{server}/status"


def table_state_topic(site: str, table: str) -> str:
    return f"{ROOT}/{site}/tables/{table}/state"


def table_events_topic(site: str, table: str) -> str:
    return f"{ROOT}/{site}/tables/{table}/events"


def hub_subscriptions(site: str | None) -> tuple[str, ...]:
    """What the hub subscribes to: one site's servers and tables, or every site's."""
    level = site or "+"
    return (
        f"{ROOT}/{level}/servers/+/status",
        f"{ROOT}/{level}/tables/+/state",
        f"{ROOT}/{level}/tables/+/events",
    )


@dataclass(frozen=True)
class Topic:
    """A topic the hub receives, taken apart: ``kind`` is status, state or events; ``name`` the
    server's or the table's."""

    site: str
    kind: str
    name: str


def parse_topic(topic: str) -> Topic | None:
    """The parts of one of our topics; None for any other."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT:
        return None
    _, site, group, name, leaf = parts
    if (group, leaf) == ("servers", "status"):
        return Topic(site, "status", name)
    if group == "tables" and leaf in ("state", "events"):
        return Topic(site, leaf, name)
    return None


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **payload}, separators=(",", ":")).encode()


def status_payload(server: str, online: bool, at: float) -> bytes:
    return encode({"server": server, "online": online, "at": at})


def state_payload(server: str, table: str, seq: int, at: float, scores: dict[str, Any]) -> bytes:
    return encode({"server": server, "table": table, "seq": seq, "at": at, "scores": scores})


def event_payload(server: str, table: str, seq: int, kind: str, summary: str, at: float) -> bytes:
    return encode(
        {
            "id": f"{table}/{seq}",
            "server": server,
            "table": table,
            "seq": seq,
            "kind": kind,
            "summary": summary,
            "at": at,
        }
    )


def decode(payload: bytes) -> dict[str, Any] | None:
    """A payload of ours (an object of our version); None for anything else, which the hub
    ignores rather than trusts: any client of the broker may publish."""
    try:
        found = json.loads(payload)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("v") != VERSION:
        return None
    return found
