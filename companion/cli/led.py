"""``atelier led``: find, test and drive the LED score displays, or emulate one."""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from companion.errors import AtelierError
from companion.words import plural

if TYPE_CHECKING:
    from firmware_bridge.link import Link
    from firmware_bridge.messages import Hello

HELP = """\
LED score displays on a serial port (an Arduino with up to four 8-digit MAX7219 modules; see
docs/led-displays.md). PORT is a serial port such as /dev/ttyACM0, or 'auto' for the first
display found.

  list      ports that look like a display, each asked for its HELLO (JSON)
  test      greet a display, light every segment, measure the link (JSON)
  show      show a text on the displays
  emulate   run a display on a pseudo-terminal: prints its path, then one JSON line per change

examples:
  atelier led list
  atelier led test /dev/ttyACM0
  atelier led show auto "HELLO" --brightness 4
  atelier led emulate
"""

PINGS = 20


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "led",
        help="find, test and drive LED score displays",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="find the displays")
    listing.add_argument(
        "--all", action="store_true", help="probe every serial port, not only USB boards"
    )
    listing.add_argument(
        "--timeout", type=float, default=3.0, help="seconds to wait for a HELLO (default 3)"
    )
    test = actions.add_parser("test", help="test a display and its link")
    test.add_argument("port", metavar="PORT")
    test.add_argument(
        "--hold", type=float, default=1.0, help="seconds to light every segment (default 1)"
    )
    test.add_argument(
        "--timeout", type=float, default=3.0, help="seconds to wait for a HELLO (default 3)"
    )
    show = actions.add_parser("show", help="show a text")
    show.add_argument("port", metavar="PORT")
    show.add_argument(
        "text", metavar="TEXT", help="up to 8 characters; a '.' lights a decimal point"
    )
    show.add_argument(
        "--display", type=int, default=None, help="only this display (1..4; default all)"
    )
    show.add_argument("--brightness", type=int, default=None, help="0..15")
    show.add_argument("--blink", action="store_true", help="blink the text")
    show.add_argument(
        "--timeout", type=float, default=3.0, help="seconds to wait for a HELLO (default 3)"
    )
    emulate = actions.add_parser("emulate", help="run a display on a pseudo-terminal")
    emulate.add_argument(
        "--displays", type=int, default=4, help="how many displays (1..4, default 4)"
    )
    for action in (listing, test, show, emulate):
        action.set_defaults(run=run)
    parser.set_defaults(run=run)


# fmt: on


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return run_list(args)
    if args.action == "emulate":
        return run_emulate(args)
    if not 0.1 <= args.timeout <= 60:
        raise AtelierError(f"--timeout: {args.timeout} is out of range (0.1..60)")
    if args.action == "test":
        return run_test(args)
    return run_show(args)


def run_list(args: argparse.Namespace) -> int:
    from firmware_bridge.discovery import discover

    probes = discover(everything=args.all, timeout=args.timeout)
    json.dump([p.to_json() for p in probes], sys.stdout, indent=2)
    sys.stdout.write("\n")
    found = sum(p.hello is not None for p in probes)
    print(f"{plural(found, 'display')} among {plural(len(probes), 'port')} probed", file=sys.stderr)
    return 0


def resolve_port(port: str, timeout: float) -> str:
    if port != "auto":
        return port
    from firmware_bridge.discovery import discover

    for probe in discover(timeout=timeout):
        if probe.hello is not None:
            return probe.candidate.port
    raise AtelierError("no LED display found ('atelier led list --all' shows every serial port)")


def _connect(port: str, timeout: float) -> tuple[Link, Hello]:
    from firmware_bridge.link import Link, NoAnswerError
    from firmware_bridge.transport import PortBusyError, PortGoneError, SerialPort

    try:
        link = Link(SerialPort(port))
    except (PortBusyError, PortGoneError) as exc:
        raise AtelierError(str(exc)) from None
    try:
        return link, link.hello(timeout)
    except (NoAnswerError, PortGoneError) as exc:
        link.port.close()
        raise AtelierError(f"{port}: no LED display answered ({exc})") from None


def run_test(args: argparse.Namespace) -> int:
    from firmware_bridge import messages
    from firmware_bridge.link import NoAnswerError, RefusedError
    from firmware_bridge.transport import PortGoneError

    port = resolve_port(args.port, args.timeout)
    link, hello = _connect(port, args.timeout)
    try:
        for display in range(hello.displays):
            link.request(messages.text(display, "8." * hello.digits))
        link.request(messages.brightness(messages.BRIGHTNESS_MAX))
        time.sleep(max(args.hold, 0.0))
        for display in range(hello.displays):
            link.request(messages.text(display, f"P{display + 1}"))
        link.request(messages.brightness(messages.BRIGHTNESS_DEFAULT))
        rounds = []
        for _ in range(PINGS):
            start = time.perf_counter()
            link.request(messages.ping())
            rounds.append((time.perf_counter() - start) * 1000)
        device = messages.parse_stats(link.request(messages.stats_request()).body)
    except (NoAnswerError, PortGoneError, RefusedError, messages.BodyError) as exc:
        raise AtelierError(f"{port}: the display stopped answering ({exc})") from None
    finally:
        link.port.close()
    median = round(statistics.median(rounds), 2)
    report = {
        "port": port,
        "display": hello.to_json(),
        "round_trip_ms": {
            "min": round(min(rounds), 2),
            "median": median,
            "max": round(max(rounds), 2),
        },
        "link": link.stats.to_json(),
        "device_link": device.to_json(),
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    print(
        f"{port}: device {hello.device_id:08x}, firmware {hello.firmware[0]}.{hello.firmware[1]},"
        f" {plural(hello.displays, 'display')}; round trip {median} ms",
        file=sys.stderr,
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    from firmware_bridge import messages
    from firmware_bridge.link import NoAnswerError, RefusedError
    from firmware_bridge.segments import shown_text, unsupported
    from firmware_bridge.transport import PortGoneError

    bad = unsupported(args.text)
    if bad is not None:
        raise AtelierError(
            f"TEXT: the displays cannot show {bad!r} (they show A-Z, 0-9, space, - = _ "
            "and . for a decimal point)"
        )
    if len(args.text) > messages.TEXT_MAX:
        raise AtelierError(f"TEXT: at most {messages.TEXT_MAX} characters, not {len(args.text)}")
    if args.brightness is not None and not 0 <= args.brightness <= messages.BRIGHTNESS_MAX:
        raise AtelierError(f"--brightness: {args.brightness} is out of range (0..15)")
    port = resolve_port(args.port, args.timeout)
    link, hello = _connect(port, args.timeout)
    try:
        if args.display is None:
            targets = list(range(hello.displays))
        elif 1 <= args.display <= hello.displays:
            targets = [args.display - 1]
        else:
            raise AtelierError(
                f"--display: {args.display} is out of range (this device has 1..{hello.displays})"
            )
        for display in targets:
            link.request(messages.text(display, args.text))
        if args.brightness is not None:
            link.request(messages.brightness(args.brightness))
        blink = sum(1 << d for d in targets) if args.blink else 0
        link.request(messages.marks(0, blink))
    except (NoAnswerError, PortGoneError, RefusedError) as exc:
        raise AtelierError(f"{port}: the display stopped answering ({exc})") from None
    finally:
        link.port.close()
    shown = shown_text(args.text)
    json.dump({"port": port, "displays": [d + 1 for d in targets], "shown": shown}, sys.stdout)
    sys.stdout.write("\n")
    return 0


def run_emulate(args: argparse.Namespace) -> int:
    from firmware_bridge.device import DisplayState
    from firmware_bridge.emulator import Emulator, state_json
    from firmware_bridge.messages import MAX_DISPLAYS

    if not 1 <= args.displays <= MAX_DISPLAYS:
        raise AtelierError(f"--displays: {args.displays} is out of range (1..{MAX_DISPLAYS})")

    def changed(state: DisplayState) -> None:
        sys.stdout.write(json.dumps(state_json(state)) + "\n")
        sys.stdout.flush()

    with Emulator(displays=args.displays, on_change=changed) as emulator:
        print(emulator.path, flush=True)
        print(
            f"emulating {plural(args.displays, 'display')} on {emulator.path}; Ctrl-C ends",
            file=sys.stderr,
        )
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0
