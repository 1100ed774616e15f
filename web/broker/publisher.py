"""A table server's tables on the broker: every event in order (QoS 1), then the retained state
that counts it, and the server's retained status with a last will saying it went offline.

Requests never wait for the broker: a change only marks its table as due (a set of ids, bounded
by the number of tables). One thread of ours publishes what is due, read from the log, while
paho's own thread talks to the broker (and tries again until it answers). What the broker
acknowledged is bookmarked in the outbox (outbox.py); on every connection each table is
replayed from its bookmark: the events the broker may have missed, then its state, retained
again in case the broker lost it. A replay may deliver an event twice (QoS 1); its id makes
that harmless.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass

from paho.mqtt import client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from companion.table.events import Event
from companion.table.projection import summarize
from companion.table.session import Tables, UnknownTableError
from web.broker import protocol
from web.broker.client import BrokerLogin, new_client
from web.broker.outbox import Outbox

# The delay between tries, doubling from the first to the second: a table is back on the
# leaderboard within seconds of the network, sooner than a hub's 30 s would have it.
RETRY_S = (1, 8)
# Messages handed to paho and not acknowledged yet, at most: with the broker away, nothing more
# is taken from the log, so memory stays flat however long it is gone.
IN_FLIGHT = 200
POLL_S = 0.5


@dataclass(frozen=True)
class Connection:
    """Where to publish, as whom (the login's keep-alive says how soon the broker notices this
    server gone silent and sends its last will)."""

    login: BrokerLogin
    site: str
    server: str
    retry_s: tuple[int, int] = RETRY_S


@dataclass(frozen=True)
class _Sent:
    """A message paho holds until the broker acknowledges it, and what that acknowledgement
    records (nothing, for an event: its state's acknowledgement counts it)."""

    info: mqtt.MQTTMessageInfo
    generation: int
    on_ack: Callable[[], None] | None = None


class _Progress:
    """Our thread's knowledge of the current connection: which connection it is, what it has
    published on it, and the messages paho still holds."""

    def __init__(self) -> None:
        self.generation = 0
        self.sent: dict[str, int] = {}  # per table, the newest event published on it
        self.shown: dict[str, int] = {}  # per table, the seq of the state published on it
        self.waiting: list[_Sent] = []


class Publisher:
    """Publishes the tables of ``tables`` while started; ``report`` hears, in one line each, of
    the connection coming, going or failing (not of every retry).

    Each connection has a client of its own: one lost is dropped with whatever paho still held
    for it, and the next starts from the bookmarks. paho never resends an older state after a
    newer one, and nothing builds up in it while the broker is away.
    """

    def __init__(
        self,
        tables: Tables,
        outbox: Outbox,
        connection: Connection,
        report: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self._tables = tables
        self._outbox = outbox
        self._connection = connection
        self._report = report
        self._site = connection.site
        self._server = connection.server
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._guard = threading.Lock()
        self._due: set[str] = set()
        self._generation = 0  # counts the connections made; 0: none yet
        self._connected = False
        self._dropped = False  # the current client's connection was lost: replace it
        self._reachable: bool | None = None
        self._client = self._new_client()
        self._worker = threading.Thread(target=self._run, name="broker-publisher", daemon=True)
        tables.listen(self._on_event)
        tables.watch(self._mark)

    @property
    def _status_topic(self) -> str:
        return protocol.server_status_topic(self._site, self._server)

    def _status(self, online: bool) -> bytes:
        return protocol.status_payload(self._server, online, time.time())

    def _new_client(self) -> mqtt.Client:
        client = new_client(self._connection.login, f"atelier-{self._site}-{self._server}")
        client.reconnect_delay_set(*self._connection.retry_s)
        client.will_set(self._status_topic, self._status(online=False), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        return client

    def _connect(self) -> None:
        """Connect the current client in the background, paho retrying until the broker
        answers: a broker that is not there yet (or never) does not stop the tables from being
        served."""
        login = self._connection.login
        self._client.connect_async(login.address.host, login.address.port, login.keepalive)
        self._client.loop_start()

    def start(self) -> None:
        self._connect()
        self._worker.start()

    def close(self, timeout: float = 2.0) -> None:
        """Say this server is offline (when connected) and disconnect; whatever was not
        acknowledged yet is published on the next start, from the log."""
        self._stopping.set()
        self._wake.set()
        if self._worker.is_alive():
            self._worker.join(timeout)
        if self._connected:
            info = self._client.publish(
                self._status_topic, self._status(online=False), qos=1, retain=True
            )
            # The connection may go meanwhile: the last will then says the same.
            with suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self._client.disconnect()
        self._client.loop_stop()
        self._outbox.close()

    # paho's threads: these only note what happened and wake our thread; a client replaced is
    # no longer heard.

    def _on_connect(
        self,
        client: mqtt.Client,
        _userdata: object,
        _flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        _properties: Properties | None,
    ) -> None:
        if client is not self._client:
            return
        if reason.is_failure:
            if self._reachable is not False:
                self._report(
                    f"broker {self._connection.login.address} refused the connection ({reason}); "
                    "retrying in the background"
                )
            self._reachable = False
            return
        client.publish(self._status_topic, self._status(online=True), qos=1, retain=True)
        with self._guard:
            self._generation += 1
            self._connected = True
        self._reachable = True
        self._report(
            f"publishing to {self._connection.login.address} as {self._site}/{self._server}"
        )
        self._wake.set()

    def _on_connect_fail(self, client: mqtt.Client, _userdata: object) -> None:
        if client is not self._client:
            return
        if self._reachable is not False:
            address = self._connection.login.address
            # paho does not say why; with TLS, an untrusted certificate fails the same way.
            trust = " (or cannot trust its certificate: --broker-ca)" if address.tls else ""
            self._report(
                f"cannot reach the broker at {address}{trust}; the tables are served all the "
                "same and published once it answers"
            )
        self._reachable = False

    def _on_disconnect(
        self,
        client: mqtt.Client,
        _userdata: object,
        _flags: mqtt.DisconnectFlags,
        _reason: ReasonCode,
        _properties: Properties | None,
    ) -> None:
        if client is not self._client:
            return
        with self._guard:
            was = self._connected
            self._connected = False
            # A refused connection is retried by paho, waiting longer each time; a lost one
            # gets a new client.
            self._dropped = was
        if was and not self._stopping.is_set():
            self._reachable = None
            self._report(
                f"lost the broker at {self._connection.login.address}; reconnecting in the "
                "background, then publishing what it missed"
            )
        self._wake.set()

    def _on_publish(self, *_args: object) -> None:
        self._wake.set()

    # A request's thread: never waits on the broker.

    def _on_event(self, event: Event) -> None:
        self._mark(event.table)

    def _mark(self, *tables: str) -> None:
        with self._guard:
            self._due.update(tables)
        self._wake.set()

    # Our thread.

    def _replace_client(self) -> None:
        old = self._client
        self._client = self._new_client()
        old.disconnect()
        old.loop_stop()
        self._connect()

    def _run(self) -> None:
        progress = _Progress()
        while not self._stopping.is_set():
            self._wake.wait(POLL_S)
            self._wake.clear()
            try:
                self._step(progress)
            except Exception as exc:
                # Our thread alone would end, silently, and the tables would no longer be
                # published: say so, and start again from the bookmarks.
                self._report(f"publishing failed ({type(exc).__name__}: {exc}); trying again")
                progress = _Progress()
                self._stopping.wait(self._connection.retry_s[1])

    def _step(self, progress: _Progress) -> None:
        with self._guard:
            current, connected, dropped = self._generation, self._connected, self._dropped
            self._dropped = False
        if dropped:
            self._replace_client()
            return
        progress.waiting = [m for m in progress.waiting if not self._settled(m)]
        if not connected:
            return
        if current != progress.generation:
            # Nothing is known to have reached this connection: replay every table.
            progress.generation = current
            progress.waiting = [m for m in progress.waiting if m.generation == current]
            progress.sent.clear()
            progress.shown.clear()
            self._mark(*self._tables.ids(), *self._outbox.tables())
        while len(progress.waiting) < IN_FLIGHT and not self._stopping.is_set():
            with self._guard:
                if not self._due:
                    break
                table = self._due.pop()
            try:
                progress.waiting += self._publish(table, progress)
            except BaseException:
                self._mark(table)  # still due, whatever stopped it
                raise

    def _settled(self, message: _Sent) -> bool:
        """Whether paho is done with ``message``: acknowledged (then recorded), or never sent
        for want of a connection (then replayed from the log on the next one)."""
        try:
            if not message.info.is_published():
                return False
        except (RuntimeError, ValueError):
            return True
        if message.on_ack is not None:
            message.on_ack()
        return True

    def _publish(self, table: str, progress: _Progress) -> list[_Sent]:
        """Publish what ``table`` owes the broker, as many messages as there is room for in
        flight (the rest stays due): its events after the bookmark, then its state; or its
        removal."""
        generation, sent, shown = progress.generation, progress.sent, progress.shown
        room = IN_FLIGHT - len(progress.waiting)
        topic = protocol.table_state_topic(self._site, table)
        try:
            # The state first: it counts no event the log does not hold yet, so an event written
            # meanwhile waits for the next state rather than being counted unsent.
            state = self._tables.state(table)
        except UnknownTableError:
            sent.pop(table, None)
            shown.pop(table, None)
            if self._outbox.acked(table) is None:
                return []  # never published here: nothing to clear
            info = self._client.publish(topic, b"", qos=1, retain=True)
            return [_Sent(info, generation, lambda: self._outbox.forget(table))]
        acked = self._outbox.acked(table)
        if acked is None:
            self._outbox.note(table)
            acked = 0
        seq = state.last_event
        after = max(acked, sent.get(table, 0))
        # One more than there is room for says whether some are left for the next round.
        found = self._tables.store.events(table, after, limit=room + 1)
        events = [e for e in found if e.id <= seq]
        out: list[_Sent] = []
        events_topic = protocol.table_events_topic(self._site, table)
        for event in events[:room]:
            payload = protocol.event_payload(
                self._server,
                table,
                event.id,
                event.kind,
                summarize(state.setup, event),
                event.at,
            )
            out.append(_Sent(self._client.publish(events_topic, payload, qos=1), generation))
            sent[table] = event.id
        if len(events) > room:
            self._mark(table)
            return out
        if shown.get(table) != seq:
            payload = protocol.state_payload(
                self._server, table, seq, time.time(), state.scores_json()
            )
            info = self._client.publish(topic, payload, qos=1, retain=True)
            out.append(_Sent(info, generation, lambda: self._outbox.acknowledge(table, seq)))
            shown[table] = seq
        return out
