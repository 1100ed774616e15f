"""Framing invariants: round trips, resynchronisation, and damage that is always caught."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import cobs
from firmware_bridge.frames import MAX_BODY, MAX_WIRE, Frame, FrameDecoder, FrameError, encode_frame
from firmware_bridge.messages import MAX_DISPLAYS, TEXT_MAX, scores, text

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_BODY))


@settings(max_examples=200)
@given(st.binary(max_size=600))
def test_cobs_round_trips_and_leaves_no_zero(data):
    encoded = cobs.encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs.decode(encoded) == data


@settings(max_examples=200)
@given(frames)
def test_every_frame_fits_a_64_byte_buffer_and_round_trips(frame):
    wire = encode_frame(frame)
    assert len(wire) <= MAX_WIRE == 64
    assert FrameDecoder().feed(wire) == [frame]


def test_the_largest_messages_fit():
    assert len(encode_frame(Frame(0x10, 1, scores((-1,) * MAX_DISPLAYS).body))) == 24
    assert len(encode_frame(Frame(0x11, 1, text(0, "8." * (TEXT_MAX // 2)).body))) == 24


@settings(max_examples=200)
@given(st.binary(max_size=200), frames)
def test_any_garbage_before_a_frame_costs_at_most_that_garbage(garbage, frame):
    events = FrameDecoder().feed(garbage + encode_frame(frame))
    assert events[-1] == frame
    assert all(isinstance(e, FrameError) for e in events[:-1])


@settings(max_examples=300)
@given(frames, st.data())
def test_a_damaged_frame_is_never_taken_for_another(frame, data):
    wire = bytearray(encode_frame(frame))
    at = data.draw(st.integers(1, len(wire) - 2))
    wire[at] ^= data.draw(st.integers(1, 255))
    events = FrameDecoder().feed(bytes(wire))
    # A 0x00 landing inside splits the frame: both halves are rejected, never accepted.
    assert all(isinstance(e, FrameError) for e in events)
    assert events


@settings(max_examples=200)
@given(frames, st.data())
def test_a_dropped_byte_loses_only_its_own_frame(frame, data):
    wire = encode_frame(frame)
    at = data.draw(st.integers(1, len(wire) - 2))  # a lost delimiter costs nothing: one is spare
    damaged = wire[:at] + wire[at + 1 :]
    events = FrameDecoder().feed(damaged + encode_frame(frame))
    assert events[-1] == frame
    assert frame not in events[:-1]


def test_overlong_input_is_counted_and_the_next_frame_still_arrives():
    decoder = FrameDecoder()
    good = Frame(0x02, 7)
    assert decoder.feed(b"\x01" * 100 + encode_frame(good)) == [FrameError.TOO_LONG, good]
    assert (decoder.stats.too_long, decoder.stats.frames) == (1, 1)
