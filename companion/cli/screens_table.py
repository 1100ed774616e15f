"""The table the screenshots show: a scripted Color Field game, each turn rendered as a photo
of the table and scanned through the table's own API, so every number on the pages is one the
real scanner read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from companion.errors import AtelierError

GAME = "colorfield"
PLAYERS = ("Ana", "Ben", "Cy")
SEED = 2  # the script's and the renders': the same table every time
TURNS = 5
PHOTO_SIZE = (1920, 1080)


@dataclass(frozen=True)
class ShownTable:
    """A table in the app and the join token that opens its pages as a player."""

    table: str
    token: str


def scripted_table(client: Any, progress: Callable[[str], None]) -> ShownTable:
    """A Color Field table for ``PLAYERS`` made through ``client`` (a Flask test client of the
    app), its opening and every turn of the script scanned from rendered photos."""
    from companion.games.scripts import SCRIPTS
    from vision.render.envelope import Difficulty
    from vision.render.placing import plan_table
    from vision.render.renderer import Renderer, RenderOptions
    from web.pages import PLAYER_COLOURS

    script = SCRIPTS[GAME](SEED, len(PLAYERS), TURNS)
    # Each player in the colour the start form offers their seat first.
    players = [{"name": n, "colour": c} for n, c in zip(PLAYERS, PLAYER_COLOURS, strict=False)]
    setup = {"game": GAME, "players": players, "options": {}}
    made = client.post("/api/tables", json=setup)
    if made.status_code != 201:
        raise AtelierError(f"screenshots: the table was refused: {made.json['error']}")
    shown = ShownTable(made.json["id"], made.json["token"])
    renderer = Renderer()
    photos = (script.opening, *(turn.boards for turn in script.turns))
    for number, boards in enumerate(photos, 1):
        progress(f"scanning photo {number} of {len(photos)}")
        plan = plan_table({"table": list(boards)}, "screenshots")
        # Easy: no hand, no cup, the light even, so the scanner reads every board whole.
        photo = renderer.render(plan, RenderOptions(SEED, Difficulty.EASY, PHOTO_SIZE)).jpeg
        answer = client.post(
            f"/api/tables/{shown.table}/scans",
            data={"image": (BytesIO(photo), "table.jpg")},
            headers={"X-Table-Token": shown.token},
        )
        if answer.status_code != 201:
            raise AtelierError(f"screenshots: photo {number} was refused: {answer.json['error']}")
    return shown
