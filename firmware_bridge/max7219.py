"""A chain of MAX7219 display drivers, as seen from the wires: what each display shows.

Feed it the 16-bit words shifted in before each rising edge of LOAD; the word shifted last sits
in the chip nearest the microcontroller (display 0). The firmware writes the shutdown register
last in every refresh, so :meth:`Max7219Chain.latch` says when a refresh is complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_bridge.messages import DIGITS
from firmware_bridge.segments import read_cells

REG_DIGIT0 = 0x01
REG_DECODE_MODE = 0x09
REG_INTENSITY = 0x0A
REG_SCAN_LIMIT = 0x0B
REG_SHUTDOWN = 0x0C
REG_DISPLAY_TEST = 0x0F


@dataclass
class Max7219:
    # Digit register 1 is the rightmost digit of the module; digits[0] holds it.
    digits: list[int] = field(default_factory=lambda: [0] * DIGITS)
    decode_mode: int = 0
    intensity: int = 0
    scan_limit: int = 0
    on: bool = False  # the chip starts in shutdown
    test: bool = False

    def write(self, register: int, value: int) -> None:
        if REG_DIGIT0 <= register < REG_DIGIT0 + DIGITS:
            self.digits[register - REG_DIGIT0] = value
        elif register == REG_DECODE_MODE:
            self.decode_mode = value
        elif register == REG_INTENSITY:
            self.intensity = value & 0x0F
        elif register == REG_SCAN_LIMIT:
            self.scan_limit = value & 0x07
        elif register == REG_SHUTDOWN:
            self.on = bool(value & 1)
        elif register == REG_DISPLAY_TEST:
            self.test = bool(value & 1)

    def visible(self) -> str:
        """The characters a person sees; blank when shut down, '?' for what the font lacks."""
        if self.test:
            return "8." * DIGITS
        if not self.on:
            return " " * DIGITS
        if self.decode_mode != 0 or self.scan_limit != DIGITS - 1:
            return "?" * DIGITS
        return read_cells(tuple(reversed(self.digits)))


class Max7219Chain:
    def __init__(self, chips: int) -> None:
        self.chips = [Max7219() for _ in range(chips)]
        self._shift = bytes(2 * chips)

    def latch(self, shifted: bytes) -> bool:
        """LOAD rose after ``shifted``; returns True when that ended a refresh."""
        self._shift = (self._shift + shifted)[-len(self._shift) :]
        ended = False
        for index, chip in enumerate(self.chips):
            at = len(self._shift) - 2 * (index + 1)
            register, value = self._shift[at], self._shift[at + 1]
            chip.write(register, value)
            ended = ended or register == REG_SHUTDOWN
        return ended

    def visible(self) -> tuple[str, ...]:
        return tuple(chip.visible() for chip in self.chips)

    def intensities(self) -> tuple[int, ...]:
        return tuple(chip.intensity for chip in self.chips)
