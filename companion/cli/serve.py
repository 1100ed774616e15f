"""``atelier serve``: the table companion on the local network, with a join QR code."""

from __future__ import annotations

import argparse
import dataclasses
import re
import signal
import sys
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.broker_options import LOGIN_OPTIONS, add_broker_options, broker_login, site_name
from companion.cli.output import check_range
from companion.cli.serving import Stopping, lan_address, own_names, say
from companion.errors import AtelierError
from vision.live.stability import Settings

if TYPE_CHECKING:
    from companion.table.session import Tables
    from firmware_bridge.driver import DisplayDriver
    from web.broker.client import BrokerLogin
    from web.broker.publisher import Publisher

HELP = """\
Serve the table companion on the local network: start a table, scan boards from a phone, and
watch live scores on every phone and tablet. Prints the address and a QR code to open it.
Tables live in the data folder (--data, default ./instance) and survive a restart.

With --camera, --video or --demo a table is created at start and scored hands-free from what
the camera sees: a board's reading counts once it has held still with no hand over it. The demo
plays a scripted game of each of the four games in turn, each on a table of its own; the live
address it prints shows the scores of the game being played.

examples:
  atelier serve
  atelier serve --port 8080 --data ~/atelier-tables
  atelier serve --camera 0
  atelier serve --camera 0 --settle 0.3 --votes 7
  atelier serve --demo
  atelier serve --broker mqtt://hall.local --site spring-con

With --broker the tables are also published to an MQTT broker for a convention's leaderboard
(docs/broker.md): the tables are served all the same while the broker is away, and what it missed
is published once it is back.
"""
LED_MODES = ("auto", "emulator")
SERIAL_PORT = re.compile(r"COM[0-9]+", re.IGNORECASE)  # Windows names its ports so
# Threads answer requests (pages, the API, scans); live viewers hold none. The scanner reads one
# photo at a time, so more threads would only queue behind it.
THREADS = 16
STEADY = Settings()
DEFAULT_SITE = "atelier"
SETTLE_S = (0, 10)
VOTES = (3, 30)  # fewer than three frames cannot outvote one frame's flicker


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
        "--threads",
        type=int,
        default=THREADS,
        help=f"threads answering requests (default {THREADS}; live viewers hold none)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the server also answers to (repeat for more): besides this machine's "
        "addresses and names, the one a reverse proxy or a local DNS name gives it",
    )
    parser.add_argument(
        "--led",
        metavar="PORT|auto|emulator",
        help="keep LED score displays equal to the scoreboard: a serial port, the first display "
        "found, or an emulated one (shown as virtual digits on the scoreboard page)",
    )
    live = parser.add_mutually_exclusive_group()
    live.add_argument("--camera", type=int, metavar="N", help="score a table live from camera N")
    live.add_argument(
        "--video",
        metavar="FILE",
        help="score a table live from a video file, a folder of images or a stream URL",
    )
    live.add_argument(
        "--demo",
        action="store_true",
        help="score scripted games played on a rendered table: a live table with no camera",
    )
    parser.add_argument(
        "--settle",
        type=float,
        metavar="SECONDS",
        help="live: how long a board's reading must hold still before it counts "
        f"({SETTLE_S[0]:g}..{SETTLE_S[1]:g}, default {STEADY.hold_s:g})",
    )
    parser.add_argument(
        "--votes",
        type=int,
        metavar="N",
        help="live: how many recent clean frames vote on each component's value, more than half "
        f"of them agreeing ({VOTES[0]}..{VOTES[1]}, default {STEADY.window})",
    )
    add_broker_options(
        parser,
        f"with --broker: the event's name, the topics' first level (default {DEFAULT_SITE})",
        "also publish the tables to this MQTT broker",
    )
    parser.add_argument(
        "--server-name",
        metavar="NAME",
        help="with --broker: this server's name on it (default: one made for the data folder "
        "and kept in it)",
    )
    parser.set_defaults(run=run)


def steadiness(args: argparse.Namespace) -> Settings:
    """The stability filter's settings from ``--settle`` and ``--votes``, checked."""
    live = args.camera is not None or args.video is not None or args.demo
    settings = STEADY
    if args.settle is not None:
        if not live:
            raise AtelierError("--settle: only with --camera, --video or --demo")
        check_range(args.settle, *SETTLE_S, "--settle")
        settings = dataclasses.replace(settings, hold_s=args.settle)
    if args.votes is not None:
        if not live:
            raise AtelierError("--votes: only with --camera, --video or --demo")
        check_range(args.votes, *VOTES, "--votes")
        settings = dataclasses.replace(settings, window=args.votes)
    return settings


def check_led(choice: str) -> None:
    """Refuse a ``--led`` that is neither a mode nor a serial port's path (a typo such as
    ``emulater`` would serve with no display). A port not plugged in yet is taken: the driver
    connects once it appears."""
    if choice in LED_MODES or "/" in choice or SERIAL_PORT.fullmatch(choice):
        return
    raise AtelierError(
        f"--led: unknown choice {choice!r} (known: {', '.join(LED_MODES)}, "
        "or a serial port such as /dev/ttyACM0; 'atelier led list' finds them)"
    )


def run(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM, then close everything opened (the server's threads, the
    live source, the tables' database, the LED displays); every change was committed when it was
    made. SIGINT exits with 130 as an interrupted command does (``main`` reports it); SIGTERM is
    how a service manager stops a server, its normal end: 0."""
    with Stopping() as stopping:
        try:
            _serve(args, stopping)
        except KeyboardInterrupt:
            if stopping.received is None:
                raise
    if stopping.received == signal.SIGINT:
        raise KeyboardInterrupt
    if stopping.received == signal.SIGTERM:
        print("atelier: stopped", file=sys.stderr)
    return 0


def _serve(args: argparse.Namespace, stopping: Stopping) -> None:
    if not 1 <= args.port <= 65535:
        raise AtelierError(f"--port: {args.port} is out of range (1..65535)")
    if not 4 <= args.threads <= 1000:
        raise AtelierError(f"--threads: {args.threads} is out of range (4..1000)")
    settings = steadiness(args)
    if args.led is not None:
        check_led(args.led)
    broker = _broker(args)
    # Imported here so that other commands never load Flask, the server or OpenCV.
    from companion.cli.live import choose_source, start_live
    from companion.table.session import Tables
    from vision.photos import PhotoReader
    from web import create_app
    from web.front import create_server, raise_file_limit
    from web.qr import qr_text
    from web.services import services_of

    # A missing video fails here, before a data folder or a table is made for it.
    choice = choose_source(args.camera, args.video, args.demo)
    names = own_names(args.host, args.allow_host)
    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    url = f"http://{address}:{args.port}/"
    with ExitStack() as stack:
        driver, led_state = _led_driver(args.led, stack) if args.led else (None, None)
        # The tables before the app: the displays follow them and the live source feeds them.
        tables = Tables(args.data)
        # Closed last, once nothing writes: the log's write-ahead file is folded into the database.
        stack.callback(tables.close)
        if driver is not None:
            from firmware_bridge.follow import ScoreFollower

            tables.listen(ScoreFollower(tables, driver))
        live = None
        if choice is not None:
            live = start_live(tables, choice, settings=settings)
            stack.callback(live.stop)
        app = create_app(
            {
                "DATA_DIR": args.data,
                "PUBLIC_URL": url,
                "ALLOWED_HOSTS": names,
            },
            PhotoReader(),
            tables=tables,
            live=live,
            led_state=led_state,
        )
        # Live streams end at once: the server waits for requests under way, not for scoreboards.
        stopping.first(services_of(app).hub.close)
        first = live.fed()[0] if live is not None else None
        raise_file_limit()  # each live viewer is an open connection
        publisher = None if broker is None else _publisher(tables, args.data, broker, stack)
        try:
            server = create_server(app, host=args.host, port=args.port, threads=args.threads)
        except OSError as exc:
            raise AtelierError(f"--port {args.port}: cannot listen ({exc.strerror})") from None
        if publisher is not None:
            # Once the server listens: a server that cannot start is never announced online.
            # Whatever changed before is published all the same, on connecting.
            publisher.start()
        say(url, sys.stdout)
        if first is not None:
            # The scoreboard of the live table, following the live source from game to game,
            # with the token that lets a phone join the table.
            say(f"{url}live?token={first.token}", sys.stdout)
            camera = f"{url}live/camera?token={first.token}"  # follows, as the scoreboard
            say(f"What the camera sees: {camera}", sys.stderr)
        say(qr_text(url), sys.stderr)
        say(f"Atelier is serving {args.data} at {url} (Ctrl+C stops it)", sys.stderr)
        try:
            server.run()
        finally:
            server.close()


@dataclasses.dataclass(frozen=True)
class _Broker:
    login: BrokerLogin
    site: str
    server: str | None  # None: the data folder's own


def _broker(args: argparse.Namespace) -> _Broker | None:
    """The broker options, checked; None without ``--broker``."""
    if args.broker is None:
        for option in ("--site", "--server-name", *LOGIN_OPTIONS):
            if getattr(args, option[2:].replace("-", "_")) is not None:
                raise AtelierError(f"{option}: only with --broker")
        return None
    from web.broker.protocol import checked_name

    login = broker_login(args)
    site = site_name(args) or DEFAULT_SITE
    server = None if args.server_name is None else checked_name("--server-name", args.server_name)
    return _Broker(login, site, server)


def _publisher(tables: Tables, data: Path, broker: _Broker, stack: ExitStack) -> Publisher:
    """A publisher of ``tables`` to the broker, not started yet, closed when the server stops
    (before the tables: it reads their log)."""
    from web.broker.identity import server_name
    from web.broker.outbox import Outbox
    from web.broker.publisher import Connection, Publisher

    address = broker.login.address
    site = broker.site
    connection = Connection(broker.login, site, broker.server or server_name(data))
    outbox = Outbox(data, f"{address.host}:{address.port}/{site}")
    publisher = Publisher(
        tables, outbox, connection, lambda text: say(f"atelier: {text}", sys.stderr)
    )
    stack.callback(publisher.close)
    return publisher


def _led_driver(
    choice: str, stack: ExitStack
) -> tuple[DisplayDriver, Callable[[], Mapping[str, object]] | None]:
    """A running display driver for ``--led``, and for an emulator what its digits show (the
    web shows them too)."""
    from firmware_bridge.driver import DisplayDriver
    from firmware_bridge.emulator import Emulator, state_json
    from firmware_bridge.transport import SerialPort

    state: Callable[[], Mapping[str, object]] | None = None
    if choice == "emulator":
        emulator = stack.enter_context(Emulator())

        def shown() -> Mapping[str, object]:
            return state_json(emulator.state)

        state = shown
        port = emulator.path
        say(f"LED emulator on {port}", sys.stderr)
    elif choice == "auto":
        from companion.cli.led import resolve_port

        port = resolve_port("auto", timeout=1.0)
    else:
        port = choice
    return stack.enter_context(DisplayDriver(lambda: SerialPort(port))), state
