"""Community Tools effects: what a card does, as hooks the game calls, resolved by name.

A card in the catalogue (``ToolCard``) names an ``effect`` and gives integer ``params``. When a
game is set up, each chosen card's effect name is looked up in an effect table (``Effect`` values
keyed by name, ``DEFAULT_EFFECTS`` unless the caller passes its own); an unknown name, a card id
the catalogue lacks or a missing parameter is refused there and then, never mid-game.

An ``Effect`` is a small frozen bundle of hooks, each defaulting to "no change":

- ``tokens_allowed(card, allowed) -> int``: how many Inspiration tokens a player may have used in
  total while the card's round lasts (the rules allow 3);
- ``round_bonus(card, seat, scores) -> ToolBonus``: extra points for the player in ``seat`` when
  the round is scored, given every player's ``CanvasScore`` in seat order, with a one-line reason.

A further card is added as data when it reuses an effect kind with other params (a card with
``"effect": "inspiration-tokens", "params": {"tokens": 4}``), or as a small function put into a
copy of the table::

    def own_perfect_tiles(card, seat, scores):
        n = scores[seat].perfect_tiles
        return ToolBonus(n * card.params["points"], f"{card.name}: {n} perfect tiles")

    effect = Effect(params=("points",), round_bonus=own_perfect_tiles)
    effects = {**DEFAULT_EFFECTS, "own-perfect-tiles": effect}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.content.colorfield import ToolCard
from companion.errors import AtelierError
from companion.games.colorfield.scoring import CanvasScore
from companion.words import plural


@dataclass(frozen=True)
class ToolBonus:
    """Points a Community Tools card gave one player in one round, and why."""

    points: int
    reason: str


TokensHook = Callable[[ToolCard, int], int]
BonusHook = Callable[[ToolCard, int, Sequence[CanvasScore]], ToolBonus]


def unchanged_tokens(card: ToolCard, allowed: int) -> int:
    return allowed


def no_bonus(card: ToolCard, seat: int, scores: Sequence[CanvasScore]) -> ToolBonus:
    return ToolBonus(0, f"{card.name}: no points at scoring")


@dataclass(frozen=True)
class Effect:
    """The hooks of one effect kind and the integer params a card of that kind must give."""

    params: tuple[str, ...] = ()
    tokens_allowed: TokensHook = unchanged_tokens
    round_bonus: BonusHook = no_bonus


def perfect_tiles_of_others(card: ToolCard, seat: int, scores: Sequence[CanvasScore]) -> ToolBonus:
    """Mahl Stick: ``points`` per perfect tile on every other player's canvas."""
    each = card.params["points"]
    count = sum(score.perfect_tiles for other, score in enumerate(scores) if other != seat)
    points = count * each
    return ToolBonus(
        points,
        f"{card.name}: {plural(count, 'perfect tile')} on the other canvases x {each} = {points}",
    )


def inspiration_tokens(card: ToolCard, allowed: int) -> int:
    """Local Collective: ``tokens`` Inspiration tokens instead of the usual allowance."""
    return card.params["tokens"]


DEFAULT_EFFECTS: Mapping[str, Effect] = MappingProxyType(
    {
        "perfect-tiles-of-others": Effect(("points",), round_bonus=perfect_tiles_of_others),
        "inspiration-tokens": Effect(("tokens",), tokens_allowed=inspiration_tokens),
    }
)


@dataclass(frozen=True)
class ActiveTool:
    """A card together with its resolved effect, as the game holds it."""

    card: ToolCard
    effect: Effect

    def tokens_allowed(self, allowed: int) -> int:
        return self.effect.tokens_allowed(self.card, allowed)

    def bonus(self, seat: int, scores: Sequence[CanvasScore]) -> ToolBonus:
        return self.effect.round_bonus(self.card, seat, scores)


def resolve_tools(
    card_ids: Sequence[str], cards: Mapping[str, ToolCard], effects: Mapping[str, Effect]
) -> tuple[ActiveTool, ...]:
    """The chosen cards with their effects, in the order given; every mistake is named."""
    resolved: list[ActiveTool] = []
    for card_id in card_ids:
        if card_id not in cards:
            known = ", ".join(sorted(cards)) or "none"
            raise AtelierError(f"unknown Community Tools card {card_id!r} (known: {known})")
        if any(tool.card.id == card_id for tool in resolved):
            raise AtelierError(f"Community Tools card {card_id!r} is chosen twice")
        card = cards[card_id]
        if card.effect not in effects:
            known = ", ".join(sorted(effects)) or "none"
            raise AtelierError(
                f"Community Tools card {card_id!r}: unknown effect {card.effect!r} "
                f"(known effects: {known})"
            )
        effect = effects[card.effect]
        missing = [name for name in effect.params if name not in card.params]
        if missing:
            raise AtelierError(
                f"Community Tools card {card_id!r}: effect {card.effect!r} needs "
                f"params {', '.join(missing)}"
            )
        resolved.append(ActiveTool(card, effect))
    return tuple(resolved)
