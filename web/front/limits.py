"""What one connection may cost the server, checked before the work it asks for: the size of a
request's head and body, how long each may take to arrive, how long a kept-alive connection may
sit idle, how long a client may leave a response unread, and how many connections may be open."""

from __future__ import annotations

import resource
from dataclasses import dataclass

# Files the process keeps besides its connections: the tables' database (one connection per
# thread), the listening socket, the event loop's own, standard streams, a camera or a port.
RESERVED_FILES = 64


@dataclass(frozen=True)
class Limits:
    max_body: int  # bytes; larger bodies are refused (413) before they are read
    max_head: int = 16 * 1024  # request line and headers, in bytes (431 beyond)
    head_seconds: float = 10.0  # a request's head arrives within this long of its first byte
    body_seconds: float = 60.0  # and its body within this long of its head (16 MB at 270 kB/s)
    idle_seconds: float = 15.0  # a kept-alive connection waits this long for its next request
    drain_seconds: float = 5.0  # a client that takes none of a response's bytes for this long
    connections: int = 0  # open connections at most; 0: as many as the file limit allows


def connection_cap(threads: int) -> int:
    """How many connections the process can hold open: its file-descriptor limit less the files
    each worker thread and the process itself keep."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(16, soft - threads - RESERVED_FILES)


def raise_file_limit() -> int:
    """Raise the process's soft file-descriptor limit to its hard limit (many systems start
    processes at 1,024, and each viewer is a connection); answer the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            return soft  # some containers refuse: keep what there is
        return hard
    return soft
