"""The address printed for phones to join: a real interface's, never a made-up one."""

from __future__ import annotations

import ipaddress

from companion.cli.serving import _interface_addresses, lan_address


def test_the_join_address_is_an_interface_of_this_machine() -> None:
    address = lan_address()
    ipaddress.IPv4Address(address)  # raises on anything that is not an IPv4 address
    interfaces = _interface_addresses()
    assert "127.0.0.1" in interfaces  # the loopback interface is always there on Linux
    others = [a for a in interfaces if not a.startswith("127.")]
    assert address == (others[0] if others else "127.0.0.1")
