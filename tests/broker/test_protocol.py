"""The broker's address, names, topics and payloads, and the test broker itself."""

from __future__ import annotations

import queue

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.mosquitto import Mosquitto
from web.broker.protocol import (
    BrokerAddress,
    BrokerError,
    Topic,
    checked_name,
    decode,
    event_payload,
    hub_subscriptions,
    parse_broker,
    parse_topic,
    state_payload,
    table_state_topic,
)


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("mqtt://hall.local", BrokerAddress("hall.local", 1883, False)),
        ("mqtt://10.0.0.5:1884", BrokerAddress("10.0.0.5", 1884, False)),
        ("mqtts://broker.example", BrokerAddress("broker.example", 8883, True)),
        (
            "mqtt://table7:s%40cret@hall:1883",
            BrokerAddress("hall", 1883, False, "table7", "s@cret"),
        ),
    ],
)
def test_a_broker_address_is_host_port_tls_and_login(url: str, address: BrokerAddress) -> None:
    assert parse_broker(url) == address


def test_a_printed_broker_address_never_shows_the_password() -> None:
    assert str(parse_broker("mqtt://table7:secret@hall")) == "mqtt://table7@hall:1883"


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("http://hall", "is not mqtt://HOST[:PORT]"),
        ("hall:1883", "is not mqtt://HOST[:PORT]"),
        ("mqtt://hall:port", "is not a number"),
        ("mqtt://hall:70000", "is not a number"),
        ("mqtt://hall:0", "is not a number"),
        ("mqtt://:1883", "names no host"),
        ("mqtt://hall/atelier", "has more than"),
    ],
)
def test_a_bad_broker_address_is_named_in_one_line(url: str, fragment: str) -> None:
    with pytest.raises(BrokerError, match="--broker") as refused:
        parse_broker(url)
    assert fragment in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("name", ["", "a/b", "+", "#", "-x", "a b", "x" * 65])
def test_a_site_name_is_one_topic_level(name: str) -> None:
    with pytest.raises(BrokerError, match="--site"):
        checked_name("--site", name)


def test_topics_are_taken_apart_as_they_were_made() -> None:
    assert parse_topic(table_state_topic("cafe", "t1")) == Topic("cafe", "state", "t1")
    assert parse_topic("atelier/cafe/servers/pi-3/status") == Topic("cafe", "status", "pi-3")
    assert parse_topic("atelier/cafe/tables/t1/other") is None
    assert parse_topic("elsewhere/cafe/tables/t1/state") is None
    assert hub_subscriptions(None)[1] == "atelier/+/tables/+/state"


def test_only_our_payloads_are_read() -> None:
    state = decode(state_payload("pi", "t1", 7, 1.5, {"players": []}))
    assert state == {
        "v": 1,
        "server": "pi",
        "table": "t1",
        "seq": 7,
        "at": 1.5,
        "scores": {"players": []},
    }
    event = decode(event_payload("pi", "t1", 7, "scan", "Ana's board scanned", 1.5))
    assert event is not None and event["id"] == "t1/7"
    for foreign in (b"", b"\xff", b"[]", b'{"v": 2}', b"online"):
        assert decode(foreign) is None


def test_the_test_broker_keeps_retained_messages_across_a_clean_restart(
    mosquitto: Mosquitto,
) -> None:
    def client() -> mqtt.Client:
        made = mqtt.Client(CallbackAPIVersion.VERSION2)
        made.connect("127.0.0.1", mosquitto.port)
        made.loop_start()
        return made

    writer = client()
    writer.publish("atelier/t/tables/a/state", b"kept", qos=1, retain=True).wait_for_publish(5)
    writer.loop_stop()
    writer.disconnect()
    mosquitto.stop(crash=False)
    mosquitto.start()

    got: queue.Queue[bytes] = queue.Queue()
    reader = mqtt.Client(CallbackAPIVersion.VERSION2)
    reader.on_message = lambda _c, _u, message: got.put(bytes(message.payload))
    reader.on_connect = lambda c, _u, _f, _r, _p: c.subscribe("atelier/t/tables/+/state", qos=1)
    reader.connect("127.0.0.1", mosquitto.port)
    reader.loop_start()
    try:
        assert got.get(timeout=5) == b"kept"
    finally:
        reader.loop_stop()
        reader.disconnect()
