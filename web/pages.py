"""The pages: start a table, the scoreboard, a player's view, scanning from a phone, history,
and the Pigment Lab recipe checker. Each page is a template filled from the same state the JSON
API answers; the scripts beside it keep it live."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.content import colorfield
from companion.content.pigments import content_for
from companion.errors import AtelierError
from companion.fields import Field
from companion.games.isle.model import CONDITIONS, Colour
from companion.games.paintings.model import Goal
from companion.games.paintings.scoring import SCORING_CARDS_IN_PLAY
from companion.games.pigments.model import Chip
from companion.games.registry import games
from companion.table.community_tools import card_name, known_cards
from companion.table.ending import DECLARED_END
from companion.table.penalties import MAX_SPILL_CHIPS, PENALTY_GAMES
from companion.table.projection import TableState
from companion.table.session import MAX_TOKENS
from companion.table.setup import PRINTED_SEATS, parse_setup
from web.qr import qr_svg
from web.security import check_csrf, csrf_token, page_token, slow_down
from web.services import services

pages = Blueprint("pages", __name__)
# Each game's title as its rules name it (the start form lists them in this order).
GAME_TITLES = MappingProxyType({name: entry.title for name, entry in games().items()})
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")


@pages.app_context_processor
def shared() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "game_titles": GAME_TITLES}


def _form_options() -> dict[str, Any]:
    return {
        "games": GAME_TITLES,
        "seats": max(PRINTED_SEATS.values()),
        "seats_by_game": dict(PRINTED_SEATS),
        "colours": PLAYER_COLOURS,
        "goals": [goal.value for goal in Goal],
        "cards_in_play": SCORING_CARDS_IN_PLAY,
        "conditions": {c.value: [o.value for o in options] for c, options in CONDITIONS.items()},
        "shades": sorted(content_for(None).shades),
    }


@pages.get("/")
def index() -> str:
    tables = services().tables
    listed = [tables.state(t) for t in tables.ids()]
    return render_template(
        "index.html", tables=listed, form=_form_options(), error=None, values=None
    )


def _setup_from_form() -> dict[str, Any]:
    """The form's fields as the setup JSON that ``parse_setup`` checks."""
    form = request.form
    game = form.get("game", "")
    players = []
    for seat in range(1, max(PRINTED_SEATS.values()) + 1):
        name = form.get(f"name_{seat}", "").strip()
        if name:
            players.append({"name": name, "colour": form.get(f"colour_{seat}", "#888888")})
    # An unticked box is not sent: no "advice" is a table without suggestions.
    options: dict[str, Any] = {"advice": form.get("advice") == "on"}
    if game == "colorfield":
        options["community_tools"] = form.get("community_tools") == "on"
    if game == "paintings":
        options["scoring_cards"] = [form.get(f"card_{i}", "") for i in range(1, 5)]
    if game == "isle":
        options["conditions"] = {c.value: form.get(f"condition_{c.value}", "") for c in CONDITIONS}
    if game == "pigments":
        options["shade_row"] = form.getlist("shade_row")
    return {"game": game, "players": players, "options": options}


@pages.post("/tables")
def create() -> Response | tuple[str, int]:
    check_csrf()
    slow_down()
    try:
        setup = parse_setup(Field(_setup_from_form()))
    except AtelierError as exc:
        tables = services().tables
        listed = [tables.state(t) for t in tables.ids()]
        # The form comes back as it was sent, with the mistake named above it.
        page = render_template(
            "index.html", tables=listed, form=_form_options(), error=str(exc), values=request.form
        )
        return page, 400
    created = services().tables.create(setup)
    return redirect(url_for("pages.scoreboard", table=created.table, token=created.token), 303)


def _public_url(endpoint: str, **values: Any) -> str:
    """An address a phone on the network can open (the configured one, else this request's)."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for(endpoint, **values)


def _page(template: str, state: TableState, **more: Any) -> str:
    token = page_token(state.table)
    return render_template(
        template,
        state=state,
        scores=state.scores_json(),
        token=token,
        led=services().led_state is not None,
        **more,
    )


@pages.get("/t/<table>")
def scoreboard(table: str) -> str:
    state = services().tables.state(table)
    token = page_token(table)
    # Only a page opened with the join link shows it; watchers get a code to watch.
    link = _public_url("pages.scoreboard", table=table, **({"token": token} if token else {}))
    return _page(
        "scoreboard.html",
        state,
        join_url=link,
        join_address=_public_url("join.start"),
        qr=qr_svg(link),
        declared_end=DECLARED_END,
        penalty_games=PENALTY_GAMES,
        max_spill_chips=MAX_SPILL_CHIPS,
        max_tokens=MAX_TOKENS,
        tool_cards=[(card, card_name(card)) for card in known_cards()],
    )


@pages.get("/t/<table>/seat/<int:seat>")
def seat(table: str, seat: int) -> str:
    state = services().tables.state(table)
    player = state.setup.player(seat)
    if player is None:
        abort(404, description=f"no player sits at seat {seat}")
    return _page("seat.html", state, player=player, advice_choices=_advice_choices(state))


def _advice_choices(state: TableState) -> tuple[str, ...]:
    """What the suggestion form offers to pick from: Color Field's tiles, Isle's colours,
    Pigment Lab's chips (a Paintings hand is typed as card ids)."""
    game = state.setup.game
    if game == "colorfield":
        return tuple(colorfield.default_content().tiles)
    if game == "isle":
        return tuple(colour.value for colour in Colour)
    if game == "pigments":
        return tuple(chip.value for chip in Chip)
    return ()


@pages.get("/t/<table>/scan")
def scan(table: str) -> str:
    state = services().tables.state(table)
    if page_token(table) is None:
        abort(403, description="scanning needs the join link (scan the table's QR code)")
    return _page("scan.html", state)


@pages.get("/t/<table>/history")
def history(table: str) -> str:
    return _page("history.html", services().tables.state(table))


@pages.get("/recipes")
def recipes() -> str:
    return render_template("recipes.html")
