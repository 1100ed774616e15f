"""``atelier bench live``: the live table's loop on one core over a rendered video of the demo's
games, each game's events into a table of its own."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cli.bench.cores import one_core
from companion.cli.bench.progress import end_progress, progress_line
from companion.cli.output import check_games, check_range, emit_json
from companion.cli.render import parse_size
from companion.games.scripts import Script
from companion.live.feed import TableFeed
from companion.live.setups import DEMO_PLAYERS, table_setup
from companion.table.rotation import Rotation
from companion.table.session import Tables

HELP = """\
The demo's games played in turn as a 1920x1080 video at 30 fps, every frame scanned on one core,
each game's accepted readings into a table of its own; a table per game on standard error, JSON
on standard output: "games" (per game: frames, fps_sustained, keeps_up, dropped (the frames a
live loop would drop), frame_ms and frame_cpu_ms median/p95, latency_ms and latency_cpu_ms
median/p95/max from the first frame of a settled table to its event, accepting_frame_ms,
commit_ms_median, events, changes, missed, wrong), "overall" (the same over the whole video),
"wrong" (each wrong reading: game, frame, seat, why), "refused" (readings a table refused),
"memory" (samples along the video, last_half_growth_mb, flat).

examples:
  atelier bench live --minutes 2 --game isle --game pigments
  atelier bench live --minutes 10 --players 4          four boards on the table
  atelier bench live --minutes 2 --players 4 --size 3840x2160
  atelier bench live --minutes 60          the hour-long soak
"""
PLAYER_NAMES = ("Ana", "Ben", "Cleo", "Dev")


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "live",
        help="the live camera loop on a rendered video of the demo's games",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=10.0,
        help="minutes of video, the games at least once through (default 10)",
    )
    parser.add_argument(
        "--turns",
        type=int,
        metavar="N",
        help="at most N turns of each game (default: every turn the demo plays)",
    )
    parser.add_argument(
        "--game",
        action="append",
        metavar="GAME",
        help="a game of the demo to play (colorfield, paintings, isle, pigments); repeat for "
        "more (default: every one)",
    )
    parser.add_argument(
        "--fps", type=float, default=30.0, help="the video's frame rate (default 30)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=len(DEMO_PLAYERS),
        metavar="N",
        help="players, 2 to 4, a board each (Isle of Colors takes two at most; default 2, as "
        "the demo)",
    )
    parser.add_argument(
        "--size", metavar="WxH", default="1920x1080", help="the video's size (default 1920x1080)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.turns is not None:
        check_range(args.turns, 1, 100, "--turns")
    check_range(args.minutes, 0, 600, "--minutes")
    check_range(args.fps, 1, 240, "--fps")
    check_range(args.players, 2, len(PLAYER_NAMES), "--players")
    size = parse_size(args.size)
    from vision.live.bench import bench_games, run_live_bench
    from vision.live.demo import DEMO_GAMES
    from vision.live.handover import handover
    from vision.live.loop import Accept

    names = [game for game, _, _ in DEMO_GAMES]
    check_games(args.game, names)
    played = bench_games(args.players, args.game, args.turns)
    refused: list[str] = []
    # One core, as promised by the measurement: the loop and OpenCV's own threads share it.
    with one_core() as core, tempfile.TemporaryDirectory() as folder:
        tables = Tables(Path(folder))
        # As the demo does: a game played again replaces its table of the round before.
        rotation = Rotation(tables, len(played))

        def table_for(script: Script) -> Accept:
            players = PLAYER_NAMES[: len(script.opening)]
            created = rotation.create(table_setup(script.game, players, script.options))
            return handover(TableFeed(tables, created.table, _refusals(refused)))

        try:
            results = run_live_bench(
                table_for, played, args.minutes, size, args.fps, progress=progress_line(48)
            )
        finally:
            tables.close()
    results["refused"] = refused
    results["core"] = core
    end_progress()
    print_live_bench(results)
    return emit_json(results)


def _refusals(into: list[str]) -> Callable[[str], None]:
    """A table feed's report that keeps the readings its table refused (every other message
    reports a scan event)."""

    def report(message: str) -> None:
        if not message.startswith("live: scan #"):
            into.append(message)

    return report


def print_live_bench(results: dict[str, Any]) -> None:
    """The benchmark's table for people, on standard error."""
    print(
        f"{results['frames']} frames ({results['video_seconds']} s of video at "
        f"{results['video_fps']:g} fps, {results['size'][0]}x{results['size'][1]}), one core "
        f"(cpu {results['core']}); "
        f"load average {results['load_average'][0]} -> {results['load_average'][1]}",
        file=sys.stderr,
    )
    print(
        f"{'':<11} {'':>6} {'':>5} {'':>7} {'frame ms':>13} {'cpu ms':>6} "
        f"{'settled to event ms':>23}",
        file=sys.stderr,
    )
    print(
        f"{'game':<11} {'frames':>6} {'fps':>5} {'dropped':>7} {'median / p95':>13} "
        f"{'median':>6} {'median / p95 / max':>23} {'cpu max':>7} "
        f"{'events':>6} {'changes':>7} {'missed':>6} {'wrong':>5}",
        file=sys.stderr,
    )
    for name, row in [*((r["game"], r) for r in results["games"]), ("overall", results["overall"])]:
        frame, latency = row["frame_ms"], row["latency_ms"]
        print(
            f"{name:<11} {row['frames']:>6} {row['fps_sustained']:>5} {row['dropped']:>7} "
            f"{frame['median']:>6}/{frame['p95']:>6} {row['frame_cpu_ms']['median']:>6} "
            f"{latency['median']!s:>7}/{latency['p95']!s:>7}/{latency['max']!s:>7} "
            f"{row['latency_cpu_ms']['max']!s:>7} "
            f"{row['events']:>6} {row['changes']:>7} {row['missed']:>6} {row['wrong']:>5}",
            file=sys.stderr,
        )
    memory = results["memory"]
    verdict = "flat" if memory["flat"] else "NOT flat"
    print(
        f"memory {memory['start_mb']} MB -> {memory['end_mb']} MB; the last half added "
        f"{memory['last_half_growth_mb']} MB: {verdict} (below {memory['flat_below_mb']} MB)",
        file=sys.stderr,
    )
    for wrong in results["wrong"]:
        print(
            f"wrong: {wrong['game']} frame {wrong['frame']} seat {wrong['seat']}: {wrong['why']}",
            file=sys.stderr,
        )
    for message in results["refused"]:
        print(f"refused: {message}", file=sys.stderr)
