"""``atelier bench led``: from a score change to the LED display's write, on the real firmware."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.output import check_range, emit_json
from companion.errors import AtelierError

HELP = """\
Run the LED firmware in simavr behind a pty at 115200 baud, change the score again and again,
and time each change until the display's registers are written. JSON on standard output:
latency_ms_median, latency_ms_max, latency_in_frame_times (against the frame's own time on the
wire), lost. Needs Debian's simavr, libsimavr-dev, gcc-avr, avr-libc and binutils-avr.

examples:
  atelier bench led
  atelier bench led --changes 100
"""


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "led",
        help="LED displays: score change to display write, in simavr",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--changes", type=int, default=30, help="score changes to time (default 30)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.changes, 1, 1000, "--changes")
    from firmware_bridge.benchmark import run_led_bench
    from firmware_bridge.simulator import SimulatorUnavailableError

    try:
        results = run_led_bench(args.changes)
    except SimulatorUnavailableError as exc:
        raise AtelierError(f"bench led: {exc}") from None
    print(
        f"score change to display write: median {results['latency_ms_median']} ms, "
        f"max {results['latency_ms_max']} ms, {results['latency_in_frame_times']}x the frame's "
        f"{results['baseline_frame_on_wire_ms']} ms on the wire; {results['lost']} lost",
        file=sys.stderr,
    )
    return emit_json(results)
