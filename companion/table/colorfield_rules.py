"""Color Field rules the table judges beyond the engine's checks between two turns.

A round's first scan of a canvas follows priming (round 1) or the reset and priming between rounds
(rounds 2 and 3), and a camera cannot tell whether the player also took the round's first turn,
nor whether they used Inspiration on the way. So that scan is judged against what the table last
knew (an empty canvas in round 1, the seat's last board of the previous round otherwise) as
"reset, priming, then at most one turn, Inspiration paid by tokens", and only what every such
reading breaks is reported:

- a tile of the previous canvas still on it was kept: more than the allowance is
  ``keep-allowance``; a kept tile moved or turned needs a token each (``changes.diff`` counts the
  fewest), beyond the tokens left ``kept-tile-changed``;
- a Foundation tile new to the canvas was primed, up-mark to the top, or turned by a token since:
  more turned than the tokens left is ``up-mark``; kept and primed tiles together beyond the
  tokens, each kind within them, is ``unpaid-inspiration``;
- a tile of a Round deck new to the canvas can only come from the turn: two or more of them is
  ``priming-foundation`` (priming deals Foundation tiles, one turn places one tile, and which one
  was the turn's cannot be told, so all are named), and none of them from the round's own deck is
  ``round-deck``;
- priming fills the empty spaces in order 1..6: an empty space before a new tile is
  ``priming-order``.

Inline tiles (no catalogue id) have no known deck and no up-mark, so they are not judged, as in
the engine's priming check.

Every turn, the round's first included, takes its tile from the round's own deck: a tile of
another deck newly placed is ``round-deck``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from companion.games.colorfield.changes import diff
from companion.games.colorfield.legality import Violation
from companion.games.colorfield.model import SPACES, Canvas, TileKind
from companion.games.colorfield.standings import dense_positions, keep_allowance
from companion.games.colorfield.words import placed_tile_words

ROUND_DECK: Final = "round-deck"


def keep_allowances(banked_totals: Sequence[int]) -> tuple[int, ...]:
    """Tiles each player may keep for the next round, in seat order, from their cumulative
    scores at the round's end (dense positions, games.md section 1)."""
    players = len(banked_totals)
    return tuple(keep_allowance(p, players) for p in dense_positions(banked_totals))


def empty_canvas(like: Canvas) -> Canvas:
    """The canvas a game starts with: ``like``'s board, nothing on it."""
    return Canvas(like.board, (None,) * len(SPACES))


def round_deck(after: Canvas, placed: Sequence[int], round_number: int) -> tuple[Violation, ...]:
    """A tile newly placed in round ``round_number`` comes from that round's deck."""
    expected = TileKind.for_round(round_number)
    wrong = [
        (space, placed_tile)
        for space in placed
        if (placed_tile := after.at(space)) is not None
        and placed_tile.tile.kind is not None
        and placed_tile.tile.kind is not expected
    ]
    if not wrong:
        return ()
    return (
        Violation(
            ROUND_DECK,
            tuple(sorted(space for space, _ in wrong)),
            f"a turn of round {round_number} takes a tile of the Round {round_number} deck, but "
            + ", ".join(f"space {s} holds {placed_tile_words(t)}" for s, t in wrong),
        ),
    )


@dataclass(frozen=True)
class RoundStartVerdict:
    violations: tuple[Violation, ...]
    tokens: int  # Inspiration tokens the most charitable reading spends


def judge_round_start(
    before: Canvas, after: Canvas, round_number: int, allowance: int, tokens_left: int
) -> RoundStartVerdict:
    """A round's first scan ``after`` against the canvas the round started from (see module)."""
    change = diff(before, after)
    new = change.placed
    kept = tuple(s for s in after.filled() if s not in new)
    found: list[Violation] = []
    if len(kept) > allowance:
        found.append(
            Violation(
                "keep-allowance",
                kept,
                f"{len(kept)} tiles kept from round {round_number - 1} ({_spaces(kept)}), but "
                f"the allowance by the scores banked is {allowance}",
            )
        )
    skipped = [s for s in after.empty() if any(n > s for n in new)]
    if skipped:
        beyond = [n for n in new if n > skipped[0]]
        found.append(
            Violation(
                "priming-order",
                tuple(sorted(skipped + beyond)),
                f"priming fills empty spaces in order 1..6, but {_spaces(skipped)} "
                f"{_was(skipped)} left empty while {_spaces(beyond)} {_was(beyond)} filled",
            )
        )
    tiles = {s: p for s in new if (p := after.at(s)) is not None}
    drawn = [s for s, p in tiles.items() if p.tile.kind not in (None, TileKind.FOUNDATION)]
    if len(drawn) > 1:
        found.append(
            Violation(
                "priming-foundation",
                tuple(drawn),
                "priming lays Foundation tiles and one turn places one tile, but "
                + ", ".join(f"space {s} holds {placed_tile_words(tiles[s])}" for s in drawn),
            )
        )
    expected = TileKind.for_round(round_number)
    if drawn and all(tiles[s].tile.kind is not expected for s in drawn):
        found += round_deck(after, drawn, round_number)
    turned = [s for s, p in tiles.items() if p.tile.up_mark and p.rotation != 0]
    found += _inspiration(turned, change.turned, change.moved, change.tokens, tokens_left)
    spent = min(len(turned) + change.tokens, tokens_left)
    return RoundStartVerdict(tuple(sorted(found, key=_order)), spent)


def _inspiration(
    turned: list[int],
    kept_turned: tuple[int, ...],
    kept_moved: tuple[int, ...],
    kept_tokens: int,
    tokens_left: int,
) -> list[Violation]:
    """What tokens cannot pay for: primed tiles turned, kept tiles moved or turned, or the two
    together (which of them went unpaid is unknowable, so every such space is named)."""
    verb = "is" if tokens_left == 1 else "are"
    left = "none is left" if tokens_left == 0 else f"only {tokens_left} {verb} left"
    found: list[Violation] = []
    if len(turned) > tokens_left:
        found.append(
            Violation(
                "up-mark",
                tuple(turned),
                f"Foundation tiles are primed with the up-mark to the top and each turned since "
                f"needs an Inspiration token, but {_spaces(turned)} "
                f"{'is' if len(turned) == 1 else 'are'} turned and {left}",
            )
        )
    changed = tuple(sorted(set(kept_turned + kept_moved)))
    if kept_tokens > tokens_left:
        found.append(
            Violation(
                "kept-tile-changed",
                changed,
                f"kept tiles stay exactly as they were unless Inspiration changes them, but the "
                f"changes in {_spaces(changed)} need {_tokens(kept_tokens)} and {left}",
            )
        )
    if not found and len(turned) + kept_tokens > tokens_left:
        both = tuple(sorted(set(turned) | set(changed)))
        found.append(
            Violation(
                "unpaid-inspiration",
                both,
                f"turned Foundation tiles ({_spaces(turned)}) and changed kept tiles "
                f"({_spaces(changed)}) need {_tokens(len(turned) + kept_tokens)}, but {left}",
            )
        )
    return found


def _order(violation: Violation) -> tuple[int, str]:
    return (violation.spaces[0] if violation.spaces else 0, violation.rule)


def _spaces(spaces: Sequence[int]) -> str:
    if len(spaces) == 1:
        return f"space {spaces[0]}"
    return "spaces " + ", ".join(str(s) for s in spaces)


def _was(spaces: Sequence[int]) -> str:
    return "was" if len(spaces) == 1 else "were"


def _tokens(n: int) -> str:
    return f"{n} Inspiration token{'' if n == 1 else 's'}"
