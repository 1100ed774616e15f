"""Pigment Lab as a pure state machine: ``new_game`` deals from a seed, ``apply`` plays one action.

Every action is checked against the rules first; an illegal one raises
``IllegalActionError(rule, message)`` and leaves nothing changed (states are immutable).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.errors import IllegalActionError
from companion.games.pigments.actions import (
    Action,
    ClaimShade,
    Diagnose,
    Draft,
    EndTurn,
    Kiln,
    Press,
    ReturnChip,
    Sift,
    SkipRemedy,
    SpendWater,
    SwapChip,
)
from companion.games.pigments.checker import check_pan
from companion.games.pigments.faults import FaultCard, diagnosis_is_right
from companion.games.pigments.model import ROUNDS, Chip, Shade, canonical
from companion.games.pigments.shades import ShadeCatalogue
from companion.games.pigments.state import (
    CHIPS_PER_CRATE,
    MAX_HELD_SHADES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SHADE_ROW,
    SPILL,
    BoardPan,
    GameState,
    PendingDiagnosis,
    PendingRemedy,
    Place,
    PlayerState,
    empty_board,
)
from companion.words import plural

WATER_PER_CHIP = 2


@dataclass(frozen=True)
class Transition:
    """The state after an action and what happened, in words."""

    state: GameState
    event: str


def new_game(
    players: int,
    chips: Mapping[Chip, int],
    catalogue: ShadeCatalogue,
    faults: tuple[FaultCard, ...],
    seed: int,
    first_player: int = 0,
) -> GameState:
    """Setup: shuffle the supply, fill players + 1 crates, deal the Shade Row, shuffle faults."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Pigment Lab is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 0 <= first_player < players:
        raise ValueError("the First Chemist must be one of the players")
    if not faults:
        raise ValueError("the Fault deck needs at least one card")
    rng = random.Random(seed)
    supply = [chip for chip, count in chips.items() for _ in range(count)]
    rng.shuffle(supply)
    shades = list(catalogue.shades)
    rng.shuffle(shades)
    fault_deck = list(faults)
    rng.shuffle(fault_deck)
    state = GameState(
        players=tuple(PlayerState(empty_board()) for _ in range(players)),
        crates=tuple(() for _ in range(players + 1)),
        tray=(),
        supply=tuple(supply),
        box=(),
        shade_row=tuple(shades[:SHADE_ROW]),
        shade_deck=tuple(shades[SHADE_ROW:]),
        fault_deck=tuple(fault_deck),
        catalogue=catalogue,
        first_player=first_player,
        current=first_player,
    )
    return _fill_crates(state)


def _fill_crates(state: GameState) -> GameState:
    """Each crate takes up to 3 chips from the top of the supply (fewer once it runs out)."""
    supply = list(state.supply)
    crates = []
    for _ in state.crates:
        crates.append(canonical(supply[:CHIPS_PER_CRATE]))
        del supply[:CHIPS_PER_CRATE]
    return replace(state, crates=tuple(crates), supply=tuple(supply))


def _remove(chips: tuple[Chip, ...], chip: Chip, count: int = 1) -> tuple[Chip, ...]:
    out = list(chips)
    for _ in range(count):
        out.remove(chip)
    return canonical(out)


def _pan_index(state: GameState, index: int, rule: str) -> BoardPan:
    if not 0 <= index < len(state.player.pans):
        raise IllegalActionError(rule, f"there is no pan {index} (pans are 0..3, board order)")
    return state.player.pans[index]


def _unpressed(state: GameState, index: int, rule: str) -> BoardPan:
    pan = _pan_index(state, index, rule)
    if pan.pressed:
        raise IllegalActionError(rule, f"pan {index} ({pan.pan.size}) is already pressed")
    return pan


def _who(state: GameState) -> str:
    return f"Player {state.current + 1}"


def draft(state: GameState, action: Draft) -> Transition:
    if state.drafted:
        raise IllegalActionError("one-draft", "you have already drafted this turn")
    if action.crate is None:
        source, where = state.tray, "the Spill Tray"
    elif 0 <= action.crate < len(state.crates):
        source, where = state.crates[action.crate], f"crate {action.crate}"
    else:
        raise IllegalActionError("draft-source", f"there is no crate {action.crate}")
    taken = source.count(action.colour)
    if taken == 0:
        raise IllegalActionError("draft-colour", f"{where} holds no {action.colour} chip")
    player = state.player
    if action.pan is None:
        if any(not p.pressed for p in player.pans):
            raise IllegalActionError(
                "one-pan", "put the chips into one of your pans (overflow goes on the Spill Line)"
            )
        fit = 0
    else:
        target = _unpressed(state, action.pan, "one-pan")
        fit = min(taken, target.pan.room)
        player = player.with_chips_at(action.pan, (*target.pan.chips, *[action.colour] * fit))
    spilled = taken - fit
    player = replace(player, spill_line=canonical((*player.spill_line, *[action.colour] * spilled)))
    rest = tuple(chip for chip in source if chip is not action.colour)
    if action.crate is None:
        state = replace(state, tray=rest)
        slid = ""
    else:
        crates = list(state.crates)
        crates[action.crate] = ()
        state = replace(state, crates=tuple(crates), tray=canonical((*state.tray, *rest)))
        verb = "slides" if len(rest) == 1 else "slide"
        slid = f"; {plural(len(rest), 'chip')} {verb} to the Spill Tray"
    state = replace(state.with_player(player), drafted=True)
    into = "no pan" if action.pan is None else f"pan {action.pan}"
    return Transition(
        state,
        f"{_who(state)} drafts {taken} {action.colour} from {where} into {into}: "
        f"{fit} placed, {spilled} on the Spill Line{slid}",
    )


def claim_shade(state: GameState, action: ClaimShade) -> Transition:
    pan = _unpressed(state, action.pan, "claim-shade")
    if pan.shade is not None:
        raise IllegalActionError(
            "claim-shade", f"pan {action.pan} already has {pan.shade.name} under it"
        )
    if pan.pan.chips:
        # "When you start a new pan, claim one Shade card": the card goes under an empty pan,
        # before its first chips, never under a pan already being filled.
        raise IllegalActionError(
            "claim-new-pan",
            f"a shade is claimed when starting a new pan, and pan {action.pan} already holds "
            f"{plural(len(pan.pan.chips), 'chip')}",
        )
    if state.player.held_shades >= MAX_HELD_SHADES:
        raise IllegalActionError(
            "claim-limit", f"you already hold {MAX_HELD_SHADES} claimed shades"
        )
    row = list(state.shade_row)
    chosen: Shade | None = next((s for s in row if s.name == action.shade), None)
    if chosen is None:
        raise IllegalActionError("shade-row", f"{action.shade!r} is not in the Shade Row")
    row.remove(chosen)
    deck = state.shade_deck
    if deck:
        row.append(deck[0])
        deck = deck[1:]
    player = state.player.with_pan(action.pan, replace(pan, shade=chosen))
    state = replace(state.with_player(player), shade_row=tuple(row), shade_deck=deck)
    return Transition(state, f"{_who(state)} claims {chosen.name} for pan {action.pan}")


def sift(state: GameState, action: Sift) -> Transition:
    if state.sifted:
        raise IllegalActionError("sift-once", "you have already sifted this turn")
    pan = _unpressed(state, action.pan, "sift")
    if action.chip not in pan.pan.chips:
        raise IllegalActionError("sift", f"pan {action.pan} holds no {action.chip} chip")
    player = state.player.with_chips_at(action.pan, _remove(pan.pan.chips, action.chip))
    state = replace(
        state.with_player(player), tray=canonical((*state.tray, action.chip)), sifted=True
    )
    return Transition(
        state, f"{_who(state)} sifts {action.chip} from pan {action.pan} into the Spill Tray"
    )


def _check_place(state: GameState, place: Place) -> None:
    if place != SPILL:
        _unpressed(state, int(place), "kiln")


def kiln(state: GameState, action: Kiln) -> Transition:
    for place in (action.first, action.second):
        _check_place(state, place)
    need = Counter([action.first, action.second])
    for place, count in need.items():
        if state.player.chips_at(place).count(Chip.FEOOH) < count:
            where = "the Spill Line" if place == SPILL else f"pan {place}"
            fewer = plural(count, "FeO(OH) chip")
            raise IllegalActionError("kiln", f"{where} holds fewer than {fewer}")
    if Chip.FE2O3 in state.box:
        box, supply, source = _remove(state.box, Chip.FE2O3), state.supply, "the box"
    elif Chip.FE2O3 in state.supply:
        # The supply keeps its order: the first red in it is taken out.
        supply_list = list(state.supply)
        supply_list.remove(Chip.FE2O3)
        box, supply, source = state.box, tuple(supply_list), "the supply"
    else:
        raise IllegalActionError("kiln", "no Fe2O3 chip is left in the box or the supply")
    player = state.player
    for place, count in need.items():
        player = player.with_chips_at(place, _remove(player.chips_at(place), Chip.FEOOH, count))
    player = player.with_chips_at(action.first, (*player.chips_at(action.first), Chip.FE2O3))
    player = replace(player, water=player.water + 1)
    state = replace(
        state.with_player(player),
        box=canonical((*box, Chip.FEOOH, Chip.FEOOH)),
        supply=supply,
    )
    return Transition(
        state, f"{_who(state)} fires 2 FeO(OH) in the Kiln: 1 Fe2O3 (from {source}) + 1 water"
    )


def spend_water(state: GameState, action: SpendWater) -> Transition:
    player = state.player
    if player.water < WATER_PER_CHIP:
        raise IllegalActionError(
            "water",
            f"removing a Spill Line chip costs {WATER_PER_CHIP} water; you have {player.water}",
        )
    if action.chip not in player.spill_line:
        raise IllegalActionError("water", f"your Spill Line holds no {action.chip} chip")
    player = replace(
        player,
        spill_line=_remove(player.spill_line, action.chip),
        water=player.water - WATER_PER_CHIP,
    )
    state = replace(state.with_player(player), box=canonical((*state.box, action.chip)))
    return Transition(
        state, f"{_who(state)} spends 2 water to remove {action.chip} from the Spill Line"
    )


def press(state: GameState, action: Press) -> Transition:
    pan = _unpressed(state, action.pan, "press")
    if not pan.pan.full:
        raise IllegalActionError("press-full", f"pan {action.pan} is not full")
    if pan.shade is None:
        raise IllegalActionError("press-shade", f"pan {action.pan} has no shade card under it")
    # Pressing turns the Shade card over to check it: the event may name its recipe.
    check = check_pan(pan.pan, pan.shade, state.catalogue, reveal=True)
    if check.fault is not None:
        card, rest = state.fault_deck[0], state.fault_deck[1:]
        state = replace(state, fault_deck=(*rest, card), pending=PendingDiagnosis(action.pan, card))
        return Transition(
            state,
            f"{_who(state)} presses pan {action.pan}: {check.fault.words}, a structural fault. "
            f"Fault card: {card.symptom.words}. What caused it?",
        )
    if check.pressed:
        player = state.player.with_pan(action.pan, replace(pan, pressed=True))
        state = state.with_player(player)
    return Transition(state, f"{_who(state)} presses pan {action.pan}: {' '.join(check.reasons())}")


def diagnose(state: GameState, action: Diagnose) -> Transition:
    pending = state.pending
    if not isinstance(pending, PendingDiagnosis):
        raise IllegalActionError("diagnose", "there is no Fault card to diagnose")
    flipped = f"the card says {pending.card.cause.words}"
    if diagnosis_is_right(pending.card, action.cause):
        state = replace(state, pending=PendingRemedy(pending.pan))
        return Transition(
            state,
            f"{_who(state)} diagnoses {action.cause.words}: right ({flipped}). Swap a pan chip "
            "for a Spill Line chip, return one to the Spill Tray, or skip.",
        )
    player = state.player
    pan = player.pans[pending.pan]
    player = replace(
        player.with_chips_at(pending.pan, ()), wrong_diagnoses=player.wrong_diagnoses + 1
    )
    state = replace(
        state.with_player(player), tray=canonical((*state.tray, *pan.pan.chips)), pending=None
    )
    return Transition(
        state,
        f"{_who(state)} diagnoses {action.cause.words}: wrong ({flipped}). -1 point; "
        f"the pan's {len(pan.pan.chips)} chips go to the Spill Tray",
    )


def _remedy_pan(state: GameState) -> int:
    if not isinstance(state.pending, PendingRemedy):
        raise IllegalActionError("remedy", "a remedy follows a right diagnosis only")
    return state.pending.pan


def swap_chip(state: GameState, action: SwapChip) -> Transition:
    index = _remedy_pan(state)
    player = state.player
    chips = player.pans[index].pan.chips
    if action.pan_chip not in chips:
        raise IllegalActionError("remedy", f"pan {index} holds no {action.pan_chip} chip")
    if action.spill_chip not in player.spill_line:
        raise IllegalActionError("remedy", f"your Spill Line holds no {action.spill_chip} chip")
    spill = (*_remove(player.spill_line, action.spill_chip), action.pan_chip)
    player = player.with_chips_at(index, (*_remove(chips, action.pan_chip), action.spill_chip))
    player = player.with_chips_at(SPILL, spill)
    state = replace(state.with_player(player), pending=None)
    return Transition(
        state,
        f"{_who(state)} swaps {action.pan_chip} in pan {index} for {action.spill_chip} "
        "from the Spill Line",
    )


def return_chip(state: GameState, action: ReturnChip) -> Transition:
    index = _remedy_pan(state)
    chips = state.player.pans[index].pan.chips
    if action.chip not in chips:
        raise IllegalActionError("remedy", f"pan {index} holds no {action.chip} chip")
    player = state.player.with_chips_at(index, _remove(chips, action.chip))
    state = replace(
        state.with_player(player), tray=canonical((*state.tray, action.chip)), pending=None
    )
    return Transition(
        state, f"{_who(state)} returns {action.chip} from pan {index} to the Spill Tray"
    )


def skip_remedy(state: GameState, action: SkipRemedy) -> Transition:
    _remedy_pan(state)
    return Transition(replace(state, pending=None), f"{_who(state)} keeps the pan as it is")


def _end_round(state: GameState) -> GameState:
    """Record and clear the Spill Lines, refill the crates; after round 5 the game is over."""
    players = []
    box = list(state.box)
    for player in state.players:
        box.extend(player.spill_line)
        players.append(
            replace(
                player,
                spill_line=(),
                spill_history=(*player.spill_history, len(player.spill_line)),
            )
        )
    state = replace(
        state,
        players=tuple(players),
        box=canonical(box),
        current=state.first_player,
        drafted=False,
        sifted=False,
    )
    if state.round == ROUNDS:
        return replace(state, over=True)
    return _fill_crates(replace(state, round=state.round + 1))


def end_turn(state: GameState, action: EndTurn) -> Transition:
    if not state.drafted:
        raise IllegalActionError("one-draft", "draft chips before ending your turn")
    if not state.market_empty:
        following = (state.current + 1) % len(state.players)
        state = replace(state, current=following, drafted=False, sifted=False)
        return Transition(state, f"Player {following + 1}'s turn")
    ended = state.round
    state = _end_round(state)
    # A supply too short to refill any crate leaves nothing to draft: those rounds end at once.
    while not state.over and state.market_empty:
        state = _end_round(state)
    if state.over:
        return Transition(state, f"Round {ended} ends; the game is over")
    return Transition(state, f"Round {ended} ends; round {state.round} begins")


def apply(state: GameState, action: Action) -> Transition:
    """Play one action of the current player; refuse it, naming the rule, if it is illegal."""
    if state.over:
        raise IllegalActionError("game-over", "the game is over")
    if isinstance(state.pending, PendingDiagnosis) and not isinstance(action, Diagnose):
        raise IllegalActionError("diagnose", "diagnose the Fault card first")
    if isinstance(state.pending, PendingRemedy) and not isinstance(
        action, SwapChip | ReturnChip | SkipRemedy
    ):
        raise IllegalActionError("remedy", "choose the remedy for the faulty pan first")
    match action:
        case Draft():
            return draft(state, action)
        case ClaimShade():
            return claim_shade(state, action)
        case Sift():
            return sift(state, action)
        case Kiln():
            return kiln(state, action)
        case SpendWater():
            return spend_water(state, action)
        case Press():
            return press(state, action)
        case Diagnose():
            return diagnose(state, action)
        case SwapChip():
            return swap_chip(state, action)
        case ReturnChip():
            return return_chip(state, action)
        case SkipRemedy():
            return skip_remedy(state, action)
        case EndTurn():
            return end_turn(state, action)
