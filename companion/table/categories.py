"""A player's score split into the categories a score sheet has, for the scoreboard's table.

Each category is ``{"name", "points", "note"?}``; ``points`` is None where the board needs a look
(it has no score to split). Every game lists the same names in the same order for every player,
so the scoreboard lines them up in rows; where every board is scored the points add up to the
player's total. A tie-break the table knows is listed last as ``{"name", "count"}`` (no points).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.table.community_tools import card_name
from companion.table.events import SPILL
from companion.words import plural

if TYPE_CHECKING:  # projection imports this module: the types only, to avoid a cycle
    from companion.table.projection import SeatState, TableState

Category = dict[str, Any]
PAN_SIZES = ("small", "medium", "large")


def categories(table: TableState, seat: SeatState) -> list[Category]:
    game = table.setup.game
    # The board whose score counts: while the board in effect needs a look, the one kept.
    board = table.counted_board(seat.seat)
    score = None if board is None else board.scored.score
    # A board never read well enough has no split: its rows show a dash, not a misleading 0.
    unread = table.board_of_last_round(seat.seat) is not None and score is None
    if game == "colorfield":
        return _colorfield(table, seat, score, unread)
    if game == "paintings":
        rows = _paintings(table.setup.options.scoring_cards, score, unread)
        held = table.unused_tokens(seat)
        return rows + ([] if held is None else [{"name": "Inspiration tokens", "count": held}])
    if game == "isle":
        return _isle(table.setup.options.conditions, score, unread)
    return _pigments(seat, score, unread)


def _points(value: Any, unread: bool) -> int | None:
    return None if unread else int(value or 0)


def _colorfield(
    table: TableState, seat: SeatState, score: dict[str, Any] | None, unread: bool
) -> list[Category]:
    # The canvas in play (the last round's once the game is over) split into edges and patch;
    # the canvases of the rounds before it as banked; the Community Tools points on their own.
    tools = table.tools.points_of(seat.seat)
    earlier_tools = sum(p.points for p in tools if p.round < table.round)
    earlier = sum(seat.banked[: table.round - 1]) - earlier_tools
    patch = (score or {}).get("patch") or {}
    rows: list[Category] = []
    if table.round > 1:
        rows.append({"name": "Earlier rounds", "points": earlier})
    perfect = (score or {}).get("perfect_tiles", 0)
    rows.append(
        {
            "name": "Edges",
            "points": _points((score or {}).get("edge_points"), unread),
            **({"note": f"{perfect} perfect tile{'' if perfect == 1 else 's'}"} if perfect else {}),
        }
    )
    size = patch.get("size", 0)
    rows.append(
        {
            "name": "Largest patch",
            "points": _points(patch.get("points"), unread),
            **({"note": f"{size} pieces, {patch['color']}"} if size and patch.get("color") else {}),
        }
    )
    if table.tools_json() is not None:
        cards = ", ".join(dict.fromkeys(card_name(p.card) for p in tools))  # each card once
        row = {"name": "Community Tools", "points": sum(p.points for p in tools)}
        rows.append(row | ({"note": cards} if cards else {}))
    rows.append({"name": "Unused Inspiration tokens", "count": table.unused_tokens(seat) or 0})
    return rows


def _paintings(cards: Sequence[str], score: dict[str, Any] | None, unread: bool) -> list[Category]:
    points = (score or {}).get("points", {})
    ribbons = (score or {}).get("ribbons", {})
    rows: list[Category] = []
    for card in cards:
        count = ribbons.get(card, 0)
        rows.append(
            {
                "name": card.capitalize(),
                "points": _points(points.get(card), unread),
                "note": plural(count, "ribbon"),
            }
        )
    silver = (score or {}).get("silver", 0)
    rows.append(
        {
            "name": "Silver ribbons",
            "points": _points(points.get("silver"), unread),
            "note": plural(silver, "ribbon"),
        }
    )
    return rows


def _isle(
    conditions: Mapping[str, str], score: dict[str, Any] | None, unread: bool
) -> list[Category]:
    colours = (score or {}).get("colors", {})
    return [
        {
            "name": f"{colour.capitalize()}: {condition}",
            "points": _points(colours.get(colour, {}).get("points"), unread),
        }
        for colour, condition in conditions.items()
    ]


def _pigments(seat: SeatState, score: dict[str, Any] | None, unread: bool) -> list[Category]:
    pressed = [p for p in (score or {}).get("pans", []) if p.get("pressed")]
    rows: list[Category] = []
    for size in PAN_SIZES:
        pans = [p for p in pressed if p["pan"] == size]
        rows.append(
            {
                "name": f"{size.capitalize()} pans",
                "points": _points(sum(p["points"] for p in pans), unread),
                "note": f"{len(pans)} pressed",
            }
        )
    spills = sum(p.points for p in seat.penalties.penalties() if p.kind == SPILL)
    diagnoses = seat.penalties.points - spills
    rows.append({"name": "Spill Lines", "points": spills})
    rows.append({"name": "Fault diagnoses", "points": diagnoses})
    return rows
