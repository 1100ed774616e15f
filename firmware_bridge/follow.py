"""Keeping the LED score displays equal to the scoreboard: after every event of any table, the
displays show that table's totals in seat order, its leaders highlighted and the unsure ones (a
total kept from an earlier board while the board in effect needs a look) blinking. ``show`` only
stores the newest scene, so the table session is never held up by the serial link."""

from __future__ import annotations

from companion.table.events import Event
from companion.table.session import Tables
from firmware_bridge.driver import DisplayDriver
from firmware_bridge.messages import MAX_DISPLAYS
from firmware_bridge.scene import Scene


def scene_for(
    totals: tuple[int, ...], places: tuple[int, ...], unsure: tuple[bool, ...] = ()
) -> Scene:
    """One display per seat (the first four), the players in first place highlighted and the
    unsure totals blinking: the protocol's blink mark is the one sign the digits can carry
    beside the number itself (the font has no '?'), and it leaves the number readable."""
    shown = totals[:MAX_DISPLAYS]
    leaders = frozenset(i for i, place in enumerate(places[:MAX_DISPLAYS]) if place == 1)
    doubtful = frozenset(i for i, kept in enumerate(unsure[:MAX_DISPLAYS]) if kept)
    return Scene(tuple(shown), highlight=leaders, blink=doubtful)


class ScoreFollower:
    def __init__(self, tables: Tables, driver: DisplayDriver) -> None:
        self.tables = tables
        self.driver = driver

    def __call__(self, event: Event) -> None:
        state = self.tables.state(event.table)
        self.driver.show(scene_for(state.totals(), state.standings(), state.unsure_seats()))
