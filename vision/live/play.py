"""A live source's games through one live loop: a frame of the next game starts the reader
afresh, handing that game's readings to wherever the game's beginning says."""

from __future__ import annotations

from collections.abc import Callable

from vision.capture.latest import Capture, Frame
from vision.capture.sources import Source
from vision.live.debug import debug_jpeg
from vision.live.loop import Accept, LiveLoop, LiveReader
from vision.live.stability import Settings


class LivePlay:
    """Plays ``source``: ``game_at`` says which game (0 the first played) a frame index shows,
    and ``begin`` is called as each game begins, answering where its readings go."""

    def __init__(
        self,
        source: Source,
        game_at: Callable[[int], int],
        begin: Callable[[int], Accept],
        report: Callable[[str], None],
        settings: Settings | None = None,
    ) -> None:
        self._source = source
        self._game_at = game_at
        self._begin = begin
        self._report = report
        self._settings = settings
        self._game = 0
        self._loop: LiveLoop | None = None

    def start(self) -> None:
        """Begin the first game and start the loop; the source is opened first, so that one
        that cannot be opened fails before anything is made for it."""
        capture = Capture(self._source, self._report)
        capture.start()
        try:
            reader = LiveReader(self._begin(0), self._settings)
            self._loop = LiveLoop(capture, reader, self._follow)
            self._loop.start()
        except BaseException:
            capture.stop()
            raise

    def stop(self) -> None:
        """Stop the loop, then the source."""
        if self._loop is not None:
            self._loop.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the source to end; whether it has (a camera never does)."""
        return self._loop is None or self._loop.wait(timeout)

    def picture(self) -> bytes | None:
        """The newest frame with what was made of it drawn on (JPEG); None before the first."""
        if self._loop is None:
            return None
        reader = self._loop.reader
        seen = reader.latest
        if seen is None:
            return None
        return debug_jpeg(seen, reader.scanner.index, reader.filter.settings)

    def _follow(self, frame: Frame) -> None:
        """Before each frame (on the loop's thread): a frame of the next game begins it."""
        game = self._game_at(frame.index)
        if game != self._game and self._loop is not None:
            accept = self._begin(game)
            self._game = game
            self._loop.reader.restart(accept)
