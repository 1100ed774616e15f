"""The JSON API behind every page (docs/web.md). Reading is open to anyone on the network;
every change needs the table's join token (``X-Table-Token``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from werkzeug.exceptions import ServiceUnavailable

from companion.content.pigments import content_for
from companion.fields import Field, read_json_text
from companion.games.pigments.checker import check_pan, mix
from companion.games.pigments.codec import parse_chip, parse_pan_size
from companion.games.pigments.explain import explain_pan
from companion.games.pigments.model import Chip, Pan, PanSize
from companion.json_input import MAX_WHOLE
from companion.table.advice import advise_seat
from companion.table.events import Event
from companion.table.explanations import explanation_lines
from companion.table.overlay import marks
from companion.table.projection import history
from companion.table.session import Tables
from web.pictures import pictures_of
from web.security import not_fed_live, require_token, slow_down
from web.services import services

api = Blueprint("api", __name__, url_prefix="/api")
# A table's setup, a correction or a recipe check is under 2 KB: a JSON body many times that
# size is no request of ours, and refusing it keeps parsing and checking one cheap.
MAX_JSON_BODY = 64 * 1024
# The printed content changes only with a new release: a day keeps a phone from asking again on
# every page it opens, and the ETag makes the next ask after that cheap.
CONTENT_MAX_AGE_S = 24 * 3600
PHOTO_RETRY_S = 2  # a busy table's answer to a photo: a scan takes 0.1 s to 2 s


def json_body() -> Field:
    """The request's JSON document; a wrong type is a 415, a body over ``MAX_JSON_BODY`` a 413,
    bad JSON or JSON past the limits of ``companion.json_input`` a one-line 400."""
    if request.mimetype != "application/json":
        abort(415, description="send the body as JSON (Content-Type: application/json)")
    data = request.get_data()
    if len(data) > MAX_JSON_BODY:
        abort(413, description=f"body: a JSON body is at most {MAX_JSON_BODY:,} bytes")
    return Field(read_json_text(data.decode(errors="replace"), "body"))


def _links(table: str, token: str | None = None) -> dict[str, str]:
    query = {"token": token} if token else {}
    return {
        "scoreboard": url_for("pages.scoreboard", table=table, _external=True, **query),
        "api": url_for("api.table_state", table=table, _external=True),
    }


def _to_change(table: str) -> Tables:
    """The tables, once ``table`` is known (else 404) and the request holds its join token
    (else 403)."""
    tables = services().tables
    tables.state(table)
    require_token(table)
    return tables


def _changed(table: str, event: Event) -> tuple[Response, int]:
    """The answer to a change that needs no more than its event: the scoreboard after it."""
    return jsonify({"event": event.id, "scores": services().tables.state(table).scores_json()}), 201


@api.get("/led")
def led() -> Response:
    """What the emulated LED score displays show (``atelier serve --led emulator``)."""
    state = services().led_state
    if state is None:
        abort(404, "this server drives no emulated LED displays")
    return jsonify(state())


@api.post("/tables")
def create_table() -> tuple[Response, int]:
    slow_down()
    created = services().tables.create(json_body().value)
    body = {
        "id": created.table,
        "token": created.token,
        "links": _links(created.table, created.token),
    }
    return jsonify(body), 201


@api.get("/tables")
def list_tables() -> Response:
    tables = services().tables
    listed = []
    for table in tables.ids():
        state = tables.state(table)
        listed.append(
            {
                "id": table,
                "game": state.setup.game,
                "players": [p.name for p in state.setup.players],
                "round": state.round,
            }
        )
    return jsonify({"tables": listed})


@api.get("/tables/<table>")
def table_state(table: str) -> Response:
    return jsonify(services().tables.state(table).to_json())


@api.delete("/tables/<table>")
def delete_table(table: str) -> Response:
    """Remove the table with its whole log and pictures; its live streams end."""
    tables = _to_change(table)
    not_fed_live(table)
    tables.remove(table)
    services().hub.wake(table)
    return jsonify({"deleted": table})


@api.post("/tables/<table>/token")
def rotate_token(table: str) -> tuple[Response, int]:
    """A new join token for the table; the one sent stops working at once."""
    tables = _to_change(table)
    not_fed_live(table)
    token = tables.rotate_token(table)
    return jsonify({"id": table, "token": token, "links": _links(table, token)}), 201


@api.get("/tables/<table>/history")
def table_history(table: str) -> Response:
    tables = services().tables
    state = tables.state(table)
    entries = history(state.setup, tables.events(table))
    return jsonify(
        {
            "history": [e.to_json() for e in reversed(entries)],
            "undoable": state.last_change,
        }
    )


@contextmanager
def _photo_slot() -> Iterator[None]:
    """Hold one of the slots of the photos read at once while a photo is in memory, waiting
    for one briefly; none free in time is a 503 that says when to try again."""
    shared = services()
    if not shared.photo_slots.acquire(timeout=shared.photo_wait_s):
        raise ServiceUnavailable(
            "the table is reading other photos: send this one again in a moment",
            retry_after=PHOTO_RETRY_S,
        )
    try:
        yield
    finally:
        shared.photo_slots.release()


@api.post("/tables/<table>/scans")
def scan(table: str) -> tuple[Response, int]:
    tables = _to_change(table)
    upload = request.files.get("image")
    if upload is None:
        abort(400, description="image: missing (send the photo as the multipart field 'image')")
    with _photo_slot():
        reading = services().reader.read_photo(upload.read())
    result = tables.scan(table, reading.boards, reading.views, reading.unreadable)
    state = tables.state(table)
    body = {
        "event": result.event.id,
        "boards": [r.to_json() for r in result.readings],
        "ignored": list(result.ignored),
        "timing_ms": round(reading.total_ms, 1),
        "scores": state.scores_json(),
    }
    return jsonify(body), 201


@api.post("/tables/<table>/corrections")
def correction(table: str) -> tuple[Response, int]:
    tables = _to_change(table)
    event = tables.correct(table, json_body())
    state = tables.state(table)
    return jsonify(
        {"event": event.id, "board": event.data["reading"], "scores": state.scores_json()}
    ), 201


@api.post("/tables/<table>/rounds")
def end_round(table: str) -> tuple[Response, int]:
    return _changed(table, _to_change(table).end_round(table))


@api.post("/tables/<table>/end")
def end_game(table: str) -> tuple[Response, int]:
    """Players end an Isle of Colors game after its final round (the table cannot see when)."""
    return _changed(table, _to_change(table).end_game(table))


@api.post("/tables/<table>/spills")
def spill(table: str) -> tuple[Response, int]:
    """Pigment Lab: ``{"seat", "chips", "round"?}``, a Spill Line count entered at the table."""
    return _changed(table, _to_change(table).enter_spill(table, json_body()))


@api.post("/tables/<table>/diagnoses")
def diagnosis(table: str) -> tuple[Response, int]:
    """Pigment Lab: ``{"seat", "right"}``, a Fault diagnosis verdict entered at the table."""
    return _changed(table, _to_change(table).enter_diagnosis(table, json_body()))


@api.post("/tables/<table>/rolls")
def roll(table: str) -> tuple[Response, int]:
    """Isle of Colors: ``{"roll"}``, the round's die as rolled at the table."""
    return _changed(table, _to_change(table).enter_roll(table, json_body()))


@api.post("/tables/<table>/tokens")
def tokens(table: str) -> tuple[Response, int]:
    """Paintings: ``{"seat", "tokens"}``, the Inspiration tokens a player holds."""
    return _changed(table, _to_change(table).enter_tokens(table, json_body()))


@api.post("/tables/<table>/tools")
def tools(table: str) -> tuple[Response, int]:
    """Color Field with Community Tools: ``{"card"}`` (an id or null), the card revealed this
    round, or ``{"seat", "declined"}``, a player declining it (false: using it after all)."""
    return _changed(table, _to_change(table).enter_tools(table, json_body()))


@api.post("/tables/<table>/undo")
def undo(table: str) -> tuple[Response, int]:
    tables = _to_change(table)
    event = tables.undo(table)
    body = {
        "event": event.id,
        "undoes": event.data["undoes"],
        "scores": tables.state(table).scores_json(),
    }
    return jsonify(body), 201


def _seat(table: str, seat: int) -> Any:
    state = services().tables.state(table)
    if seat not in state.setup.seats:
        abort(404, description=f"no player sits at seat {seat}")
    return state, state.seat(seat)


@api.post("/tables/<table>/seats/<int:seat>/advice")
def advice(table: str, seat: int) -> Response:
    """A suggested move for the seat's player: their board as last read, with what no camera
    sees (``tile``, ``hand``, ``roll``, ``crates``...) in the body. Changes nothing."""
    _to_change(table)
    state, _ = _seat(table, seat)
    report = advise_seat(state, seat, json_body())
    return jsonify({"seat": seat, "advice": report.data, "explanation": report.text})


@api.get("/tables/<table>/seats/<int:seat>")
def seat_board(table: str, seat: int) -> Response:
    """A player's board as last seen: the reading, its marks, its explanation for people and
    the picture's regions."""
    state, current = _seat(table, seat)
    player = state.setup.player(seat)
    reading = current.reading
    view = None
    if current.reading_event is not None:
        stored = services().tables.store.view(table, current.reading_event, seat)
        if stored is not None:
            view = {
                **stored.regions,
                "image": url_for(
                    "api.seat_picture", table=table, seat=seat, scan=current.reading_event
                ),
            }
    explained = (
        ()
        if reading is None
        else explanation_lines(reading.game, reading.scored.score, current.penalties)
    )
    return jsonify(
        {
            "player": player.to_json() if player else None,
            "total": state.total(seat),
            "unsure": state.unsure(seat),
            "scan": current.reading_event,
            "board": None if reading is None else reading.to_json(),
            "marks": {} if reading is None else marks(reading.game, reading.scored.score),
            "explanation_lines": [section.to_json() for section in explained],
            "view": view,
        }
    )


# An id past SQLite's 64-bit integers names no scan: the route does not match it (404).
@api.get(f"/tables/<table>/seats/<int:seat>/picture/<int(max={MAX_WHOLE}):scan>.jpg")
def seat_picture(table: str, seat: int, scan: int) -> Response:
    _seat(table, seat)
    stored = services().tables.store.view(table, scan, seat)
    if stored is None:
        abort(404, description=f"no picture of seat {seat} from scan #{scan}")
    response = Response(stored.jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@api.get("/content/<game>")
def content(game: str) -> Response:
    """The pieces the correction picker draws: Color Field tiles with their edges, Paintings art
    cards with their slots, Isle of Colors islands and pencils, Pigment Lab chips and shade faces
    (never a recipe); each with the colours to draw it in."""
    pictures = pictures_of(game)
    if pictures is None:
        abort(404, description=f"no game {game!r} (colorfield, paintings, isle or pigments)")
    response = jsonify(pictures)
    response.headers["Cache-Control"] = f"public, max-age={CONTENT_MAX_AGE_S}"
    response.add_etag()
    response.make_conditional(request)  # a 304 when the browser's copy is current
    return response


def _reveal_query() -> bool:
    """``?reveal=1`` asks for the shade cards' recipes (the back of the cards); ``0`` or none
    keeps them hidden."""
    value = request.args.get("reveal", "0")
    if value not in ("0", "1"):
        abort(400, description=f"reveal: expected 0 or 1, not {value!r}")
    return value == "1"


@api.get("/pigments")
def pigments_catalogue() -> Response:
    """The chips, the pans and each shade card's face (name, colour); its recipe with
    ``?reveal=1``."""
    reveal = _reveal_query()
    content = content_for(None)
    shades = [
        {
            "name": name,
            "srgb": mix(list(shade.recipe), content.catalogue).display.hex,
            **({"recipe": [chip.value for chip in shade.recipe]} if reveal else {}),
        }
        for name, shade in sorted(content.shades.items())
    ]
    return jsonify(
        {
            "chips": [chip.value for chip in Chip],
            "pans": [{"name": size.value, "slots": size.slots} for size in PanSize],
            "shades": shades,
        }
    )


@api.post("/pigments/check")
def pigments_check() -> Response:
    """``{"shade", "pan", "chips"}``: would this pan press under this shade card, and why;
    ``"reveal": true`` lets the answer name the card's recipe."""
    body = json_body()
    members = body.members(required=("shade", "pan", "chips"), optional=("reveal",))
    reveal = members["reveal"].boolean() if "reveal" in members else False
    content = content_for(None)
    shade = members["shade"].lookup(content.shades, "shade")
    size = parse_pan_size(members["pan"])
    chips = tuple(parse_chip(f) for f in members["chips"].array(max_len=size.slots))
    check = check_pan(Pan(size, chips), shade, content.catalogue, reveal=reveal)
    return jsonify({**check.to_json(), "explanation": explain_pan(check)})
