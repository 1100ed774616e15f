"""``atelier bench vision``: render boards of every game with known truth, scan them, and count.

For each board: an exact read (every component the camera can see read right; a component that a
hand or cup hides in part may be reported unreadable instead, and nothing else may be), a
confident-wrong read (no problem reported, so it would be scored, but something differs from the
truth: the failure that must never happen), or an abstention (a problem reported on something in
plain view). Complete: no problem at all, so the board is scored. Per component: how many of those
read without a problem were wrong. Timing: the scan of each frame, and bare marker detection
on the same frame, so the cost of reading is a ratio that holds across machines. The yardstick is
OpenCV's own detection with its default parameters (as ``atelier markers`` runs it), which stays
the same whatever the scan's own search for markers does. Calibration: every component read that
the truth can judge keeps its stated confidence and whether it was right
(``vision/calibration_report.py``), reported per game.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.content import isle as isle_content
from companion.samples import random_position
from vision.calibration_report import ComponentOutcome, calibration_json, curve_json
from vision.fiducials import ATELIER_DICTIONARY, MarkerDetector, predefined_dictionary
from vision.images import Image
from vision.layout.boards import PAN_ORDER
from vision.layout.catalogue import layouts
from vision.perturb import Family
from vision.render.envelope import Difficulty
from vision.render.placing import plan_table
from vision.render.renderer import Renderer, Rendering, RenderOptions
from vision.scan.scanner import Scanner
from vision.wilson import wilson

GAMES = ("colorfield", "paintings", "isle", "pigments")
Values = dict[str, object]


def _colorfield_truth(position: Mapping[str, Any]) -> Values:
    return {
        f"space {i}": None if s is None else {"tile": s["tile"], "rotation": s.get("rotation", 0)}
        for i, s in enumerate(position["spaces"], 1)
    }


def _paintings_truth(position: Mapping[str, Any]) -> Values:
    places = ("card bottom", "card middle", "card top")
    return {
        f"painting {p} {place}": card["card"]
        for p, painting in enumerate(position["paintings"], 1)
        for place, card in zip(places, painting, strict=True)
    }


def _isle_truth(position: Mapping[str, Any]) -> Values:
    island = isle_content.default_content().islands[position.get("island", "default")]
    filled = {(r, c): colour for r, c, colour in position["cells"]}
    return {f"cell ({r},{c})": filled.get((r, c)) for r, c in island.cells}


def _pigments_truth(position: Mapping[str, Any]) -> Values:
    values: Values = {}
    for (name, size), pan in zip(PAN_ORDER, position["pans"], strict=True):
        chips = list(pan["chips"])
        slots = [f"{name} window {i}" for i in range(1, size.windows + 1)]
        slots += [f"{name} binder {i}" for i in range(1, size.binder_slots + 1)]
        for k, slot in enumerate(slots):
            values[slot] = chips[k] if k < len(chips) else None
        values[f"shade {name}"] = pan["shade"]
    return values


TRUTH: Mapping[str, Callable[[Mapping[str, Any]], Values]] = {
    "colorfield": _colorfield_truth,
    "paintings": _paintings_truth,
    "isle": _isle_truth,
    "pigments": _pigments_truth,
}


def hidden_components(truth: Mapping[str, Any], game: str) -> frozenset[str]:
    """The components (as the scanner names them) that an occluder hides part of, from the
    render's truth: the ones a reader may rightly refuse."""
    boards = {layout.key: layout for layout in layouts(game)}
    names = set()
    for entry in truth.get("covered_regions", []):
        layout = boards.get(entry["board"])
        if layout is None:
            continue
        region = layout.region(entry["region"])
        if region.role == "cell":
            names.add(f"cell ({region.name.removeprefix('cell ')})")
        elif layout.kind == "mat":
            names.add(f"painting {layout.content['painting']} {region.name}")
        elif region.role in ("space", "pan", "window", "binder") or layout.kind == "palette":
            names.add(region.name)
    return frozenset(names)


@dataclass(frozen=True)
class Trial:
    game: str
    difficulty: str
    seed: int
    # "exact", "confident-wrong", "abstained", "missed" (no board found)
    outcome: str
    complete: bool  # no problem at all: the board is scored
    components: int
    wrong_components: int  # read without a problem, and wrong
    scan_ms: float
    detect_ms: float  # OpenCV's detection with its default parameters: the yardstick
    problems: tuple[str, ...]
    # Every component read that the truth can judge (not hidden): what calibration is made of.
    outcomes: tuple[ComponentOutcome, ...] = ()
    # Every component read without a problem is right, and none is left out. Of a refused board
    # this is all that can be known: a refused component carries no value to judge.
    reads_right: bool = False
    # The problems about components in plain view (per the truth), or about the board itself.
    needless: tuple[str, ...] = ()


def _value(read_value: object) -> object:
    if isinstance(read_value, dict):
        return {"tile": read_value.get("tile"), "rotation": read_value.get("rotation")}
    return read_value


@dataclass(frozen=True)
class RenderedBoard:
    game: str
    difficulty: Difficulty
    seed: int
    position: Mapping[str, Any]
    rendering: Rendering


def render_board(
    renderer: Renderer,
    game: str,
    difficulty: Difficulty,
    seed: int,
    change: Callable[[RenderOptions], RenderOptions] | None = None,
) -> RenderedBoard:
    """One board of ``game`` rendered from ``seed``, its options changed by ``change`` if given
    (a render-time perturbation family)."""
    position = random_position(game, random.Random(seed))
    options = RenderOptions(seed, difficulty)
    rendering = renderer.render(
        plan_table(position, f"random {game}"), change(options) if change else options
    )
    return RenderedBoard(game, difficulty, seed, position, rendering)


def perturbed(
    renderer: Renderer, rendered: RenderedBoard, family: Family
) -> tuple[RenderedBoard, Image]:
    """``rendered`` under ``family``, and the photo to scan: the photo perturbed (the render's
    truth holds), or the board rendered again with the family's options (the new render's
    truth)."""
    if family.apply is not None:
        return rendered, family.apply(rendered.rendering.image, rendered.seed)
    again = render_board(renderer, rendered.game, rendered.difficulty, rendered.seed, family.render)
    return again, again.rendering.image


def judge(
    scanner: Scanner, rendered: RenderedBoard, image: Image, yardstick: MarkerDetector
) -> Trial:
    """Scan ``image``, the rendered photo or a perturbation of it that hides nothing more than
    ``rendered``'s truth says, time the bare detection on the same image, and compare."""
    game, difficulty, seed = rendered.game, rendered.difficulty, rendered.seed
    start = time.perf_counter()
    yardstick.detect(image)
    detect_ms = (time.perf_counter() - start) * 1000
    observation = scanner.scan(image, game)
    truth = TRUTH[game](rendered.position)
    if not observation.boards:
        return Trial(
            game,
            difficulty.value,
            seed,
            "missed",
            False,
            len(truth),
            0,
            observation.total_ms,
            detect_ms,
            ("no board found",),
        )
    board = observation.boards[0]
    unsure = {c.component for c in board.components if c.problem}
    read = {c.component: _value(c.value) for c in board.components if not c.problem}
    wrong = sum(1 for name, value in read.items() if name in truth and truth[name] != value)
    missing = [name for name in truth if name not in read and name not in unsure]
    hidden = hidden_components(rendered.rendering.truth, game)
    outcomes = tuple(
        ComponentOutcome(
            c.confidence, not c.problem and truth[c.component] == _value(c.value), bool(c.problem)
        )
        for c in board.components
        if c.component in truth and c.component not in hidden
    )
    # Problems are worded "<component>: ..."; any other is about the board or a visible part.
    needless = [p for p in board.problems if p.split(": ", 1)[0] not in hidden]
    if not board.problems and (wrong or missing):
        outcome = "confident-wrong"
    elif needless or wrong or missing:
        outcome = "abstained"
    else:
        outcome = "exact"
    return Trial(
        game,
        difficulty.value,
        seed,
        outcome,
        not board.problems,
        len(truth),
        wrong,
        observation.total_ms,
        detect_ms,
        board.problems,
        outcomes,
        not wrong and not missing,
        tuple(needless),
    )


def run_trial(
    renderer: Renderer,
    scanner: Scanner,
    game: str,
    difficulty: Difficulty,
    seed: int,
    yardstick: MarkerDetector | None = None,
    perturb: Callable[[Image, int], Image] | None = None,
) -> Trial:
    """Render one board, apply ``perturb`` (with the board's seed) if given, scan and judge."""
    rendered = render_board(renderer, game, difficulty, seed)
    image = rendered.rendering.image
    yardstick = yardstick or MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))
    return judge(scanner, rendered, perturb(image, seed) if perturb else image, yardstick)


def _interval(successes: int, n: int) -> list[float]:
    low, high = wilson(successes, n)
    return [round(low, 4), round(high, 4)]


def summarise(trials: Sequence[Trial]) -> dict[str, Any]:
    n = len(trials)
    scans = sorted(t.scan_ms for t in trials)
    detects = sorted(t.detect_ms for t in trials)
    components = sum(t.components for t in trials)
    exact = sum(t.outcome == "exact" for t in trials)
    return {
        "boards": n,
        "exact": exact,
        "exact_rate": round(exact / n, 4) if n else 0.0,
        "exact_interval": _interval(exact, n),
        "complete": sum(t.complete for t in trials),
        "confident_wrong": sum(t.outcome == "confident-wrong" for t in trials),
        "abstained": sum(t.outcome in ("abstained", "missed") for t in trials),
        "component_error_rate": round(
            sum(t.wrong_components for t in trials) / max(components, 1), 5
        ),
        "scan_ms_median": round(statistics.median(scans), 2) if n else 0.0,
        "scan_ms_p95": round(scans[min(n - 1, int(0.95 * n))], 2) if n else 0.0,
        "detect_ms_median": round(statistics.median(detects), 2) if n else 0.0,
        "scan_to_detect": round(statistics.median(scans) / statistics.median(detects), 3)
        if n
        else 0.0,
    }


def summarise_perturbed(trials: Sequence[Trial]) -> dict[str, Any]:
    """Outcome counts of perturbed boards, each with its rate and 95 % Wilson interval: exact,
    refused (abstained or no board found) and wrong (confident-wrong); and, as a share of the
    refused, those whose every component read was right (``refused_reads_right``). A refused
    component carries no value, so whether the board would have been right is unknown: this
    share bounds it from above."""
    n = len(trials)
    refused = [t for t in trials if t.outcome in ("abstained", "missed")]
    counts = {
        "exact": sum(t.outcome == "exact" for t in trials),
        "refused": len(refused),
        "wrong": sum(t.outcome == "confident-wrong" for t in trials),
    }
    row: dict[str, Any] = {"boards": n}
    for name, count in counts.items():
        row[name] = count
        row[f"{name}_rate"] = round(count / n, 4) if n else 0.0
        row[f"{name}_interval"] = _interval(count, n)
    clean = sum(t.reads_right for t in refused)
    row["refused_reads_right"] = clean
    row["refused_reads_right_share"] = round(clean / len(refused), 4) if refused else 0.0
    row["refused_reads_right_interval"] = _interval(clean, len(refused))
    return row


def not_exact_json(trial: Trial, family: str | None = None) -> dict[str, Any]:
    """A board not read exactly, as the bench lists it: its first three problems, those about
    what lay in plain view first."""
    return {
        **({"family": family} if family else {}),
        "game": trial.game,
        "difficulty": trial.difficulty,
        "seed": trial.seed,
        "outcome": trial.outcome,
        "problems": [*trial.needless, *(p for p in trial.problems if p not in trial.needless)][:3],
    }


def _family_json(family: Family) -> dict[str, Any]:
    return {
        "name": family.name,
        "family": family.family,
        "strength": family.strength,
        "hides": family.hides,
    }


def run_vision_bench(
    games: Sequence[str],
    difficulties: Sequence[Difficulty],
    boards: int,
    seed: int,
    progress: Callable[[str], None] | None = None,
    families: Sequence[Family] = (),
    split: str | None = None,
) -> dict[str, Any]:
    """Render ``boards`` boards per game and difficulty from ``seed`` on (the first of ``split``
    when one is named), scan each as rendered and, once rendered, through every perturbation
    family in ``families``."""
    renderer, scanner = Renderer(), Scanner()
    scanner.prepare()
    yardstick = MarkerDetector(predefined_dictionary(ATELIER_DICTIONARY))
    rows = []
    perturbed_rows = []
    failures: list[dict[str, Any]] = []
    perturbed_failures: list[dict[str, Any]] = []
    # Per game across difficulties, as rendered (perturbed boards are reported apart).
    outcomes: dict[str, list[ComponentOutcome]] = {game: [] for game in games}
    # Per family across games and difficulties: what a target is checked against.
    pooled: dict[Family, list[Trial]] = {f: [] for f in families}
    for difficulty in difficulties:
        for game in games:
            trials = []
            under: dict[Family, list[Trial]] = {f: [] for f in families}
            for k in range(boards):
                rendered = render_board(renderer, game, difficulty, seed + k)
                trials.append(judge(scanner, rendered, rendered.rendering.image, yardstick))
                for family in families:
                    board, image = perturbed(renderer, rendered, family)
                    under[family].append(judge(scanner, board, image, yardstick))
                if progress:
                    progress(f"{difficulty.value} {game} {k + 1}/{boards}")
            failures += [not_exact_json(t) for t in trials if t.outcome != "exact"]
            outcomes[game] += [o for t in trials for o in t.outcomes]
            rows.append({"difficulty": difficulty.value, "game": game, **summarise(trials)})
            for family, family_trials in under.items():
                perturbed_failures += [
                    not_exact_json(t, family.name) for t in family_trials if t.outcome != "exact"
                ]
                perturbed_rows.append(
                    {
                        **_family_json(family),
                        "difficulty": difficulty.value,
                        "game": game,
                        **summarise_perturbed(family_trials),
                    }
                )
                pooled[family] += family_trials
    results: dict[str, Any] = {
        "suite": "vision",
        "seeds": {"split": split, "first": seed, "last": seed + boards - 1},
        "rows": rows,
        "not_exact": failures[:50],
        "calibration": {game: calibration_json(chosen) for game, chosen in outcomes.items()},
        "risk_coverage": {game: curve_json(chosen) for game, chosen in outcomes.items()},
    }
    if families:
        # Grouped by family, as the table reads; the families that may hide part of a board
        # last, apart, since their refusals are not all needless.
        order = sorted(families, key=lambda f: f.hides)
        names = [f.name for f in order]
        perturbed_rows.sort(key=lambda row: names.index(row["name"]))
        results["perturbations"] = perturbed_rows
        results["perturbation_totals"] = [
            {**_family_json(f), **summarise_perturbed(pooled[f])} for f in order
        ]
        results["perturbed_not_exact"] = perturbed_failures[:50]
    return results


KELVINS = (2700.0, 3500.0, 4500.0, 5500.0, 6500.0)
EXPOSURES_EV = (-1.5, 0.0, 1.5)
LIGHTING_GAMES = ("isle", "pigments")


def _is_cell_or_chip(component: str) -> bool:
    return component.startswith("cell ") or " window " in component or " binder " in component


@dataclass(frozen=True)
class LightingTrial:
    right: int  # cells and chips read without a problem, and right
    wrong: int  # read without a problem, and wrong
    total: int
    confident_wrong_board: bool


def lighting_trial(
    renderer: Renderer,
    scanner: Scanner,
    game: str,
    seed: int,
    kelvin: float,
    ev: float,
    calibrated: bool,
) -> LightingTrial:
    """One board under fixed light; calibrated: the reference card lies beside it."""
    position = random_position(game, random.Random(seed))
    document: dict[str, Any] = (
        {"table": [position, {"game": "calibration"}]} if calibrated else position
    )
    options = RenderOptions(seed, Difficulty.MEDIUM, kelvin=kelvin, exposure_ev=ev)
    image = renderer.render(plan_table(document, f"random {game}"), options).image
    truth = {k: v for k, v in TRUTH[game](position).items() if _is_cell_or_chip(k)}
    boards = scanner.scan(image, game).boards
    if not boards:
        return LightingTrial(0, 0, len(truth), False)
    board = boards[0]
    read = {c.component: c.value for c in board.components if not c.problem}
    right = sum(1 for k, v in truth.items() if k in read and read[k] == v)
    wrong = sum(1 for k, v in truth.items() if k in read and read[k] != v)
    return LightingTrial(right, wrong, len(truth), wrong > 0 and not board.problems)


def run_lighting_bench(
    boards: int,
    seed: int,
    progress: Callable[[str], None] | None = None,
    games: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Cells and chips read right across colour temperatures and exposures, without and with
    calibration (the colour reference card in the frame), for ``games`` (default: Isle and
    Pigment Lab, the games whose colours are read)."""
    measured = list(games or LIGHTING_GAMES)
    renderer, scanner = Renderer(), Scanner()
    scanner.prepare()
    rows: list[dict[str, Any]] = []
    for calibrated in (False, True):
        for kelvin in KELVINS:
            for ev in EXPOSURES_EV:
                trials = [
                    lighting_trial(renderer, scanner, game, seed + k, kelvin, ev, calibrated)
                    for game in measured
                    for k in range(boards)
                ]
                total = sum(t.total for t in trials)
                rows.append(
                    {
                        "calibrated": calibrated,
                        "kelvin": kelvin,
                        "exposure_ev": ev,
                        "components": total,
                        "right": sum(t.right for t in trials),
                        "right_rate": round(sum(t.right for t in trials) / max(total, 1), 4),
                        "wrong": sum(t.wrong for t in trials),
                        "confident_wrong_boards": sum(t.confident_wrong_board for t in trials),
                    }
                )
                if progress:
                    label = "calibrated" if calibrated else "uncalibrated"
                    progress(f"{label} {kelvin:.0f} K {ev:+.1f} EV")
    summary: dict[str, Any] = {}
    for calibrated in (False, True):
        chosen = [r for r in rows if r["calibrated"] is calibrated]
        total = sum(r["components"] for r in chosen)
        summary["calibrated" if calibrated else "uncalibrated"] = {
            "right_rate": round(sum(r["right"] for r in chosen) / max(total, 1), 4),
            "wrong": sum(r["wrong"] for r in chosen),
            "confident_wrong_boards": sum(r["confident_wrong_boards"] for r in chosen),
        }
    return {
        "suite": "vision-lighting",
        "games": measured,
        "rows": rows,
        "summary": summary,
    }
