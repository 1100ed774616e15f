"""Phones asking to play at a table: each request names a seat, waits for a player on a device
already at the table (one holding the join token) to allow or refuse it, and expires unanswered
after a few minutes. Held in memory by the app: a request lives minutes, and a restart asks the
phone to ask again, which costs one tap."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

LIFETIME_S = 300.0  # a request unanswered for 5 minutes expires: the phone asks again
KEPT_S = 900.0  # how long an answered or expired request still answers its phone
PER_TABLE = 4  # requests waiting at once at one table: a table has at most 5 players
PENDING, ALLOWED, REFUSED, EXPIRED = "pending", "allowed", "refused", "expired"


class RequestError(Exception):
    """A request that cannot be made or answered, in words; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class JoinRequest:
    id: str  # unguessable: whoever holds it receives the token once the request is allowed
    table: str
    seat: int
    asked: float  # on the desk's clock
    status: str  # PENDING, ALLOWED, REFUSED or EXPIRED
    token: str | None = None  # the join token, once allowed


class JoinRequests:
    """Every table's requests to join. Thread-safe."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        lifetime_s: float = LIFETIME_S,
        per_table: int = PER_TABLE,
    ) -> None:
        self.clock = clock
        self.lifetime_s = lifetime_s
        self.per_table = per_table
        self._lock = threading.Lock()
        self._requests: dict[str, JoinRequest] = {}

    def ask(self, table: str, seat: int) -> JoinRequest:
        with self._lock:
            self._tidy()
            waiting = [r for r in self._requests.values() if r.table == table and _waits(r)]
            if len(waiting) >= self.per_table:
                raise RequestError(
                    f"{self.per_table} phones are already waiting to join this table: "
                    "ask a player to answer them first",
                    429,
                )
            made = JoinRequest(secrets.token_urlsafe(16), table, seat, self.clock(), PENDING)
            self._requests[made.id] = made
            return made

    def get(self, request: str) -> JoinRequest | None:
        with self._lock:
            self._tidy()
            return self._requests.get(request)

    def waiting(self, table: str) -> list[JoinRequest]:
        """The table's requests still waiting for an answer, oldest first."""
        with self._lock:
            self._tidy()
            return sorted(
                (r for r in self._requests.values() if r.table == table and _waits(r)),
                key=lambda r: r.asked,
            )

    def answer(self, table: str, request: str, token: str | None) -> JoinRequest:
        """Allow the request with ``token`` (the table's join token), or refuse it (None)."""
        with self._lock:
            self._tidy()
            found = self._requests.get(request)
            if found is None or found.table != table:
                raise RequestError("no such request to join this table", 404)
            if found.status == EXPIRED:
                raise RequestError("this request expired: the phone must ask again", 409)
            if found.status != PENDING:
                raise RequestError(f"this request was already {found.status}", 409)
            answered = replace(found, status=ALLOWED if token else REFUSED, token=token)
            self._requests[request] = answered
            return answered

    def _tidy(self) -> None:
        """Expire the requests unanswered for too long and forget the old ones."""
        now = self.clock()
        for key, found in list(self._requests.items()):
            age = now - found.asked
            if age > KEPT_S + self.lifetime_s:
                del self._requests[key]
            elif found.status == PENDING and age > self.lifetime_s:
                self._requests[key] = replace(found, status=EXPIRED)


def _waits(request: JoinRequest) -> bool:
    return request.status == PENDING
