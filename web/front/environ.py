"""The WSGI environ of one request (PEP 3333), from its parsed head and its body, already read."""

from __future__ import annotations

import io
import sys
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import h11

from web.handoff import ENVIRON_KEY, Offer

Address = tuple[str, int]


def build_environ(
    request: h11.Request, body: bytes, client: Address, server: Address, offer: Offer
) -> dict[str, Any]:
    target = request.target.decode("latin-1")
    if target.startswith(("http://", "https://")):
        # The absolute form a proxy may send: the path is what the app routes.
        parts = urlsplit(target)
        path, query = parts.path or "/", parts.query
    else:
        path, _, query = target.partition("?")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": request.method.decode("ascii"),
        "SCRIPT_NAME": "",
        # PEP 3333: the decoded path's bytes, each as one latin-1 character.
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query,
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{request.http_version.decode('ascii')}",
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(len(body)) if body else "",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        ENVIRON_KEY: offer,
    }
    for raw_name, raw_value in request.headers:
        name = raw_name.decode("latin-1").upper()
        if "_" in name:
            # ``X_Token`` and ``X-Token`` would share one key: a header that could pass for
            # another (one a proxy checked) is dropped, as other servers do.
            continue
        value = raw_value.decode("latin-1")
        if name == "CONTENT-TYPE":
            environ["CONTENT_TYPE"] = value
            continue
        if name in ("CONTENT-LENGTH", "TRANSFER-ENCODING"):
            continue  # the body is already read: its length is CONTENT_LENGTH
        key = "HTTP_" + name.replace("-", "_")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ
