"""``atelier bench vision``: scanning rendered boards with known truth, accuracy and speed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.bench.cores import one_core
from companion.cli.bench.progress import end_progress, progress_line
from companion.cli.output import check_games, check_range, emit_json
from companion.errors import AtelierError

if TYPE_CHECKING:
    from vision.perturb import Family

HELP = """\
Render boards of every game with known truth (1920x1080, easy, medium and hard: hands, cups,
glare, blur, tilt), scan each on one core and compare with the truth. A table per difficulty
and game on standard error; JSON on standard output: "seeds" (split, first, last), "rows"
(difficulty, game, boards, exact, exact_rate, exact_interval: its 95 % Wilson interval,
complete, confident_wrong, abstained, component_error_rate, scan_ms_median, scan_ms_p95,
detect_ms_median, scan_to_detect: the median scan over OpenCV's bare marker detection of the
same frames) and "not_exact" (the boards not read exactly, and why).

Calibration: whether the confidence stated for every component read (not hidden by a hand or
cup) is the share read right. A component read with a problem counts as a refusal at its stated
confidence, and never as right. After the table, per game (all difficulties together, as
rendered): a reliability table (15 bins by confidence: count, mean confidence, share right) and
the expected calibration error. In the JSON: "calibration" (game: "bins" with low, high, count,
confidence, accuracy; "ece"; "components"; "refused") and "risk_coverage" (game: up to 50
points, threshold, coverage, risk, from the highest threshold down). --plots DIR writes
reliability-GAME.png and risk-coverage-GAME.png (640x480) there, creating the folder.

--split train|validation|test takes the seeds from the start of a split (docs/scanning.md,
Evaluation; the test split only to report a figure); --seed, for ad-hoc runs, is refused with it.
--perturb FAMILY:STRENGTH (repeat) also scans every board under a condition the readers were
never tuned on. Operations on the photo: noise:6, noise:12, noise:20 (sigma, levels); ev:+0.5,
ev:+1, ev:+1.5, ev:-1, ev:-2 (stops); two-light:0.1, two-light:0.2, two-light:0.35 and cast:0.1,
cast:0.15, cast:0.25 (gains); motion:6-8, motion:12-14, motion:18-20 (streak, px); focus:1,
focus:1.5, focus:2.5 (sigma, px); jpeg:60, jpeg:50, jpeg:40, jpeg:25 (quality); size:1280x720,
size:960x540. Rendered again with other options: pencils (the players' own pencil sets),
warm-light:2700K, cool-light:6500K, and hand (a hand over the board: it hides part of it, so it
is reported apart). Short names stand for the default strengths: noise, ev+1, ev-1, two-light,
cast, motion, focus, jpeg, 1280x720, 960x540, warm-light, cool-light. "all": every family at its
default strength; "FAMILY:all" (noise:all): every strength of one. Then "perturbations" (name,
family, strength, hides, difficulty, game, boards, and exact, refused, wrong, each with its
_rate and 95 % _interval; refused_reads_right: refused boards whose every component read was
right, with its _share of the refused and _interval: the most of them that would have been
right, since a refused component has no value to judge), "perturbation_totals" (the same per
family and strength, all games together; those that hide nothing apart on standard error) and
"perturbed_not_exact". With --lighting: Isle cells and Pigment Lab chips under 2700-6500 K and
-1.5..+1.5 EV, with and without the colour reference card.

examples:
  atelier bench vision --boards 8
  atelier bench vision --difficulty hard --boards 250 --seed 5000
  atelier bench vision --difficulty hard --split test --boards 100
  atelier bench vision --difficulty hard --split validation --perturb noise --perturb jpeg
  atelier bench vision --difficulty hard --split validation --boards 10 --perturb all
  atelier bench vision --difficulty hard --split validation --perturb noise:all --perturb hand
  atelier bench vision --difficulty hard --split validation --boards 25 --plots plots
  atelier bench vision --lighting --boards 4 --game isle
"""


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "vision",
        help="scanning rendered boards with known truth, on one core",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--boards", type=int, default=20, help="boards per game and difficulty (default 20)"
    )
    parser.add_argument(
        "--difficulty",
        choices=("easy", "medium", "hard", "all"),
        default="all",
        help="which renders (default all)",
    )
    parser.add_argument(
        "--game",
        action="append",
        metavar="GAME",
        help="a game to render and scan (colorfield, paintings, isle, pigments); repeat for "
        "more (default: every one)",
    )
    parser.add_argument(
        "--seed", type=int, help="the first board's seed, for ad-hoc runs (default 0)"
    )
    parser.add_argument(
        "--split",
        metavar="SPLIT",
        help="take the seeds from the start of this split: train, validation or test",
    )
    parser.add_argument(
        "--perturb",
        action="append",
        metavar="FAMILY",
        help="also scan every board under this family at this strength (noise:12; a short "
        "name, noise or ev+1: its default), repeat for more; 'FAMILY:all': every strength of one; "
        "'all': every family at its default (see above)",
    )
    parser.add_argument(
        "--plots",
        type=Path,
        metavar="DIR",
        help="write each game's reliability diagram and risk-coverage curve here as PNG",
    )
    parser.add_argument(
        "--lighting",
        action="store_true",
        help="cells and chips across 2700-6500 K and -1.5..+1.5 EV, with and without the "
        "colour reference card",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.boards, 1, 10000, "--boards")
    from vision.benchmark import GAMES, run_vision_bench
    from vision.render.envelope import Difficulty

    games = check_games(args.game, GAMES)
    levels = list(Difficulty) if args.difficulty == "all" else [Difficulty(args.difficulty)]
    seed = first_seed(args.split, args.seed, args.boards)
    families = chosen_families(args.perturb)
    progress = progress_line(40)
    if args.lighting:
        if families:
            raise AtelierError("--perturb: not with --lighting (it sets the light itself)")
        if args.plots:
            raise AtelierError("--plots: not with --lighting (it states no confidences)")
        return run_lighting(args, seed, progress)
    if args.plots:
        plots_folder(args.plots)

    # One core, as the targets are stated: the scan and OpenCV's own threads share it, and so
    # does the bare detection it is compared with (OpenCV's, with its default parameters).
    with one_core():
        results = run_vision_bench(games, levels, args.boards, seed, progress, families, args.split)
    end_progress()
    print(
        f"{'difficulty':<10} {'game':<11} {'boards':>6} {'exact':>7} {'95 % interval':>15} "
        f"{'scored':>6} {'wrong':>5} {'abstain':>7} "
        f"{'comp.err':>8} {'scan ms':>8} {'p95':>6} {'detect':>6} {'x detect':>8}",
        file=sys.stderr,
    )
    for row in results["rows"]:
        print(
            f"{row['difficulty']:<10} {row['game']:<11} {row['boards']:>6} "
            f"{row['exact_rate']:>7.1%} {_interval(row['exact_interval']):>15} "
            f"{row['complete']:>6} {row['confident_wrong']:>5} "
            f"{row['abstained']:>7} "
            f"{row['component_error_rate']:>8.2%} {row['scan_ms_median']:>8.1f} "
            f"{row['scan_ms_p95']:>6.1f} {row['detect_ms_median']:>6.1f} "
            f"{row['scan_to_detect']:>8.2f}",
            file=sys.stderr,
        )
    print_calibration(results["calibration"])
    if families:
        print_perturbations(results["perturbations"], results["perturbation_totals"])
    if args.plots:
        write_plots(args.plots, results)
    return emit_json(results)


def first_seed(split: str | None, seed: int | None, boards: int) -> int:
    """The first board's seed: the start of ``split``, or ``seed`` (default 0), not both."""
    from vision.splits import SPLITS

    if split is None:
        return 0 if seed is None else seed
    if seed is not None:
        raise AtelierError("--split and --seed exclude each other (a split fixes the seeds)")
    if split not in SPLITS:
        raise AtelierError(f"--split: unknown split {split!r} (one of {', '.join(SPLITS)})")
    chosen = SPLITS[split]
    check_range(boards, 1, chosen.size, f"--boards (split {split})")
    return chosen.first


def chosen_families(names: list[str] | None) -> list[Family]:
    """The families at the strengths ``--perturb`` names, in the catalogue's order: "all",
    every family at its default strength; "FAMILY:all", every strength of one; a name of old
    ("noise", "ev+1"), its default strength; or "FAMILY:STRENGTH"."""
    from vision.perturb import ALIASES, FAMILIES

    wanted: set[str] = set()
    for name in names or ():
        family = name.removesuffix(":all")
        if name == "all":
            wanted |= {f.name for f in FAMILIES.values() if f.default}
        elif name != family and any(f.family == family for f in FAMILIES.values()):
            wanted |= {f.name for f in FAMILIES.values() if f.family == family}
        elif name in FAMILIES or name in ALIASES:
            wanted.add(ALIASES.get(name, name))
        else:
            known = ", ".join(["all", "FAMILY:all", *ALIASES, *FAMILIES])
            raise AtelierError(f"--perturb: unknown family {name!r} (one of {known})")
    return [f for f in FAMILIES.values() if f.name in wanted]


def _interval(bounds: list[float]) -> str:
    return f"[{bounds[0]:.1%}-{bounds[1]:.1%}]"


def plots_folder(folder: Path) -> None:
    """Create ``folder`` if missing, before the run, so a bad one is refused at once."""
    if folder.exists() and not folder.is_dir():
        raise AtelierError(f"--plots: {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise AtelierError(f"--plots: cannot create {folder} ({error.strerror})") from error


def print_calibration(calibration: dict[str, Any]) -> None:
    print(
        f"\n{'game':<11} {'bin':>11} {'count':>6} {'confidence':>10} {'right':>7}",
        file=sys.stderr,
    )
    for game, report in calibration.items():
        for b in report["bins"]:
            print(
                f"{game:<11} {b['low']:>5.2f}-{b['high']:<5.2f} {b['count']:>6} "
                f"{b['confidence']:>10.3f} {b['accuracy']:>7.1%}",
                file=sys.stderr,
            )
        print(
            f"{game:<11} ECE {report['ece']:.4f} over {report['components']} components "
            f"({report['refused']} refused)",
            file=sys.stderr,
        )


def write_plots(folder: Path, results: dict[str, Any]) -> None:
    from vision.calibration_plots import reliability_diagram, risk_coverage_plot, write_png
    from vision.calibration_report import Bin, CurvePoint

    for game, report in results["calibration"].items():
        bins = [Bin(**b) for b in report["bins"]]
        title = f"{game}: reliability, ECE {report['ece']:.4f}, n {report['components']}"
        write_png(folder / f"reliability-{game}.png", reliability_diagram(bins, title))
        curve = [CurvePoint(**p) for p in results["risk_coverage"][game]]
        title = f"{game}: risk against coverage, n {report['components']}"
        write_png(folder / f"risk-coverage-{game}.png", risk_coverage_plot(curve, title))


def print_perturbations(rows: list[dict[str, Any]], totals: list[dict[str, Any]]) -> None:
    print(
        f"\n{'family':<17} {'difficulty':<10} {'game':<11} {'boards':>6} {'exact':>7} "
        f"{'95 % interval':>15} {'refused':>7} {'wrong':>5} {'reads ok':>8}",
        file=sys.stderr,
    )
    for row in rows:
        print(
            f"{row['name']:<17} {row['difficulty']:<10} {row['game']:<11} {row['boards']:>6} "
            f"{row['exact_rate']:>7.1%} {_interval(row['exact_interval']):>15} "
            f"{row['refused']:>7} {row['wrong']:>5} {row['refused_reads_right']:>8}",
            file=sys.stderr,
        )
    # The families that hide nothing apart: a target on exact reads holds for them alone.
    for hides, heading in ((False, "hides nothing"), (True, "hides part of a board")):
        chosen = [row for row in totals if row["hides"] is hides]
        if not chosen:
            continue
        print(
            f"\n{heading + ', all games':<33} {'boards':>6} {'exact':>7} {'95 % interval':>15} "
            f"{'refused':>7} {'wrong':>5} {'reads ok':>8}",
            file=sys.stderr,
        )
        for row in chosen:
            print(
                f"{row['name']:<33} {row['boards']:>6} {row['exact_rate']:>7.1%} "
                f"{_interval(row['exact_interval']):>15} {row['refused']:>7} {row['wrong']:>5} "
                f"{row['refused_reads_right']:>8}",
                file=sys.stderr,
            )


def run_lighting(args: argparse.Namespace, seed: int, progress: Callable[[str], None]) -> int:
    from vision.benchmark import LIGHTING_GAMES, run_lighting_bench

    games = check_games(args.game, LIGHTING_GAMES, "no lighting bench for")
    results = run_lighting_bench(args.boards, seed, progress, games)
    end_progress()
    print(
        f"{'calibration':<13} {'kelvin':>6} {'EV':>5} {'right':>7} {'wrong':>5} {'bad boards':>10}",
        file=sys.stderr,
    )
    for row in results["rows"]:
        label = "reference" if row["calibrated"] else "none"
        print(
            f"{label:<13} {row['kelvin']:>6.0f} {row['exposure_ev']:>+5.1f} "
            f"{row['right_rate']:>7.1%} {row['wrong']:>5} {row['confident_wrong_boards']:>10}",
            file=sys.stderr,
        )
    return emit_json(results)
