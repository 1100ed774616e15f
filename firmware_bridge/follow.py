"""Keeping the LED score displays equal to the scoreboard: after every event of any table, the
displays show that table's totals in seat order, its leaders highlighted. ``show`` only stores
the newest scene, so the table session is never held up by the serial link."""

from __future__ import annotations

from companion.table.events import Event
from companion.table.session import Tables
from firmware_bridge.driver import DisplayDriver
from firmware_bridge.messages import MAX_DISPLAYS
from firmware_bridge.scene import Scene


def scene_for(totals: tuple[int, ...], places: tuple[int, ...]) -> Scene:
    """One display per seat (the first four), the players in first place highlighted."""
    shown = totals[:MAX_DISPLAYS]
    leaders = frozenset(i for i, place in enumerate(places[:MAX_DISPLAYS]) if place == 1)
    return Scene(tuple(shown), highlight=leaders)


class ScoreFollower:
    def __init__(self, tables: Tables, driver: DisplayDriver) -> None:
        self.tables = tables
        self.driver = driver

    def __call__(self, event: Event) -> None:
        state = self.tables.state(event.table)
        self.driver.show(scene_for(state.totals(), state.standings()))
