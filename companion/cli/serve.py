"""``atelier serve``: the table companion on the local network, with a join QR code."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any

from companion.errors import AtelierError

HELP = """\
Serve the table companion on the local network: start a table, scan boards from a phone, and
watch live scores on every phone and tablet. Prints the address and a QR code to open it.
Tables live in the data folder (--data, default ./instance) and survive a restart.

examples:
  atelier serve
  atelier serve --port 8080 --data ~/atelier-tables
"""
THREADS = 96  # each live viewer holds a thread: 50 viewers at one table, and room to act


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve",
        help="the table companion: web view on the LAN with a join QR code",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument(
        "--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)"
    )
    parser.add_argument(
        "--data", type=Path, default=Path("instance"), metavar="DIR", help="the data folder"
    )
    parser.add_argument(
        "--threads", type=int, default=THREADS, help=f"worker threads (default {THREADS})"
    )
    parser.set_defaults(run=run)


def lan_address() -> str:
    """This machine's IPv4 address on the local network, as its own name resolves (nothing is
    sent anywhere); the loopback address when it has no other."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = [str(entry[4][0]) for entry in found]
    return next((a for a in addresses if not a.startswith("127.")), "127.0.0.1")


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:
        raise AtelierError(f"--port: {args.port} is out of range (1..65535)")
    if not 4 <= args.threads <= 1000:
        raise AtelierError(f"--threads: {args.threads} is out of range (4..1000)")
    # Imported here so that other commands never load Flask, the server or OpenCV.
    from waitress.server import create_server

    from web import create_app
    from web.qr import qr_text

    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    url = f"http://{address}:{args.port}/"
    app = create_app({"DATA_DIR": args.data, "PUBLIC_URL": url})
    try:
        server = create_server(app, host=args.host, port=args.port, threads=args.threads)
    except OSError as exc:
        raise AtelierError(f"--port {args.port}: cannot listen ({exc.strerror})") from None
    print(url, flush=True)
    print(qr_text(url), file=sys.stderr)
    print(f"Atelier is serving {args.data} at {url} (Ctrl+C stops it)", file=sys.stderr)
    try:
        server.run()
    finally:
        server.close()
    return 0
