"""The byte pipe under the protocol: a serial port, opened exclusively, that may vanish."""

from __future__ import annotations

from typing import Protocol

import serial

BAUD = 115200


class PortGoneError(Exception):
    """The port failed or disappeared (a board unplugged, an emulator that stopped)."""


class PortBusyError(Exception):
    """Another program holds the port."""


class Port(Protocol):
    def write(self, data: bytes) -> None: ...

    def read(self, timeout: float) -> bytes:
        """Whatever arrived, waiting up to ``timeout`` seconds for the first byte; b"" if none."""
        ...

    def close(self) -> None: ...


class SerialPort:
    """A pyserial port at 115200 baud, 8N1, locked against other programs while open."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self._serial = serial.Serial(path, BAUD, timeout=0, write_timeout=1.0, exclusive=True)
        except serial.SerialException as exc:
            if "lock" in str(exc).lower() or "busy" in str(exc).lower():
                message = f"{path}: the port is busy (another program has it open)"
                raise PortBusyError(message) from exc
            raise PortGoneError(f"{path}: {exc.strerror or exc}") from exc

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError) as exc:
            raise PortGoneError(f"{self.path}: {exc}") from exc

    def read(self, timeout: float) -> bytes:
        try:
            self._serial.timeout = max(timeout, 0.0)
            data: bytes = self._serial.read(1)
            if data and self._serial.in_waiting:
                data += self._serial.read(self._serial.in_waiting)
        except (serial.SerialException, OSError, TypeError) as exc:
            # pyserial raises TypeError when the descriptor was closed under it.
            raise PortGoneError(f"{self.path}: {exc}") from exc
        return data

    def close(self) -> None:
        self._serial.close()
