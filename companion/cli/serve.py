"""``atelier serve``: the table companion on the local network, with a join QR code."""

from __future__ import annotations

import argparse
import socket
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import AtelierError

if TYPE_CHECKING:
    from firmware_bridge.driver import DisplayDriver

HELP = """\
Serve the table companion on the local network: start a table, scan boards from a phone, and
watch live scores on every phone and tablet. Prints the address and a QR code to open it.
Tables live in the data folder (--data, default ./instance) and survive a restart.

With --camera, --video or --demo a table is created at start and scored hands-free from what
the camera sees: a board's reading counts once it has held still with no hand over it.

examples:
  atelier serve
  atelier serve --port 8080 --data ~/atelier-tables
  atelier serve --camera 0
  atelier serve --demo
"""
SIOCGIFADDR = 0x8915  # Linux: get an interface's address
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
        help="score a scripted game played on a rendered table: a live table with no camera",
    )
    parser.set_defaults(run=run)


def _interface_addresses() -> list[str]:
    """The IPv4 address of each network interface (Linux), read from the kernel: nothing is
    sent anywhere."""
    import fcntl
    import struct

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:
                continue  # an interface without an IPv4 address
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def lan_address() -> str:
    """This machine's IPv4 address on the local network, the one a phone can reach; the
    loopback address when it has no other."""
    try:
        addresses = _interface_addresses()
    except (OSError, ImportError, AttributeError):
        addresses = []
    if not addresses:
        try:
            found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            addresses = [str(entry[4][0]) for entry in found]
        except OSError:
            addresses = []
    return next((a for a in addresses if not a.startswith("127.")), "127.0.0.1")


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:
        raise AtelierError(f"--port: {args.port} is out of range (1..65535)")
    if not 4 <= args.threads <= 1000:
        raise AtelierError(f"--threads: {args.threads} is out of range (4..1000)")
    # Imported here so that other commands never load Flask, the server or OpenCV.
    from waitress.server import create_server

    from companion.cli.live import choose_source, live_view, start_live
    from web import create_app
    from web.qr import qr_text
    from web.services import services_of

    # A missing video fails here, before a data folder or a table is made for it.
    live = choose_source(args.camera, args.video, args.demo)
    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    url = f"http://{address}:{args.port}/"
    with ExitStack() as stack:
        config: dict[str, Any] = {"DATA_DIR": args.data, "PUBLIC_URL": url}
        driver = _led_driver(args.led, stack, config) if args.led else None
        app = create_app(config)
        if driver is not None:
            from firmware_bridge.follow import ScoreFollower

            tables = services_of(app).tables
            tables.listen(ScoreFollower(tables, driver))
        created = None
        if live is not None:
            loop, created = start_live(services_of(app).tables, live)
            stack.callback(loop.stop)
            app.config["LIVE_VIEW"] = live_view(loop, created.table)
        try:
            server = create_server(app, host=args.host, port=args.port, threads=args.threads)
        except OSError as exc:
            raise AtelierError(f"--port {args.port}: cannot listen ({exc.strerror})") from None
        print(url, flush=True)
        if created is not None:
            # The live table's scoreboard, with the token that lets a phone join it.
            print(f"{url}t/{created.table}?token={created.token}", flush=True)
            camera = f"{url}t/{created.table}/camera?token={created.token}"
            print(f"What the camera sees: {camera}", file=sys.stderr)
        print(qr_text(url), file=sys.stderr)
        print(f"Atelier is serving {args.data} at {url} (Ctrl+C stops it)", file=sys.stderr)
        try:
            server.run()
        finally:
            server.close()
    return 0


def _led_driver(choice: str, stack: ExitStack, config: dict[str, Any]) -> DisplayDriver:
    """A running display driver for ``--led``; an emulator also lends its digits to the web."""
    from firmware_bridge.driver import DisplayDriver
    from firmware_bridge.emulator import Emulator, state_json
    from firmware_bridge.transport import SerialPort

    if choice == "emulator":
        emulator = stack.enter_context(Emulator())
        config["LED_STATE"] = lambda: state_json(emulator.state)
        port = emulator.path
        print(f"LED emulator on {port}", file=sys.stderr)
    elif choice == "auto":
        from companion.cli.led import resolve_port

        port = resolve_port("auto", timeout=1.0)
    else:
        port = choice
    return stack.enter_context(DisplayDriver(lambda: SerialPort(port)))
