"""Discovery by USB ids confirmed by HELLO, and the ``atelier led`` commands on the emulator."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from serial.tools.list_ports_common import ListPortInfo

from companion.cli.main import main
from firmware_bridge.discovery import candidates, discover
from firmware_bridge.emulator import Emulator
from firmware_bridge.link import Link


def port_info(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    info.description = "test port"
    return info


def test_only_known_usb_boards_are_candidates():
    ports = [
        port_info("/dev/ttyACM0", 0x2341, 0x0043),  # Arduino Uno
        port_info("/dev/ttyUSB0", 0x1A86, 0x7523),  # CH340 Nano clone
        port_info("/dev/ttyUSB1", 0x1A86, 0x5523),  # another CH34x product: not ours
        port_info("/dev/ttyS0", None, None),  # a built-in serial port
        port_info("/dev/ttyUSB2", 0x0403, 0x6001),  # FTDI
    ]
    assert [c.port for c in candidates(ports)] == ["/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyUSB2"]
    assert len(candidates(ports, everything=True)) == 5


def test_a_display_is_confirmed_and_a_silent_port_reported():
    with Emulator(displays=2) as display:
        silent = Emulator()  # its port exists, nothing answers
        try:
            probes = discover(
                [port_info(display.path, 0x2341, 0x43), port_info(silent.path, 0x2341, 0x43)],
                timeout=0.3,
            )
        finally:
            silent.close()
    by_port = {p.candidate.port: p.to_json() for p in probes}
    assert by_port[display.path]["display"] == {
        "device_id": "454d5501",
        "firmware": "1.0",
        "protocol": 1,
        "displays": 2,
        "digits": 8,
    }
    assert by_port[display.path]["problem"] is None
    assert by_port[silent.path]["display"] is None
    assert by_port[silent.path]["problem"] == "no answer to HELLO within 0.3 s"


def test_led_show_and_test(capsys):
    with Emulator() as emulator:
        assert main(["led", "show", emulator.path, "gO.", "--display", "2", "--blink"]) == 0
        assert json.loads(capsys.readouterr().out) == {
            "port": emulator.path,
            "displays": [2],
            "shown": "GO.      ",
        }
        assert emulator.state.blink == 0b10
        assert main(["led", "test", emulator.path, "--hold", "0"]) == 0
        report = json.loads(capsys.readouterr().out)
    assert report["display"]["device_id"] == "454d5501"
    assert report["link"]["requests"] == 1 + 4 + 1 + 4 + 1 + 20 + 1
    # The device counts every whole frame it received: each of this test's, resent ones included
    # (a reply late on a busy machine is asked for again), and the three of the 'show' before
    # (HELLO, TEXT, MARKS), each of which may have been resent too.
    sent = report["link"]["requests"] + report["link"]["retransmits"]
    show = report["device_link"]["frames_ok"] - sent
    assert 3 <= show <= 3 * (1 + Link.retries)
    assert report["round_trip_ms"]["min"] <= report["round_trip_ms"]["max"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["led", "show", "PORT", "hi!"], "atelier: TEXT: the displays cannot show '!'"),
        (["led", "show", "PORT", "x", "--brightness", "16"], "--brightness: 16 is out of range"),
        (["led", "show", "/nonexistent/tty", "x"], "atelier: /nonexistent/tty: could not open"),
        (["led", "emulate", "--displays", "5"], "--displays: 5 is out of range (1..4)"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_a_busy_port_is_a_mistake_too(capsys):
    from firmware_bridge.transport import SerialPort

    with Emulator() as emulator:
        holder = SerialPort(emulator.path)
        try:
            assert main(["led", "show", emulator.path, "x"]) == 2
        finally:
            holder.close()
    assert "the port is busy" in capsys.readouterr().err


def test_led_emulate_prints_its_path_then_a_line_per_change():
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "led", "emulate", "--displays", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/")
        assert main(["led", "show", path, "42"]) == 0
        lines = [json.loads(process.stdout.readline()) for _ in range(2)]
    finally:
        process.terminate()
        process.wait(timeout=5)
    assert lines[0]["displays"] == ["42      ", "        "]
    assert lines[-1] == {
        "displays": ["42      ", "42      "],
        "brightness": 8,
        "highlight": [False, False],
        "blink": [False, False],
    }
