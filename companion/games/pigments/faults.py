"""Structural faults: the binder rule, the Fault cards, and checking a diagnosis."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.pigments.model import Pan


class Symptom(StrEnum):
    """The symptom side of a Fault card."""

    CRUMBLES = "crumbles"
    GLAZED = "glazed"
    CHALKY = "chalky"
    STREAKY = "streaky"

    @property
    def words(self) -> str:
        return {
            Symptom.CRUMBLES: "the cake crumbles when you touch it",
            Symptom.GLAZED: "glazed surface, the brush picks up nothing",
            Symptom.CHALKY: "the colour looks chalky and washed out",
            Symptom.STREAKY: "it goes on streaky and patchy",
        }[self]


class Cause(StrEnum):
    """The cause side of a Fault card; the first two are also the structural faults of a pan."""

    NOT_ENOUGH_BINDER = "not-enough-binder"
    TOO_MUCH_BINDER = "too-much-binder"
    TOO_MUCH_TIO2 = "too-much-TiO2"
    TOO_COARSE = "too-coarse"

    @property
    def words(self) -> str:
        return {
            Cause.NOT_ENOUGH_BINDER: "not enough binder",
            Cause.TOO_MUCH_BINDER: "too much binder",
            Cause.TOO_MUCH_TIO2: "too much titanium dioxide",
            Cause.TOO_COARSE: "the particles are too coarse",
        }[self]


@dataclass(frozen=True)
class FaultCard:
    symptom: Symptom
    cause: Cause


def binder_needed(pigments: int) -> int:
    """The binder rule: one binder for every two pigments, rounded up."""
    return (pigments + 1) // 2


def binder_fault(pan: Pan) -> Cause | None:
    """The structural fault of a full pan, or None when it is sound (or not yet full)."""
    if not pan.full:
        return None
    needed = binder_needed(len(pan.pigments))
    if pan.binders < needed:
        return Cause.NOT_ENOUGH_BINDER
    if pan.binders > needed:
        return Cause.TOO_MUCH_BINDER
    return None


def is_sound(pan: Pan) -> bool:
    return pan.full and binder_fault(pan) is None


def diagnosis_is_right(card: FaultCard, cause: Cause) -> bool:
    """A diagnosis is right when it names the cause printed on the card's other side."""
    return card.cause is cause
