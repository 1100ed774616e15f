"""What a camera saw on the table, as plain data, and turning it into scores.

Vision fills in observations (a position as far as it could be read, a confidence, the problems);
this module, not vision, completes a position with the game options a camera cannot see (the
Paintings scoring cards, the Isle conditions) and scores it. A board with any problem gets no
score: a wrong score shown with confidence is the worst failure Atelier can have.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import AtelierError
from companion.positions import evaluate_document


@dataclass(frozen=True)
class ComponentRead:
    """One component as read: what it is, how sure, and the problem when unsure; an unsure read
    may name the values it hesitated between (``candidates``, likeliest first), so a person
    correcting it is shown those first."""

    component: str  # "space 3", "cell (2,4)", "small window 1"
    value: object
    confidence: float
    problem: str | None = None
    candidates: tuple[object, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "component": self.component,
            "value": self.value,
            "confidence": round(self.confidence, 3),
        }
        if self.problem:
            out["problem"] = self.problem
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out


@dataclass(frozen=True)
class Unreadable:
    """Markers the camera outlined but could not decode: a board in view that was not read."""

    where: tuple[int, int, int, int]  # x, y, width, height in photo px
    candidates: int  # marker-shaped outlines in the group
    px_per_cell: float  # the candidates' median side over the cells across a marker
    cause: str  # "too blurred", or "too small or too blurred"
    problem: str  # one line for the players: what was seen, the cause and what would help

    def to_json(self) -> dict[str, object]:
        return {
            "where": list(self.where),
            "candidates": self.candidates,
            "px_per_cell": round(self.px_per_cell, 1),
            "problem": self.problem,
        }


@dataclass(frozen=True)
class BoardObservation:
    """One player's board (or, for Paintings, their mats) as the camera read it."""

    game: str
    player: int | None
    boards: tuple[str, ...]  # the printed boards it was read from
    position: dict[str, Any]  # positions.md form, as far as read (no options a camera can't see)
    confidence: float
    problems: tuple[str, ...]
    components: tuple[ComponentRead, ...] = ()
    # "player": a player's board, scored; "shared": an area every player uses (the Art Row, the
    # Pigment Lab market), reported as what lies where, never scored.
    kind: str = "player"


@dataclass(frozen=True)
class GameOptions:
    """What the table knows that a camera does not see."""

    scoring_cards: tuple[str, ...] | None = None  # Paintings: the four in play
    conditions: Mapping[str, str] | None = None  # Isle of Colors: colour -> condition
    face_down: bool = False  # score without naming hidden card sides (a table's players)


@dataclass(frozen=True)
class ScoredBoard:
    observation: BoardObservation
    position: dict[str, Any]
    score: dict[str, Any] | None
    explanation: str | None
    problems: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        obs = self.observation
        return {
            "game": obs.game,
            "kind": obs.kind,
            "player": obs.player,
            "position": self.position,
            "score": self.score,
            "explanation": self.explanation,
            "confidence": round(obs.confidence, 3),
            "problems": list(self.problems),
            "boards": list(obs.boards),
            "components": [c.to_json() for c in obs.components],
        }


def complete_position(
    observation: BoardObservation, options: GameOptions
) -> tuple[dict[str, Any], str | None]:
    """The position with the table's options filled in, or the problem of a missing option."""
    position = dict(observation.position)
    if observation.game == "paintings":
        if not options.scoring_cards:
            return position, "scoring needs the four scoring cards in play (--scoring-cards)"
        position = {
            "game": "paintings",
            "scoring_cards": list(options.scoring_cards),
            **{k: v for k, v in position.items() if k != "game"},
        }
    elif observation.game == "isle":
        if not options.conditions:
            return position, "scoring needs the four conditions in play (--conditions)"
        position["conditions"] = dict(options.conditions)
    return position, None


def score_observation(observation: BoardObservation, options: GameOptions) -> ScoredBoard:
    if observation.kind == "shared":
        return ScoredBoard(observation, observation.position, None, None, observation.problems)
    position, missing = complete_position(observation, options)
    problems = observation.problems + ((missing,) if missing else ())
    if problems:
        return ScoredBoard(observation, position, None, None, problems)
    try:
        source = f"board {', '.join(observation.boards)}"
        report = evaluate_document(position, source, face_down=options.face_down)
    except AtelierError as exc:
        return ScoredBoard(observation, position, None, None, (f"position: {exc}",))
    return ScoredBoard(observation, position, report.data, report.text, ())


def with_problem(observation: BoardObservation, problem: str) -> BoardObservation:
    return replace(observation, problems=(*observation.problems, problem))
