"""What the app's views share, held by the app itself (never by the module): the tables of the
data folder, the hub of live streams, the photo reader and the slots of the photos it reads at
once, the stream timings, the live source and the LED displays when the server has them, the
names it answers to, the limits on creating tables and guessing codes, the tables' short codes
and the phones asking to join."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask import Flask, current_app

from companion.reading import Live, TableReader
from companion.table.session import Tables
from web.access import Hosts, RateLimit
from web.codes import TableCodes
from web.hub import Hub
from web.seat_requests import JoinRequests

KEY = "atelier"


@dataclass(frozen=True)
class Services:
    tables: Tables
    hub: Hub
    reader: TableReader
    keepalive: float  # seconds between keep-alive comments on a quiet stream
    stream_seconds: float  # a stream ends after this long; the browser reconnects and catches up
    live: Live | None  # the source feeding tables hands-free (``atelier serve --camera``)
    led_state: Callable[[], Mapping[str, object]] | None  # what emulated LED displays show
    hosts: Hosts  # the names the server answers to
    creations: RateLimit  # how fast each client may create tables
    photo_slots: threading.BoundedSemaphore  # one per photo read (decoded and scanned) at once
    photo_wait_s: float  # how long a photo waits for a slot before it is refused (503)
    codes: TableCodes  # each table's short code, from the server's secret key
    guesses: RateLimit  # how fast each client may try table codes
    join_requests: JoinRequests  # phones waiting for a player to let them join


def install(app: Flask, services: Services) -> None:
    app.extensions[KEY] = services


def services() -> Services:
    found: Services = current_app.extensions[KEY]
    return found


def services_of(app: Flask) -> Services:
    """The services of an app outside a request (the server's start-up wires listeners)."""
    found: Services = app.extensions[KEY]
    return found
