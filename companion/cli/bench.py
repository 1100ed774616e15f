"""``atelier bench rules``: how fast the rules engines score, as a table and as JSON."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from companion.bench.rules import run_rules_bench
from companion.cli.output import check_games, check_range, emit_json
from companion.errors import AtelierError

HELP = """\
Measure the rules engines. Each row is a rate and its cost in units of a baseline measured in
the same run (reading every edge of the same canvases once), so numbers compare across machines.

live: the demo's games played in turn as a 1920x1080 video at 30 fps, every frame scanned on
one core; a table per game on standard error, JSON on standard output: "games" (per game:
frames, fps_sustained, keeps_up, frame_ms and frame_cpu_ms median/p95, latency_ms and
latency_cpu_ms median/max from the first frame of a settled table to its event,
accepting_frame_ms, commit_ms_median, events, changes, missed, wrong), "overall" (the same over
the whole video), "wrong" (each wrong reading: game, frame, seat, why), "refused" (readings a
table refused), "memory" (samples along the video, last_half_growth_mb, flat).

examples:
  atelier bench rules --seconds 2
  atelier bench live --minutes 2 --game isle --game pigments
  atelier bench live --minutes 60          the hour-long soak
"""


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "bench",
        help="run the benchmarks",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "suite",
        choices=("rules", "markers", "vision", "web", "led", "live"),
        help="rules: the rules engines; markers: the fiducial family study; "
        "vision: scanning rendered boards with known truth, on one core; "
        "web: live viewers of one table on loopback; "
        "live: the live camera loop on a rendered video of the demo's games",
    )
    parser.add_argument(
        "--boards", type=int, default=20, help="vision: boards per game and difficulty"
    )
    parser.add_argument(
        "--changes", type=int, default=30, help="led: score changes to time (default 30)"
    )
    parser.add_argument(
        "--lighting",
        action="store_true",
        help="vision: cells and chips across 2700-6500 K and -1.5..+1.5 EV, with and without "
        "the colour reference card",
    )
    parser.add_argument(
        "--difficulty",
        choices=("easy", "medium", "hard", "all"),
        default="all",
        help="vision: which renders (default all)",
    )
    parser.add_argument(
        "--scenes", type=int, default=4, help="markers: scenes per condition (default 4)"
    )
    parser.add_argument(
        "--marker-mm",
        type=float,
        default=24.0,
        help="markers: printed marker size in mm (default 24, a piece marker)",
    )
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time per measurement (default 1.0)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for the sample positions")
    parser.add_argument("--viewers", type=int, default=50, help="web: live viewers (default 50)")
    parser.add_argument("--scans", type=int, default=20, help="web: scans timed (default 20)")
    parser.add_argument(
        "--minutes",
        type=float,
        default=10.0,
        help="web: minutes of scans for memory; live: minutes of video, the games at least "
        "once through (default 10)",
    )
    parser.add_argument(
        "--turns",
        type=int,
        metavar="N",
        help="live: at most N turns of each game (default: every turn the demo plays)",
    )
    parser.add_argument(
        "--game",
        action="append",
        metavar="GAME",
        help="live: a game of the demo to play; vision: a game to render and scan "
        "(colorfield, paintings, isle, pigments); repeat for more (default: every one)",
    )
    parser.add_argument(
        "--fps", type=float, default=30.0, help="live: the video's frame rate (default 30)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.suite == "markers":
        return run_markers(args)
    if args.suite == "web":
        return run_web(args)
    if args.suite == "vision":
        return run_vision(args)
    if args.suite == "led":
        return run_led(args)
    if args.suite == "live":
        from companion.cli.live import run_live_bench_command

        return run_live_bench_command(args)
    check_range(args.seconds, 0.01, 600, "--seconds")
    results = run_rules_bench(seconds=args.seconds, seed=args.seed)
    header = f"{'benchmark':<34} {'per second':>12} {'ms each':>9} {'cost (baselines)':>17}"
    print(header, file=sys.stderr)
    for row in results["rows"]:
        print(
            f"{row['name']:<34} {row['per_second']:>12,.0f} {row['ms_per_item']:>9.3f} "
            f"{row['cost_in_baselines']:>17.1f}",
            file=sys.stderr,
        )
    return emit_json(results)


def run_markers(args: argparse.Namespace) -> int:
    check_range(args.scenes, 1, 100, "--scenes")
    check_range(args.marker_mm, 8, 60, "--marker-mm")
    # Imported here so that the rules benchmark never loads OpenCV.
    from vision.marker_study import CANDIDATES, choose, default_conditions, study_family

    conditions = default_conditions(args.marker_mm)
    results = []
    for number, name in enumerate(CANDIDATES, 1):
        if sys.stderr.isatty():
            print(f"[{number}/{len(CANDIDATES)}] {name}", file=sys.stderr)
        results.append(study_family(name, conditions, scenes=args.scenes, clutter=4 * args.scenes))
    labels = [c.label for c in conditions]
    print("detected per condition: " + " | ".join(labels), file=sys.stderr)
    for r in results:
        rates = " ".join(f"{r.detected[label]:5.2f}" for label in labels)
        print(
            f"{r.name:<22} ids {r.ids:>4} bits {r.correction_bits} {rates}  wrong {r.wrong_ids}"
            f"  phantom {r.false_positives}  {r.ms_per_frame:6.1f} ms",
            file=sys.stderr,
        )
    chosen, why = choose(results)
    print(f"chosen: {why}", file=sys.stderr)
    out = {
        "suite": "markers",
        "marker_mm": args.marker_mm,
        "scenes_per_condition": args.scenes,
        "conditions": labels,
        "families": [r.to_json() for r in results],
        "chosen": chosen,
        "why": why,
    }
    return emit_json(out)


def run_vision(args: argparse.Namespace) -> int:
    check_range(args.boards, 1, 10000, "--boards")
    from vision.benchmark import GAMES, run_vision_bench
    from vision.render.envelope import Difficulty

    games = check_games(args.game, GAMES)
    levels = list(Difficulty) if args.difficulty == "all" else [Difficulty(args.difficulty)]
    tty = sys.stderr.isatty()

    def progress(step: str) -> None:
        if tty:
            print(f"\r{step:<40}", end="", file=sys.stderr, flush=True)

    if args.lighting:
        return run_lighting(args, progress)

    # One core, as the targets are stated: the scan and OpenCV's own threads share it, and so
    # does the bare detection it is compared with (OpenCV's, with its default parameters).
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    results = run_vision_bench(games, levels, args.boards, args.seed, progress)
    if tty:
        print(file=sys.stderr)
    print(
        f"{'difficulty':<10} {'game':<11} {'boards':>6} {'exact':>7} {'scored':>6} {'wrong':>5} "
        f"{'abstain':>7} "
        f"{'comp.err':>8} {'scan ms':>8} {'p95':>6} {'detect':>6} {'x detect':>8}",
        file=sys.stderr,
    )
    for row in results["rows"]:
        print(
            f"{row['difficulty']:<10} {row['game']:<11} {row['boards']:>6} "
            f"{row['exact_rate']:>7.1%} {row['complete']:>6} {row['confident_wrong']:>5} "
            f"{row['abstained']:>7} "
            f"{row['component_error_rate']:>8.2%} {row['scan_ms_median']:>8.1f} "
            f"{row['scan_ms_p95']:>6.1f} {row['detect_ms_median']:>6.1f} "
            f"{row['scan_to_detect']:>8.2f}",
            file=sys.stderr,
        )
    return emit_json(results)


def run_lighting(args: argparse.Namespace, progress: Any) -> int:
    from vision.benchmark import LIGHTING_GAMES, run_lighting_bench

    games = check_games(args.game, LIGHTING_GAMES, "no lighting bench for")
    results = run_lighting_bench(args.boards, args.seed, progress, games)
    if sys.stderr.isatty():
        print(file=sys.stderr)
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


def run_web(args: argparse.Namespace) -> int:
    check_range(args.viewers, 1, 500, "--viewers")
    check_range(args.scans, 1, 10000, "--scans")
    check_range(args.minutes, 0, 600, "--minutes")
    # Imported here so that the other benchmarks never load Flask or the server.
    from web.bench import run_web_bench

    tty = sys.stderr.isatty()

    def progress(step: str) -> None:
        if tty:
            print(f"\r{step:<40}", end="", file=sys.stderr, flush=True)

    results = run_web_bench(args.viewers, args.scans, args.minutes, 2.0, progress)
    if tty:
        print(file=sys.stderr)
    latency = results["latency_ms"]
    print(
        f"{results['viewers']} viewers, {results['scans']} scans: event to viewer "
        f"median {latency['median']} ms, p95 {latency['p95']} ms, max {latency['max']} ms "
        f"({results['missing']} missing)",
        file=sys.stderr,
    )
    if results["memory"]:
        first, last = results["memory"][0], results["memory"][-1]
        print(
            f"memory over {args.minutes} min: {first['rss_mb']} MB -> {last['rss_mb']} MB",
            file=sys.stderr,
        )
    return emit_json(results)


def run_led(args: argparse.Namespace) -> int:
    changes = args.changes
    check_range(changes, 1, 1000, "--changes")
    from firmware_bridge.benchmark import run_led_bench
    from firmware_bridge.simulator import SimulatorUnavailableError

    try:
        results = run_led_bench(changes)
    except SimulatorUnavailableError as exc:
        raise AtelierError(f"bench led: {exc}") from None
    print(
        f"score change to display write: median {results['latency_ms_median']} ms, "
        f"max {results['latency_ms_max']} ms, {results['latency_in_frame_times']}x the frame's "
        f"{results['baseline_frame_on_wire_ms']} ms on the wire; {results['lost']} lost",
        file=sys.stderr,
    )
    return emit_json(results)
