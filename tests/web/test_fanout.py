"""The fan-out on its own: a viewer whose client takes nothing is dropped after its drain time,
while the others of its table keep receiving every event."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from companion.table.session import Tables
from tests.web.conftest import PLAYERS
from web.front.fanout import Fanout
from web.handoff import Handoff
from web.hub import Hub

DRAIN_S = 0.2


class Sink:
    """A client that takes everything (``stuck`` False) or nothing."""

    def __init__(self, stuck: bool) -> None:
        self.chunked = False
        self.stuck = stuck
        self.got = b""

    def write(self, data: bytes) -> bool:
        self.got += data
        return not self.stuck

    async def drained(self) -> bool:
        if self.stuck:
            await asyncio.sleep(DRAIN_S)
        return not self.stuck


def test_a_viewer_that_takes_nothing_is_dropped_and_the_others_go_on(tmp_path: Path) -> None:
    tables = Tables(tmp_path)
    hub = Hub()
    tables.listen(hub.publish)
    table = tables.create({"game": "pigments", "players": PLAYERS}).table
    handoff = Handoff(table, 0, tables, hub, keepalive=30.0, seconds=60.0)

    async def watch() -> tuple[Sink, float, int]:
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(1) as reader:
            fanout = Fanout(loop, reader)
            stuck, fine = Sink(stuck=True), Sink(stuck=False)
            dropped = asyncio.create_task(fanout.watch(handoff, stuck))
            watching = asyncio.create_task(fanout.watch(handoff, fine))
            while b"stream of table" not in fine.got or hub.watchers(table) == 0:
                await asyncio.sleep(0.01)
            start = loop.time()
            await dropped  # its opening was not taken: dropped after the drain time
            took = loop.time() - start
            await loop.run_in_executor(None, tables.end_round, table)
            while b"id: 1\n" not in fine.got:
                await asyncio.sleep(0.01)
            viewers = fanout.viewers()
            fanout.close()
            await watching
        return stuck, took, viewers

    stuck, took, viewers = asyncio.run(watch())
    tables.close()
    assert took < DRAIN_S * 5
    assert viewers == 1
    assert b"id: 1\n" not in stuck.got
    assert hub.watchers(table) == 0  # the feed left the hub with its last viewer
