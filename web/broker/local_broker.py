"""A Mosquitto of our own on a free loopback port, its config, data and log in a folder: what
the benchmark (and the tests) run when no hall broker is given. It can be killed (as a crash or
a pulled cable would) and started again on the same port, keeping what it persisted."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.errors import AtelierError

READY_S = 10.0


def find_mosquitto() -> str | None:
    """The broker's program, where Debian puts it (it is not on a user's PATH there)."""
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/sbin/mosquitto") if os.access(p, os.X_OK)), None
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Mosquitto:
    """One broker process on ``port``; ``stop`` kills it, ``start`` brings it back."""

    def __init__(self, folder: Path, port: int | None = None, program: str | None = None) -> None:
        found = program or find_mosquitto()
        if found is None:
            raise AtelierError("Mosquitto is not installed (Debian: apt install mosquitto)")
        self.program = found
        self.folder = folder
        self.port = port or free_port()
        folder.mkdir(parents=True, exist_ok=True)
        self.config = folder / "mosquitto.conf"
        # Persistence on: retained states and queued QoS 1 messages outlive a restart, as they
        # would on a hall's broker set up as docs/broker.md says.
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            # Started as root, Mosquitto would become the user "mosquitto", who cannot write
            # in our folder; as anyone else, it stays who it is.
            f"user {getpass.getuser()}\n"
            "allow_anonymous true\n"
            "persistence true\n"
            f"persistence_location {folder}/\n"
            "autosave_interval 1\n"
            f"log_dest file {folder}/mosquitto.log\n"
            "log_type error\nlog_type warning\nlog_type notice\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [self.program, "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.folder / "mosquitto.log").read_text(errors="replace")
                raise AtelierError(f"mosquitto exited at start: {log[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise AtelierError(f"mosquitto did not listen on port {self.port} in {READY_S} s")

    def wait_saved(self, since: float, timeout: float = READY_S) -> None:
        """Wait until the broker has saved its state (sessions, retained messages) to disk at
        ``since`` (``time.time()``) or later: a crash after that keeps what it held then."""
        saved = self.folder / "mosquitto.db"
        deadline = time.monotonic() + timeout
        while not (saved.exists() and saved.stat().st_mtime >= since):
            if time.monotonic() > deadline:
                raise AtelierError(f"mosquitto saved nothing to {saved} in {timeout} s")
            time.sleep(0.05)

    def stop(self, crash: bool = True) -> None:
        """Killed, as a crash or a pulled cable does it (what it had not saved yet is lost), or
        with ``crash=False`` asked to stop (it saves its retained messages first)."""
        if self.process is not None:
            if crash:
                self.process.kill()
            else:
                self.process.terminate()
            self.process.wait()
            self.process = None


@contextmanager
def running_mosquitto(folder: Path, program: str | None = None) -> Iterator[Mosquitto]:
    broker = Mosquitto(folder, program=program)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
