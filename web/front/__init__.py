"""The front server: live updates without a thread per viewer, the app on a bounded pool."""

from web.front.limits import Limits, raise_file_limit
from web.front.server import FrontServer, create_server

__all__ = ["FrontServer", "Limits", "create_server", "raise_file_limit"]
