"""The name a table server goes by on the broker: made once per data folder and kept in it, so
that a restart (or a new address from the hall's DHCP) is the same server, online again."""

from __future__ import annotations

import re
import secrets
import socket
from pathlib import Path

from companion.errors import AtelierError
from web.broker.protocol import NAME, checked_name

SERVER_FILE = "broker-server-name"
NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def server_name(folder: Path) -> str:
    """The data folder's server name, made from this machine's name (and a few random
    characters, for two machines named alike) the first time."""
    path = folder / SERVER_FILE
    try:
        kept = path.read_text().strip()
    except FileNotFoundError:
        kept = ""
    except OSError as exc:
        raise AtelierError(f"{path}: cannot read ({exc.strerror})") from None
    if kept:
        return checked_name(str(path), kept)
    host = NOT_IN_A_NAME.sub("-", socket.gethostname()).strip("-._")[:48] or "table"
    name = f"{host}-{secrets.token_hex(3)}"
    if not NAME.fullmatch(name):
        name = f"table-{secrets.token_hex(3)}"
    try:
        path.write_text(f"{name}\n")
    except OSError as exc:
        raise AtelierError(f"{path}: cannot write ({exc.strerror})") from None
    return name
