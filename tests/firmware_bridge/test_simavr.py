"""End to end: the real firmware image in simavr, the host driver on its UART through a pty,
and the digits decoded from what the firmware clocked into the MAX7219 chain."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from firmware_bridge.driver import DisplayDriver, DriverConfig
from firmware_bridge.scene import Scene
from firmware_bridge.simulator import Build, SimulatedBoard
from firmware_bridge.transport import Port, SerialPort
from tests.cli import atelier
from tests.firmware_bridge.faults import FaultyPort, Timeline, expected

CONFIG = DriverConfig()
BLANK = ("        ",) * 4


@pytest.fixture
def board(firmware: Build, tmp_path: Path):
    with SimulatedBoard(firmware, tmp_path / "ttyLED") as b:
        yield b


def opener(board: SimulatedBoard):
    return lambda: SerialPort(str(board.link))


def test_the_firmware_starts_blank_and_shows_scores_texts_and_looks(board):
    assert board.wait_showing(BLANK, 5.0)
    with DisplayDriver(opener(board)) as driver:
        driver.show(Scene((42, -1234, "HELLO", 7), brightness=3, highlight=frozenset({3})))
        assert driver.wait_shown(5.0)
        want = ("      42", "   -1234", "HELLO   ", "       7")
        assert board.wait(
            lambda: board.displays == want and board.history[-1].intensities == (3, 3, 3, 15), 2.0
        )
        hello = driver.status.hello
        assert hello is not None
        assert (hello.device_id, hello.displays, hello.digits, hello.firmware) == (1, 4, 8, (1, 0))


def test_blinking_alternates_blank_and_text(board):
    with DisplayDriver(opener(board)) as driver:
        driver.show(Scene(("on", 1), blink=frozenset({0})))
        assert driver.wait_shown(5.0)
        time.sleep(1.1)
        seen = {shown.displays for shown in board.history[-4:]}
    assert seen == {
        ("ON      ", "       1", BLANK[2], BLANK[3]),
        (BLANK[0], "       1", BLANK[2], BLANK[3]),
    }


def timeline_of(board: SimulatedBoard, timeline: Timeline) -> None:
    for shown in board.history:
        timeline.saw(shown.displays, shown.at_ns / 1e9)


@pytest.mark.slow
def test_noise_resets_mid_frame_and_unplugging(board):
    rng = random.Random(7)
    timeline = Timeline(4)
    ports: list[FaultyPort] = []

    def faulty() -> Port:
        ports.append(FaultyPort(SerialPort(str(board.link)), random.Random(8), 0.01, 0.003))
        return ports[-1]

    with DisplayDriver(faulty) as driver:
        assert driver.wait_connected(5.0).connected
        for n in range(60):
            scene = Scene((rng.randrange(1000), n, rng.randrange(50), n % 7))
            timeline.want(scene)
            driver.show(scene)
            if n in (12, 40):
                board.command(f"reset-after {rng.randrange(3, 20)}")  # restarts mid-frame
            if n == 25:
                ports[-1].garbage(100)
            if n == 30:
                board.unplug()
                time.sleep(0.3)
                board.replug()
            time.sleep(rng.uniform(0.01, 0.06))
        assert driver.wait_shown(15.0)
        assert board.wait_showing(expected(scene, 4), 3.0)
        stats = driver.stats
    timeline_of(board, timeline)
    assert board.resets >= 3
    assert stats.device_restarts >= 2
    assert stats.link_losses >= 1
    assert stats.retransmits > 0
    assert timeline.never_invented() == []
    # Unplugged, the board is dark while it is away (0.3 s); beyond that, one retry cycle at most.
    assert timeline.longest_wrong(time.monotonic()) < 0.3 + CONFIG.retry_cycle


@pytest.mark.slow
def test_bench_led_times_score_changes_through_the_simulator(firmware: Build) -> None:
    run = atelier("bench", "led", "--changes", "5")
    assert run.status == 0, run.stderr
    data = json.loads(run.stdout)
    assert (data["suite"], data["changes"], data["lost"]) == ("led", 5, 0)
    assert data["latency_ms_median"] > data["baseline_frame_on_wire_ms"] > 0
    assert "score change to display write" in run.stderr
