"""What the statistical gates judge: a frozen sample of the train split's hard renders, scanned
under conditions the readers were never tuned on."""

from __future__ import annotations

from collections.abc import Sequence

from vision.benchmark import Trial, judge, perturbed, render_board
from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
from vision.perturb import FAMILIES
from vision.render.envelope import Difficulty
from vision.render.renderer import Renderer
from vision.scan.scanner import Scanner
from vision.splits import SPLITS


def train_trials(game: str, families: Sequence[str], boards: int) -> dict[str, list[Trial]]:
    """Per family (named as ``--perturb`` names it), the first ``boards`` hard renders of
    ``game`` in the train split judged under it: each board rendered once for all of them."""
    scanner, renderer = Scanner(), Renderer()
    yardstick = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))
    trials: dict[str, list[Trial]] = {family: [] for family in families}
    for seed in SPLITS["train"].seeds(boards):
        rendered = render_board(renderer, game, Difficulty.HARD, seed)
        for family, judged in trials.items():
            board, image = perturbed(renderer, rendered, FAMILIES[family])
            judged.append(judge(scanner, board, image, yardstick))
    return trials
