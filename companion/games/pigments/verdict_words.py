"""Each pan verdict in words for people, in one place: a short label for a board picture and a
sentence for a page ("Pressed: it matches the card"), never the code (``structural-fault``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.pigments.checker import Verdict


@dataclass(frozen=True)
class VerdictWords:
    label: str  # a few letters over the pan on a picture
    sentence: str


VERDICT_WORDS: Mapping[Verdict, VerdictWords] = MappingProxyType(
    {
        Verdict.PRESSED: VerdictWords("pressed", "Pressed: it matches the card"),
        Verdict.NOTHING_HAPPENS: VerdictWords(
            "no match", "Nothing happens: it does not match the card (a wrong guess is free)"
        ),
        Verdict.STRUCTURAL_FAULT: VerdictWords(
            "not sound", "Structural fault: one binder is needed for every two pigments"
        ),
        Verdict.NOT_FULL: VerdictWords("not full", "Not full yet: fill every slot to press"),
        Verdict.NO_SHADE: VerdictWords("no shade card", "No shade card: nothing to press against"),
    }
)


def verdict_words(code: str) -> VerdictWords:
    """The words for a verdict's code, as the score and the checker's JSON carry it."""
    return VERDICT_WORDS[Verdict(code)]
