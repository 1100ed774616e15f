"""The HTTP server in front of the app: waitress, held to the app's limits.

waitress reads a whole request before the app sees it, spooling a body over 512 KB to a
temporary file, and by default takes bodies up to 1 GiB: a 200 MB upload was written to disk
before the app answered 413. Here waitress takes no more than the app does
(``MAX_CONTENT_LENGTH``): a declared Content-Length over it is answered 413 as soon as the headers
are in, before a byte of the body is read, and a chunked body is cut off once it passes it. Its
own refusals are one line of JSON, as the app's are.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server
from waitress.task import ErrorTask
from waitress.utilities import RequestEntityTooLarge

from web import too_large

# A connection idle this long, between requests or in the middle of sending one, is closed
# (waitress's default is 2 minutes): a phone uploading on weak Wi-Fi pauses for seconds, not half
# a minute. A request being answered, such as a live stream, is never cut.
IDLE_TIMEOUT_S = 30


class _JsonErrorTask(ErrorTask):
    """waitress's own refusals (a body over the limit, a malformed request) as
    ``{"error": "<one line>"}``."""

    def execute(self) -> None:
        # The task holds the request's parser, which holds the error (the stubs type it wrong).
        parser: Any = self.request
        error = parser.error
        if isinstance(error, RequestEntityTooLarge):
            # waitress refuses a body of max_request_body_size bytes or more.
            message = too_large(self.channel.server.adj.max_request_body_size - 1)
        else:
            message = f"{error.reason}: {error.body}".replace("\n", " ")
        body = json.dumps({"error": message}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers = [*self.response_headers, ("Content-Type", "application/json")]
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):
    error_task_class = _JsonErrorTask


def make_server(
    app: Flask, host: str, port: int, threads: int, idle_timeout_s: int = IDLE_TIMEOUT_S
) -> MultiSocketServer | BaseWSGIServer:
    """A waitress server for ``app`` listening on ``host``:``port`` (not yet running), refusing
    bodies over ``app.config["MAX_CONTENT_LENGTH"]`` before reading them, and closing a
    connection idle for ``idle_timeout_s``."""
    limit = int(app.config["MAX_CONTENT_LENGTH"])
    sockets: dict[int, Any] = {}
    server = create_server(
        app,
        map=sockets,
        host=host,
        port=port,
        threads=threads,
        max_request_body_size=limit + 1,  # the app takes a body of exactly its limit
        channel_timeout=idle_timeout_s,
        # How often idle connections are looked for: a connection lives at most a third longer.
        cleanup_interval=max(1, idle_timeout_s // 3),
    )
    # Each listening socket makes the channel of every connection it accepts from its
    # channel_class: the first connection is accepted once the server runs.
    for listener in sockets.values():
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _Channel
    return server
