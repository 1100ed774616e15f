"""Finding displays: USB serial ports that look like an Arduino, confirmed by a HELLO.

Opening a port restarts most Arduinos, and an unknown device may not like our bytes, so only
ports with a known USB vendor (and product) are probed unless every port is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge.link import Link, NoAnswerError
from firmware_bridge.messages import Hello
from firmware_bridge.transport import Port, PortBusyError, PortGoneError, SerialPort

# USB vendor id -> product ids (empty: any product of that vendor) of boards that run the firmware.
KNOWN_USB: dict[int, frozenset[int]] = {
    0x2341: frozenset(),  # Arduino SA: Uno, Nano Every, Mega...
    0x2A03: frozenset(),  # Arduino.org boards
    0x1A86: frozenset({0x7523}),  # CH340, on most Nano clones
    0x0403: frozenset({0x6001}),  # FTDI FT232R, on older Nanos
    0x10C4: frozenset({0xEA60}),  # Silicon Labs CP210x
}


@dataclass(frozen=True)
class Candidate:
    port: str
    description: str
    vid: int | None
    pid: int | None
    serial_number: str | None

    @classmethod
    def from_info(cls, info: ListPortInfo) -> Candidate:
        return cls(info.device, info.description, info.vid, info.pid, info.serial_number)

    @property
    def known(self) -> bool:
        if self.vid is None or self.vid not in KNOWN_USB:
            return False
        products = KNOWN_USB[self.vid]
        return not products or self.pid in products


@dataclass(frozen=True)
class Probe:
    candidate: Candidate
    hello: Hello | None
    problem: str | None  # why this port is not a display: busy, no answer, gone

    def to_json(self) -> dict[str, object]:
        c = self.candidate
        return {
            "port": c.port,
            "description": c.description,
            "usb": None if c.vid is None else f"{c.vid:04x}:{(c.pid or 0):04x}",
            "serial_number": c.serial_number,
            "display": None if self.hello is None else self.hello.to_json(),
            "problem": self.problem,
        }


def candidates(
    ports: Iterable[ListPortInfo] | None = None, everything: bool = False
) -> list[Candidate]:
    found = [
        Candidate.from_info(info) for info in (list_ports.comports() if ports is None else ports)
    ]
    return sorted((c for c in found if everything or c.known), key=lambda c: c.port)


def greet(port: Port, timeout: float) -> Hello:
    """The device's HELLO, raising NoAnswerError when nothing that speaks the protocol answers."""
    return Link(port).hello(timeout)


def probe(
    candidate: Candidate, timeout: float, opener: Callable[[str], Port] = SerialPort
) -> Probe:
    try:
        port = opener(candidate.port)
    except (PortBusyError, PortGoneError) as exc:
        return Probe(candidate, None, str(exc))
    try:
        return Probe(candidate, greet(port, timeout), None)
    except NoAnswerError:
        return Probe(candidate, None, f"no answer to HELLO within {timeout:g} s")
    except PortGoneError as exc:
        return Probe(candidate, None, str(exc))
    finally:
        port.close()


def discover(
    ports: Iterable[ListPortInfo] | None = None,
    everything: bool = False,
    timeout: float = 3.0,
    opener: Callable[[str], Port] = SerialPort,
) -> list[Probe]:
    return [probe(c, timeout, opener) for c in candidates(ports, everything)]
