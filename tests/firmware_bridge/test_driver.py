"""The host driver against the emulator: coalescing, faults, restarts and a vanishing port."""

from __future__ import annotations

import random
import threading
import time

import pytest

from firmware_bridge.device import DisplayState
from firmware_bridge.driver import DisplayDriver, DriverConfig
from firmware_bridge.emulator import Emulator
from firmware_bridge.scene import Scene
from firmware_bridge.segments import read_cells
from firmware_bridge.transport import Port, PortGoneError, SerialPort
from tests.firmware_bridge.faults import FaultyPort, Timeline, expected

CONFIG = DriverConfig()


def read(state: DisplayState) -> tuple[str, ...]:
    return tuple(read_cells(cells) for cells in state.cells)


class Bench:
    """An emulator whose every change lands in a timeline."""

    def __init__(self, displays: int = 4) -> None:
        self.timeline = Timeline(displays)
        self.displays = displays
        self.emulator = self._new()

    def _new(self) -> Emulator:
        emulator = Emulator(displays=self.displays, on_change=lambda s: self.timeline.saw(read(s)))
        emulator.start()
        return emulator

    def replug(self) -> None:
        self.emulator.close()
        self.timeline.saw(("        ",) * self.displays)
        self.emulator = self._new()

    def opener(self) -> Port:
        return SerialPort(self.emulator.path)


@pytest.fixture
def bench():
    b = Bench()
    yield b
    b.emulator.close()


def test_shows_a_scene_and_reads_back_exactly(bench):
    with DisplayDriver(bench.opener) as driver:
        driver.show(Scene((42, -7, "P3", 100_000_000), brightness=3, blink=frozenset({2})))
        assert driver.wait_shown(5.0)
        state = bench.emulator.state
        assert read(state) == ("      42", "      -7", "P3      ", "--------")
        assert (state.brightness, state.highlight, state.blink) == (3, 0, 0b0100)
        assert driver.status.hello is not None
        assert driver.status.hello.device_id == 0x454D5501


def returns(call, limit: float = 5.0) -> bool:
    """Whether ``call`` comes back at all: a guard against a deadlock, not a speed claim."""
    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(limit)
    return not worker.is_alive()


def test_show_never_waits_and_coalesces_to_the_newest(bench):
    with DisplayDriver(bench.opener) as driver:
        assert driver.wait_connected(5.0).connected

        # show() only stores the scene: 500 calls finish however slow the link is.
        def burst() -> None:
            for k in range(500):
                driver.show(Scene((k, 2 * k)))

        assert returns(burst)
        assert driver.wait_shown(5.0)
        assert read(bench.emulator.state)[:2] == ("     499", "     998")
        assert driver.stats.requests < 50


def test_show_does_not_wait_for_a_device_that_never_answers():
    silent = Emulator()  # never started: its port exists but nothing answers
    try:
        config = DriverConfig(hello_timeout=0.3)
        with DisplayDriver(lambda: SerialPort(silent.path), config) as driver:
            assert returns(lambda: driver.show(Scene((1,))))
            assert not driver.wait_shown(0.8)
            status = driver.status
            assert not status.connected
            assert status.last_error is not None
            assert "no answer" in status.last_error
    finally:
        silent.close()


def play(driver: DisplayDriver, bench: Bench, rng: random.Random, changes: int, between=None):
    for n in range(changes):
        scene = Scene((rng.randrange(200), rng.randrange(200), n, "P4" if n % 2 else "-"))
        bench.timeline.want(scene)
        driver.show(scene)
        time.sleep(rng.uniform(0.002, 0.03))
        if between is not None:
            between(n)
    assert driver.wait_shown(10.0)
    final = expected(scene, bench.displays)
    deadline = time.monotonic() + 2.0
    while read(bench.emulator.state) != final and time.monotonic() < deadline:
        time.sleep(0.01)
    assert read(bench.emulator.state) == final


def check(bench: Bench) -> None:
    assert bench.timeline.never_invented() == []
    assert bench.timeline.longest_wrong(time.monotonic()) < CONFIG.retry_cycle


def test_one_percent_corruption_dropped_bytes_and_garbage_bursts(bench):
    rng = random.Random(10)
    ports: list[FaultyPort] = []

    def opener() -> Port:
        ports.append(FaultyPort(bench.opener(), random.Random(11), corrupt=0.01, drop=0.003))
        return ports[-1]

    def burst(n: int) -> None:
        if n % 15 == 7:
            ports[-1].garbage(rng.randrange(5, 120))

    with DisplayDriver(opener) as driver:
        assert driver.wait_connected(5.0).connected
        play(driver, bench, rng, 150, burst)
        stats = driver.stats
    check(bench)
    assert sum(p.corrupted for p in ports) > 0 and sum(p.dropped for p in ports) > 0
    assert stats.retransmits > 5
    # How many bytes are damaged on the way in depends on how much the device says, which
    # timing varies; each damaged frame is refused, and two damaged bytes seldom share one.
    damaged = sum(p.damaged_in for p in ports)
    assert damaged > 0
    assert stats.crc_errors + stats.framing_errors >= damaged / 2


def test_a_device_restart_is_noticed_and_everything_sent_again(bench):
    rng = random.Random(3)
    with DisplayDriver(bench.opener) as driver:
        assert driver.wait_connected(5.0).connected

        def restart(n: int) -> None:
            if n in (10, 25):
                bench.emulator.restart()

        play(driver, bench, rng, 40, restart)
        driver.show(Scene((5, 6), brightness=2))
        assert driver.wait_shown(5.0)
        bench.emulator.restart()  # while idle: the keepalive or the announcement notices it
        deadline = time.monotonic() + 3 * CONFIG.keepalive
        while bench.emulator.state.brightness != 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert read(bench.emulator.state)[:2] == ("       5", "       6")
        assert bench.emulator.state.brightness == 2
        assert driver.stats.device_restarts == 3


def test_a_vanished_port_is_reopened_and_the_whole_scene_sent(bench):
    rng = random.Random(4)
    with DisplayDriver(bench.opener) as driver:
        assert driver.wait_connected(5.0).connected

        def unplug(n: int) -> None:
            if n == 15:
                bench.replug()

        play(driver, bench, rng, 30, unplug)
        assert driver.stats.link_losses == 1
        assert driver.stats.connects == 2


def test_a_port_that_fails_to_open_is_retried():
    attempts = []
    emulator = Emulator()
    emulator.start()

    def opener() -> Port:
        attempts.append(time.monotonic())
        if len(attempts) < 3:
            raise PortGoneError("not plugged in yet")
        return SerialPort(emulator.path)

    try:
        with DisplayDriver(opener, DriverConfig(reconnect_delay=0.05)) as driver:
            driver.show(Scene((8,)))
            assert driver.wait_shown(5.0)
            assert len(attempts) == 3
            assert read(emulator.state)[0] == "       8"
    finally:
        emulator.close()


def test_close_stops_the_worker_promptly(bench):
    driver = DisplayDriver(bench.opener)
    driver.start()
    driver.show(Scene((1,)))
    assert driver.wait_shown(5.0)
    assert returns(driver.close)
    assert not any(t.name == "led-driver" and t.is_alive() for t in threading.enumerate())
