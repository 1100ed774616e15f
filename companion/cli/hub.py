"""``atelier hub``: the organisers' leaderboard of a convention, read from the MQTT broker the
tables publish to."""

from __future__ import annotations

import argparse
import re
import signal
import socket
import sys
from typing import Any

from companion.cli.broker_options import add_broker_options, broker_login, site_name
from companion.cli.serving import Stopping, lan_address, own_names, say
from companion.errors import AtelierError
from web.broker.protocol import checked_name

HELP = """\
Serve the organisers' leaderboard: every table of the hall (game, round, players, scores, and
whether its computer is online) and the standings per game across tables, live in the browser,
with a JSON API beside it (/api/tables, /api/standings). The hub reads only from the broker
the tables publish to (atelier serve --broker); it keeps nothing on disk and can be restarted
at any time. A broker that is not up yet, or goes away, is tried again in the background.
Prints the leaderboard's address on standard output (with --port 0, the port it got).

examples:
  atelier hub --broker mqtt://hall.local
  atelier hub --broker mqtt://hall.local --site spiel-2025 --port 8080
  atelier hub --broker mqtts://hall.local --broker-user hub --broker-password-file hub.pw
"""
DEFAULT_PORT = 8001
# Each open leaderboard page holds a thread (organisers' screens, not every phone in the hall:
# players watch their own table's server).
THREADS = 32


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "hub",
        help="the convention leaderboard across tables, from an MQTT broker",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_broker_options(parser, "show only this site's tables (default: every site on the broker)")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument(
        "--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)"
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the hub also answers to (repeat for more), as with atelier serve",
    )
    parser.add_argument(
        "--name",
        default=None,
        help="the hub's name on the broker, which keeps its session (the events published while "
        "it is away) under it; two hubs on one broker need two names (default: this machine's "
        "name and the site)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=THREADS,
        help=f"threads answering requests, one per open leaderboard page (default {THREADS})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM (SIGTERM, a service manager's stop, exits 0)."""
    if not 0 <= args.port <= 65535:
        raise AtelierError(f"--port: {args.port} is out of range (0..65535)")
    if not 4 <= args.threads <= 1000:
        raise AtelierError(f"--threads: {args.threads} is out of range (4..1000)")
    login = broker_login(args)
    site = site_name(args)
    name = checked_name("--name", args.name or default_name(site))
    names = own_names(args.host, args.allow_host)
    with Stopping() as stopping:
        try:
            _serve(args, login, site, name, names, stopping)
        except KeyboardInterrupt:
            if stopping.received is None:
                raise
    if stopping.received == signal.SIGINT:
        raise KeyboardInterrupt
    print("atelier: stopped", file=sys.stderr)
    return 0


def default_name(site: str | None) -> str:
    """This machine's name and the site, as one topic level (a hub per site and machine)."""
    machine = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname()).strip("-.") or "hub"
    return f"{machine}-{site or 'every-site'}"[:64]


def _serve(
    args: argparse.Namespace,
    login: Any,
    site: str | None,
    name: str,
    names: list[str],
    stopping: Stopping,
) -> None:
    # Imported here so that other commands never load Flask, paho or the server.
    from web.broker.board import SharedBoard
    from web.broker.hub_app import create_hub_app
    from web.broker.subscriber import Subscriber
    from web.front import create_server, raise_file_limit

    board = SharedBoard()
    app = create_hub_app(board, {"ALLOWED_HOSTS": names})
    stopping.first(board.close)  # open pages' streams end at once
    raise_file_limit()
    try:
        server = create_server(app, host=args.host, port=args.port, threads=args.threads)
    except OSError as exc:
        raise AtelierError(f"--port {args.port}: cannot listen ({exc.strerror})") from None
    subscriber = Subscriber(
        login, site, board, lambda line: say(f"atelier hub: {line}", sys.stderr), name
    )
    subscriber.start()
    try:
        address = lan_address() if args.host in ("0.0.0.0", "") else args.host
        url = f"http://{address}:{server.effective_port}/"
        say(url, sys.stdout)
        shown = f"site {site}" if site else "every site"
        say(
            f"The leaderboard of {shown} on {login.address} is at {url} (Ctrl+C stops it)",
            sys.stderr,
        )
        server.run()
    finally:
        board.close()
        server.close()
        subscriber.stop()
