"""What every server command shares (``atelier serve``, ``atelier hub``): the addresses a phone
reaches this machine at, the names it answers to, stopping on a signal, and lines written whole
to a console that a signal may interrupt."""

from __future__ import annotations

import re
import signal
import socket
from collections.abc import Callable, Sequence
from types import FrameType, TracebackType
from typing import Any, TextIO

from companion.errors import AtelierError

SIOCGIFADDR = 0x8915  # Linux: get an interface's address
# A name a browser may send as the Host (a DNS name, an IPv4 address, an IPv6 one in brackets).
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\]")


def _interface_addresses() -> list[str]:
    """The IPv4 address of each network interface (Linux), read from the kernel: nothing is
    sent anywhere."""
    import fcntl
    import struct

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:
                continue  # an interface without an IPv4 address
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def lan_address() -> str:
    """This machine's IPv4 address on the local network, the one a phone can reach; the
    loopback address when it has no other."""
    try:
        addresses = _interface_addresses()
    except (OSError, ImportError, AttributeError):
        addresses = []
    if not addresses:
        try:
            found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            addresses = [str(entry[4][0]) for entry in found]
        except OSError:
            addresses = []
    return next((a for a in addresses if not a.startswith("127.")), "127.0.0.1")


def own_names(host: str, allowed: Sequence[str]) -> list[str]:
    """The names the server answers to: the address it listens on, every address of this
    machine (a phone may reach it on any), its host name (with ``.local``, as mDNS gives it) and
    the names ``allowed`` (``--allow-host``), each checked."""
    from web.access import host_name  # the web package loads Flask: only when serving

    for name in allowed:
        if host_name(name) is None or not NAME.fullmatch(name):
            raise AtelierError(f"--allow-host: {name!r} is not a host name")
    try:
        addresses = _interface_addresses()
    except (OSError, ImportError, AttributeError):
        addresses = []
    machine = socket.gethostname()
    listening = [] if host in ("0.0.0.0", "") else [host]
    return [*listening, lan_address(), *addresses, machine, f"{machine}.local", *allowed]


class Stopping:
    """While entered, SIGINT (Ctrl+C) and SIGTERM (a service manager's stop) end the server the
    same way: raised in the main thread as KeyboardInterrupt, which ends the server's loop (the
    server's ``close`` then finishes the requests under way), and which unwinds whatever is
    still starting. Which signal came is kept, for the exit status."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Any] = {}
        self._first: list[Callable[[], None]] = []

    def first(self, action: Callable[[], None]) -> None:
        """Do ``action`` as soon as a signal comes, before the server waits for its threads."""
        self._first.append(action)

    def __enter__(self) -> Stopping:
        for number in (signal.SIGINT, signal.SIGTERM):
            self._previous[number] = signal.signal(number, self._stop)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _stop(self, number: int, _frame: FrameType | None) -> None:
        self.received = number
        for action in self._first:
            action()
        raise KeyboardInterrupt


def say(text: str, stream: TextIO) -> None:
    """``text`` and its newline in one write, flushed. A stop signal is raised as an exception
    wherever the server is: between a print's text and its newline, it would leave the line
    open, and the message that reports the stop would run on from it."""
    stream.write(f"{text}\n")
    stream.flush()
