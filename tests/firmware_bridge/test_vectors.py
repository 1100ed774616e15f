"""The Python codec and device core against the vectors the C core is also tested on."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_bridge import cobs
from firmware_bridge.crc import crc16
from firmware_bridge.device import DeviceCore
from firmware_bridge.frames import Frame, FrameDecoder, encode_frame
from firmware_bridge.segments import render_score, render_text
from firmware_bridge.simulator import FIRMWARE_DIR
from tests.firmware_bridge.vectors import VECTORS, load, unhex

V = load()


def test_the_vectors_cover_every_kind():
    assert {k: len(v) for k, v in V.lines.items()} == {
        "cobs": 9,
        "cobs-bad": 3,
        "crc": 4,
        "frame": 6,
        "text": 9,
        "score": 9,
    }
    assert [c.name for c in V.conversations] == [
        "handshake",
        "scores",
        "two-displays",
        "text-and-looks",
        "noise",
    ]


@pytest.mark.parametrize(("data", "encoded"), V.lines["cobs"])
def test_cobs(data, encoded):
    assert cobs.encode(unhex(data)) == unhex(encoded)
    assert cobs.decode(unhex(encoded)) == unhex(data)


@pytest.mark.parametrize(("encoded",), V.lines["cobs-bad"])
def test_cobs_rejects(encoded):
    with pytest.raises(cobs.CobsError):
        cobs.decode(unhex(encoded))


def test_known_answers_worked_by_hand():
    # The published check value of CRC-16/CCITT-FALSE, and the COBS paper's own example.
    assert crc16(b"123456789") == 0x29B1
    assert cobs.encode(bytes.fromhex("11220033")) == bytes.fromhex("0311220233")
    # PING with sequence 1: raw 02 01 + CRC 6B 4C, no zero inside, so one COBS block of 5.
    assert crc16(b"\x02\x01") == 0x6B4C
    assert encode_frame(Frame(0x02, 0x01)) == bytes.fromhex("000502016b4c00")


@pytest.mark.parametrize(("data", "crc"), V.lines["crc"])
def test_crc(data, crc):
    assert crc16(unhex(data)) == int(crc, 16)


@pytest.mark.parametrize(("kind", "seq", "body", "wire"), V.lines["frame"])
def test_frames(kind, seq, body, wire):
    frame = Frame(int(kind, 16), int(seq, 16), unhex(body))
    assert encode_frame(frame) == unhex(wire)
    assert FrameDecoder().feed(unhex(wire)) == [frame]


@pytest.mark.parametrize(("text", "cells"), V.lines["text"])
def test_text(text, cells):
    assert bytes(render_text(unhex(text).decode())) == unhex(cells)


@pytest.mark.parametrize(("score", "cells"), V.lines["score"])
def test_score(score, cells):
    assert bytes(render_score(int(score))) == unhex(cells)


@pytest.mark.parametrize("conversation", V.conversations, ids=lambda c: c.name)
def test_device_conversations(conversation):
    device = DeviceCore(conversation.device_id, conversation.displays)
    for step in conversation.steps:
        kind, args = step[0], step[1:]
        if kind == "announce":
            assert device.announce() == unhex(args[0])
        elif kind == "send":
            assert device.feed(unhex(args[0])) == unhex(args[1]), step
        elif kind == "cells":
            assert bytes(device.cells[int(args[0])]) == unhex(args[1]), step
        else:
            assert kind == "looks"
            assert (device.brightness, device.highlight, device.blink) == (
                int(args[0]),
                int(args[1], 16),
                int(args[2], 16),
            )


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs the host's gcc")
def test_the_c_core_passes_the_same_vectors(tmp_path: Path):
    result = subprocess.run(
        ["make", "--no-print-directory", "-C", str(FIRMWARE_DIR), f"BUILD={tmp_path}", "host-test"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    checks = re.search(r"(\d+) passed, (\d+) failed", result.stdout)
    assert checks is not None
    # Every vector line is at least one check; the C run must not have skipped any.
    vector_lines = sum(
        1
        for line in VECTORS.read_text().splitlines()
        if line.split()[:1]
        and line.split()[0]
        in {
            "cobs",
            "cobs-bad",
            "crc",
            "frame",
            "text",
            "score",
            "announce",
            "send",
            "cells",
            "looks",
        }
    )
    assert int(checks.group(2)) == 0
    assert int(checks.group(1)) >= vector_lines
