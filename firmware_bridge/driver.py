"""The host driver: keeps a display device equal to the newest scene, whatever the link does.

``show()`` only records the scene and returns at once; a worker thread does the talking. It opens
the port (an Arduino restarts when its port opens: the HELLO handshake waits for it instead of
sleeping a fixed time), sends whatever differs, pings when idle, and starts over when the port
vanishes or stops answering. Whenever the device may have lost its state (a new connection, or
the device says it restarted) every part of the scene is sent again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import TracebackType

from firmware_bridge.link import Link, LinkStats, NoAnswerError, RefusedError
from firmware_bridge.messages import Hello, ping
from firmware_bridge.scene import DeviceView, Scene, next_step
from firmware_bridge.transport import Port, PortBusyError, PortGoneError

Opener = Callable[[], Port]


@dataclass(frozen=True)
class DriverConfig:
    reply_timeout: float = 0.06  # seconds to wait for an answer, on top of the wire time
    retries: int = 8  # resends before the link counts as lost
    hello_timeout: float = 3.0  # an Arduino bootloader takes up to about 2 s after a reset
    keepalive: float = 0.5  # ping an idle device this often, to notice a restart
    idle_poll: float = 0.02  # how often an idle link is read for a restart announcement
    reconnect_delay: float = 0.3  # between attempts to open a port that is gone

    @property
    def retry_cycle(self) -> float:
        """The longest one message can take before the link is given up and opened again."""
        return (self.retries + 1) * (self.reply_timeout + 0.02)


@dataclass(frozen=True)
class Status:
    connected: bool
    hello: Hello | None
    last_error: str | None


class DisplayDriver:
    def __init__(self, opener: Opener, config: DriverConfig | None = None) -> None:
        self._opener = opener
        self.config = config or DriverConfig()
        self.stats = LinkStats()
        self._lock = threading.Condition()
        self._scene = Scene()
        self._changed = False
        self._stopping = False
        self._view: DeviceView | None = None
        self._refused: Scene | None = None
        self._status = Status(False, None, None)
        self._thread = threading.Thread(target=self._run, name="led-driver", daemon=True)

    def __enter__(self) -> DisplayDriver:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join()

    def show(self, scene: Scene) -> None:
        """Makes ``scene`` the one to show; never waits for the device."""
        with self._lock:
            self._scene = scene
            self._changed = True
            self._lock.notify_all()

    @property
    def status(self) -> Status:
        with self._lock:
            return self._status

    def wait_shown(self, timeout: float) -> bool:
        """Waits until the device has acknowledged the newest scene; False after ``timeout``."""
        with self._lock:
            return self._lock.wait_for(self._is_shown, timeout)

    def wait_connected(self, timeout: float) -> Status:
        with self._lock:
            self._lock.wait_for(lambda: self._status.connected or self._stopping, timeout)
            return self._status

    def _is_shown(self) -> bool:
        return self._view is not None and self._view.shows(self._scene)

    def _set(self, status: Status) -> None:
        with self._lock:
            self._status = status
            self._lock.notify_all()

    def _run(self) -> None:
        while not self._stopping:
            link = self._connect()
            if link is None:
                with self._lock:
                    self._lock.wait_for(lambda: self._stopping, self.config.reconnect_delay)
                continue
            try:
                self._serve(link)
            except (NoAnswerError, PortGoneError) as exc:
                self.stats.link_losses += 1
                self._set(replace(self.status, connected=False, last_error=str(exc)))
            finally:
                with self._lock:
                    self._view = None
                link.port.close()

    def _connect(self) -> Link | None:
        try:
            port = self._opener()
        except (PortGoneError, PortBusyError, OSError) as exc:
            self._set(replace(self.status, connected=False, last_error=str(exc)))
            return None
        link = Link(port, self.config.reply_timeout, self.config.retries, self.stats)
        try:
            hello = link.hello(self.config.hello_timeout)
        except (NoAnswerError, PortGoneError) as exc:
            port.close()
            self._set(replace(self.status, connected=False, last_error=f"no answer: {exc}"))
            return None
        self.stats.connects += 1
        with self._lock:
            self._view = DeviceView.unknown(hello.displays)
        self._set(Status(connected=True, hello=hello, last_error=None))
        return link

    def _serve(self, link: Link) -> None:
        last_heard = time.monotonic()
        while True:
            with self._lock:
                if self._stopping:
                    return
                scene, view = self._scene, self._view
                self._changed = False
            assert view is not None
            step = next_step(view, scene) if scene != self._refused else None
            if step is not None:
                try:
                    link.request(step.request)
                    view = step.after
                except RefusedError as exc:
                    self._refused = scene
                    self._set(replace(self.status, last_error=str(exc)))
                last_heard = time.monotonic()
            elif time.monotonic() - last_heard >= self.config.keepalive:
                link.request(ping())
                last_heard = time.monotonic()
            else:
                with self._lock:
                    self._lock.wait_for(
                        lambda: self._changed or self._stopping, self.config.idle_poll
                    )
                link.poll()
            if link.restarted:
                # The device lost everything: greet it again and send the whole scene.
                link.restarted = False
                hello = link.hello(self.config.hello_timeout)
                view = DeviceView.unknown(hello.displays)
                self._set(replace(self.status, hello=hello))
            with self._lock:
                self._view = view
                self._lock.notify_all()
