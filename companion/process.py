"""What this process costs the machine, for the benchmarks that watch it over time."""

from __future__ import annotations

from pathlib import Path


def resident_mb() -> float:
    """This process's resident memory (MB), or NaN where /proc does not say."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")
