"""LED score displays on a serial port: the protocol, the host driver, discovery and an emulator.

The firmware that runs on the displays lives in ``firmware/``; ``docs/led-displays.md`` describes
the protocol byte by byte.
"""
