"""Every game through the one interface, from the registry: whole random games to the end, the
legal actions checked against the engine at every step, the standings, and scores that agree
with ``atelier score``'s scoring of the same position."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import IllegalActionError
from companion.fields import Field
from companion.games.colorfield import actions as cf
from companion.games.colorfield.model import SPACES
from companion.games.colorfield.position import canvas_to_json
from companion.games.colorfield.state import GameState as FieldState
from companion.games.isle.actions import Fill, FillNothing, Roll
from companion.games.isle.game import Game
from companion.games.isle.hexgrid import Cell
from companion.games.isle.model import Colour, bits
from companion.games.isle.position import IslePosition
from companion.games.isle.position import position_to_json as isle_position
from companion.games.paintings.game import standings as paintings_standings
from companion.games.paintings.position import PaintingsPosition
from companion.games.paintings.position import position_to_json as paintings_position
from companion.games.paintings.state import CompletePainting, TakeCard
from companion.games.paintings.state import GameState as PaintingsState
from companion.games.pigments import actions as lab
from companion.games.pigments.faults import Cause
from companion.games.pigments.model import Chip
from companion.games.pigments.position import position_to_json as pigments_position
from companion.games.pigments.results import winners as pigments_winners
from companion.games.pigments.state import SPILL, Place
from companion.games.pigments.state import GameState as LabState
from companion.games.protocol import GameRules, Setup, Standing
from companion.games.registry import GAME_PACKAGES, games

Probe = Callable[[Any, random.Random], list[Any]]


def rules_of(game: str) -> GameRules[Any, Any]:
    return games()[game].rules


def test_every_game_has_rules_that_meet_the_interface() -> None:
    assert tuple(games()) == GAME_PACKAGES
    for entry in games().values():
        assert isinstance(entry.rules, GameRules)


# Probes: actions of every kind, legal or not, whose acceptance must match legal_actions ---------


def colorfield_probes(state: FieldState, rng: random.Random) -> list[cf.Action]:
    seat = rng.randrange(len(state.players) + 1)  # now and then a seat that does not exist
    first, second = sorted(rng.sample(SPACES, 2))
    return [
        cf.RefreshPalette(seat),
        cf.TakeFromPalette(seat, rng.randrange(4)),
        cf.TakeFromDeck(seat),
        cf.Place(seat, rng.randrange(8), rng.randrange(5)),
        cf.Discard(seat),
        cf.Pass(seat),
        cf.Rotate(seat, rng.randrange(1, 7), rng.randrange(4)),
        cf.Swap(seat, first, second),
        cf.Decline(seat),
        cf.ScoreRound(),
        cf.Keep(seat, tuple(sorted(rng.sample(SPACES, rng.randrange(5))))),
    ]


def paintings_probes(state: PaintingsState, rng: random.Random) -> list[Any]:
    held = 0 if state.current is None else len(state.players[state.current].hand)
    a, b, c = rng.sample(range(max(held, 3) + 1), 3)
    return [TakeCard(rng.randrange(7)), CompletePainting((a, b, c)), CompletePainting((a, a, b))]


def _grown(game: Game, seat: int, size: int, rng: random.Random) -> frozenset[Cell]:
    """A random connected set of up to ``size`` empty cells: the size of the roll when it fits."""
    sheet = game.players[seat].sheet
    empty = list(bits(sheet.empty_mask))
    if not empty:
        return frozenset()
    grown = [rng.choice(empty)]
    while len(grown) < size:
        frontier = [
            n
            for cell in grown
            for n in sheet.island.neighbours[cell]
            if sheet.empty_mask >> n & 1 and n not in grown
        ]
        if not frontier:
            break
        grown.append(rng.choice(frontier))
    return frozenset(sheet.island.cells[i] for i in grown)


def isle_probes(state: Game, rng: random.Random) -> list[Any]:
    seat = rng.randrange(len(state.players))
    size = state.roll or rng.randint(1, 6)
    scattered = rng.sample(state.island.cells, size)
    colour = rng.choice([*state.players[seat].hand, rng.choice(list(Colour))])
    return [
        Roll(rng.randrange(8)),
        FillNothing(seat),
        Fill(seat, colour, _grown(state, seat, size, rng)),
        Fill(seat, colour, _grown(state, seat, size + 1, rng)),
        Fill(seat, colour, frozenset(scattered)),
    ]


def pigments_probes(state: LabState, rng: random.Random) -> list[lab.Action]:
    chip, other = rng.choice(list(Chip)), rng.choice(list(Chip))
    pan = rng.randrange(4)
    shade = rng.choice([*[s.name for s in state.shade_row], "no such shade"])
    spots: list[Place] = [0, 1, 2, 3, SPILL]
    return [
        lab.Draft(chip, rng.choice([*range(len(state.crates) + 1), None]), rng.choice([pan, None])),
        lab.ClaimShade(pan, shade),
        lab.Sift(pan, chip),
        lab.Kiln(rng.choice(spots), rng.choice(spots)),
        lab.SpendWater(chip),
        lab.Press(pan),
        lab.Diagnose(rng.choice(list(Cause))),
        lab.SwapChip(chip, other),
        lab.ReturnChip(chip),
        lab.SkipRemedy(),
        lab.EndTurn(),
    ]


PROBES: dict[str, Probe] = {
    "colorfield": colorfield_probes,
    "paintings": paintings_probes,
    "isle": isle_probes,
    "pigments": pigments_probes,
}


def accepted(rules: GameRules[Any, Any], state: Any, action: Any) -> bool:
    try:
        rules.apply(state, action)
    except IllegalActionError:
        return False
    return True


def play_randomly(game: str, setup: Setup, seed: int) -> tuple[Any, int]:
    """A whole game of random legal actions; every probe on the way is accepted by the engine
    exactly when it is among the legal actions. The final state and the number of actions."""
    rules = rules_of(game)
    rng = random.Random(seed)
    state = rules.new_game(setup)
    steps = 0
    rounds = [rules.round(state)]
    while not rules.over(state):
        legal = rules.legal_actions(state)
        assert legal and len(set(legal)) == len(legal)
        for probe in PROBES[game](state, rng):
            assert accepted(rules, state, probe) == (probe in legal), probe
        state = rules.apply(state, rng.choice(legal))
        rounds.append(rules.round(state))
        steps += 1
        assert steps < 2000
    assert rounds == sorted(rounds)
    assert rules.legal_actions(state) == ()
    assert rules.whose_turn(state) is None
    return state, steps


def position_of(game: str, state: Any, seat: int) -> dict[str, Any]:
    """The seat's position document, as a camera or a user would give it to ``atelier score``."""
    if game == "colorfield":
        return canvas_to_json(state.players[seat].canvas)
    if game == "paintings":
        return paintings_position(
            PaintingsPosition(state.scoring_cards, state.players[seat].paintings)
        )
    if game == "isle":
        return isle_position(IslePosition(state.conditions, state.players[seat].sheet))
    return pigments_position(state.players[seat].tally(), state.catalogue.by_name)


def engine_winners(game: str, state: Any) -> tuple[int, ...]:
    """The winners as each engine itself reports them."""
    if game == "colorfield":
        return tuple(state.outcome.winners)
    if game == "paintings":
        return tuple(s.player for s in paintings_standings(state) if s.rank == 1)
    if game == "isle":
        return tuple(state.result().winners)
    return pigments_winners(state)


Row = tuple[int, int, int, str, tuple[int, ...]]


def places(table: tuple[Standing, ...]) -> list[Row]:
    """Each standing as (seat, points, rank, decided by, the tie-break values)."""
    return [
        (s.seat, s.points, s.rank, s.decided_by, tuple(t.value for t in s.tie_breaks))
        for s in table
    ]


@pytest.mark.parametrize(
    ("game", "setup", "steps", "last_round", "expected"),
    [
        (
            "colorfield",
            Setup(2, 11, {"community_tools": ["mahl-stick", "local-collective"]}),
            73,
            3,
            [(0, 52, 1, "points", (3, 0)), (1, 35, 2, "points", (3, 0))],
        ),
        (
            "colorfield",
            Setup(4, 12),
            125,
            3,
            [
                (0, 35, 1, "points", (3, 0)),
                (2, 32, 2, "patch bonus", (3, 0)),
                (3, 32, 3, "patch bonus", (0, 0)),
                (1, 29, 4, "points", (0, 0)),
            ],
        ),
        ("paintings", Setup(1, 13), 12, 12, [(0, 4, 1, "points", (2,))]),
        (
            "paintings",
            Setup(3, 14, {"scoring_cards": ["composition", "movement", "space", "variety"]}),
            37,
            13,
            [(1, 19, 1, "points", (8,)), (2, 15, 2, "points", (1,)), (0, 13, 3, "points", (1,))],
        ),
        ("isle", Setup(1, 15), 36, 18, [(0, 31, 1, "points", ())]),
        ("isle", Setup(2, 16), 57, 19, [(0, 23, 1, "points", ()), (1, 15, 2, "points", ())]),
        (
            "pigments",
            Setup(2, 17),
            347,
            5,
            [(0, -6, 1, "points", (0,)), (1, -28, 2, "points", (0,))],
        ),
        (
            "pigments",
            Setup(3, 18, {"first_player": 2}),
            287,
            5,
            [(2, -6, 1, "points", (0,)), (1, -8, 2, "points", (0,)), (0, -17, 3, "points", (0,))],
        ),
    ],
)
def test_a_random_game_plays_to_the_end_through_the_interface(
    game: str, setup: Setup, steps: int, last_round: int, expected: list[Row]
) -> None:
    rules = rules_of(game)
    state, played = play_randomly(game, setup, setup.seed)
    table = rules.standings(state)
    assert (played, rules.round(state), places(table)) == (steps, last_round, expected)
    keys = {s.seat: (s.points, *(t.value for t in s.tie_breaks)) for s in table}
    for standing in table:
        assert standing.rank == 1 + sum(key > keys[standing.seat] for key in keys.values())
    assert tuple(s.seat for s in table if s.rank == 1) == engine_winners(game, state)
    for seat in range(setup.players):
        score = rules.score(state, seat)
        report = games()[game].evaluate(Field(position_of(game, state, seat)), None)
        assert (score.data, score.text) == (report.data, report.text)
        # Color Field's position is one canvas: the last round's, whose score the game recorded.
        own = state.scores[-1].players[seat].canvas.total if game == "colorfield" else keys[seat][0]
        assert score.points == report.data["total"] == own
