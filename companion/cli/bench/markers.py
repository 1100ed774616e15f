"""``atelier bench markers``: the fiducial family study that chose the printed markers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.bench.progress import end_progress, progress_bar
from companion.cli.output import check_range, emit_json

HELP = """\
Render sheets of 40 markers of each candidate family as a 1080p webcam would see them at 70-80
cm, tilted up to 45 degrees and blurred, and count how many the detector finds, misreads or
invents; the eligible family that is found most is chosen, and why is printed. JSON on standard
output: "conditions", "families" (per family: detected per condition, wrong ids, phantoms, ms
per frame), "chosen", "why".

examples:
  atelier bench markers
  atelier bench markers --scenes 8 --marker-mm 16
"""


def register(suites: Any) -> None:
    parser: argparse.ArgumentParser = suites.add_parser(
        "markers",
        help="the fiducial family study",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--scenes", type=int, default=4, help="scenes per condition (default 4)")
    parser.add_argument(
        "--marker-mm",
        type=float,
        default=24.0,
        help="printed marker size in mm (default 24, a piece marker)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_range(args.scenes, 1, 100, "--scenes")
    check_range(args.marker_mm, 8, 60, "--marker-mm")
    # Imported here so that the other benchmarks never load OpenCV.
    from vision.marker_study import CANDIDATES, choose, default_conditions, study_family

    conditions = default_conditions(args.marker_mm)
    results = []
    show = progress_bar(len(CANDIDATES), 56)
    for name in CANDIDATES:
        show(name)
        results.append(study_family(name, conditions, scenes=args.scenes, clutter=4 * args.scenes))
    end_progress()
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
