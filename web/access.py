"""Which requests the server answers at all: those addressed to one of its own names, those that
change something only from its own pages, new tables no faster than people start games, and
table codes guessed no faster than people type them.

A page on another site can make a browser send requests here in two ways. It can point a name
of its own at this machine's address (DNS rebinding): the browser then sends that name as the
``Host`` of every request and lets the page read the answers, so a request whose ``Host`` is not
one of the server's names is refused. Or it can post a form or a ``fetch`` here from its own
origin: the browser names that origin in ``Origin``, so a change whose ``Origin`` is not one of
the server's is refused. Clients that are not browsers (scripts, the command line) send no
``Origin`` and are judged by their join token alone.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

# The names every server answers to: a browser on the machine itself.
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
# A person starts a game every few minutes, an organiser a café's tables in a row; a script
# creating thousands a minute would fill the disk. Each client address may create BURST tables
# at once and one more every 60 / PER_MINUTE seconds.
PER_MINUTE = 10
BURST = 20
# A person types a table's code once or twice; each phone has its own address. Ten guesses at
# once and one more every 10 s take some 100,000 days to walk the codes of one table.
GUESSES_PER_MINUTE = 6
GUESSES_BURST = 10
# Clients not heard from for this long are forgotten: the limiter holds only recent ones.
FORGET_S = 600.0
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), lower case, or
    None when it is no host at all."""
    host = host.strip().lower()
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = host.partition(":")
    if not name or (port and not (port.isascii() and port.isdigit())):
        return None
    return name.rstrip(".")


def _bare_v6(name: str) -> str | None:
    """An IPv6 address written without brackets (``::1``), lower case; None for anything
    else."""
    name = name.strip().lower()
    return name if name.count(":") > 1 and not name.startswith("[") else None


@dataclass(frozen=True)
class Hosts:
    """The names the server answers to (lower case, without a port)."""

    names: frozenset[str]

    @staticmethod
    def of(names: Iterable[str]) -> Hosts:
        """The local names and ``names`` (each a name, an address or a ``Host`` value)."""
        named = (_bare_v6(n) or host_name(n) for n in [*LOCAL_NAMES, *names])
        return Hosts(frozenset(n for n in named if n))

    def allows(self, host: str) -> bool:
        """Whether a ``Host`` header names this server."""
        name = host_name(host)
        return name is not None and name in self.names

    def allows_origin(self, origin: str) -> bool:
        """Whether an ``Origin`` header is one of this server's pages (http or https on one of
        its names); "null" (a sandboxed page, a file) never is."""
        try:
            parts = urlsplit(origin.strip())
        except ValueError:
            return False
        return (
            parts.scheme in ("http", "https")
            and not parts.path.strip("/")
            and self.allows(parts.netloc)
        )


class RateLimit:
    """How often each client address may do one thing (create a table, guess a code): a bucket
    of ``burst`` that refills at ``per_minute``. Thread-safe; held by the app."""

    def __init__(
        self,
        per_minute: float = PER_MINUTE,
        burst: int = BURST,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.per_second = per_minute / 60.0
        self.burst = burst
        self.clock = clock or time.monotonic
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (tokens, when)

    def take(self, client: str) -> float:
        """Take one go for ``client``: 0 when it may go ahead, else how many seconds until it
        may."""
        now = self.clock()
        with self._lock:
            self._forget(now)
            tokens, when = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - when) * self.per_second)
            if tokens >= 1.0:
                self._buckets[client] = (tokens - 1.0, now)
                return 0.0
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.per_second

    def _forget(self, now: float) -> None:
        stale = [c for c, (_, when) in self._buckets.items() if now - when > FORGET_S]
        for client in stale:
            del self._buckets[client]


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, never 0 for a refusal."""
    return str(max(1, math.ceil(seconds)))
