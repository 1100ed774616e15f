"""``atelier bench led``: latency from a score change to the firmware's write to its displays.

The real firmware image runs in simavr behind a pty at 115200 baud; the host driver sends each
change and the simulator logs when the MAX7219 chain shows it. The baseline, measured in the same
run, is the time one SCORES frame takes on the wire at that speed, so the ratio says how much the
driver, the firmware and the display refresh add to the bare transfer.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_bridge.driver import DisplayDriver
from firmware_bridge.frames import Frame, encode_frame
from firmware_bridge.messages import scores
from firmware_bridge.scene import Scene
from firmware_bridge.simulator import SimulatedBoard, build
from firmware_bridge.transport import BAUD, SerialPort

BITS_PER_BYTE = 10  # 8N1: a start bit, eight data bits, a stop bit
WAIT_S = 2.0  # a change not shown by then counts as lost


def run_led_bench(changes: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        firmware = build(Path(folder) / "build")
        with SimulatedBoard(firmware, Path(folder) / "ttyLED") as board:
            latencies: list[float] = []
            lost = 0
            with DisplayDriver(lambda: SerialPort(str(board.link))) as driver:
                driver.show(Scene((0, 0)))
                driver.wait_shown(5.0)
                for n in range(1, changes + 1):
                    time.sleep(0.05)
                    start = time.monotonic_ns()
                    driver.show(Scene((n, 0)))
                    want = f"{n:>8}"

                    def arrived(want: str = want, start: int = start) -> bool:
                        recent = board.history[-3:]
                        return any(s.displays[0] == want and s.at_ns >= start for s in recent)

                    if not board.wait(arrived, WAIT_S):
                        lost += 1
                        continue
                    shown = next(
                        s for s in board.history if s.displays[0] == want and s.at_ns >= start
                    )
                    latencies.append((shown.at_ns - start) / 1e6)
    request = scores((changes, 0))
    frame = encode_frame(Frame(request.type, 1, request.body))
    wire_ms = len(frame) * BITS_PER_BYTE / BAUD * 1000
    median = statistics.median(latencies) if latencies else float("nan")
    return {
        "suite": "led",
        "changes": changes,
        "lost": lost,
        "latency_ms_median": round(median, 2),
        "latency_ms_max": round(max(latencies), 2) if latencies else None,
        "baseline_frame_on_wire_ms": round(wire_ms, 3),
        "latency_in_frame_times": round(median / wire_ms, 2) if latencies else None,
    }
