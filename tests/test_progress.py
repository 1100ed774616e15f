"""Progress of long work on standard error: a bar rewritten in place on a terminal (a real pty);
in a pipe nothing (tests/test_bench_rules.py)."""

from __future__ import annotations

import json
import os
import pty
import subprocess

from tests.cli import ATELIER

BENCH = ["bench", "rules", "--seconds", "0.01"]


def on_a_terminal(*args: str) -> tuple[str, str]:
    """The command's standard output (a pipe) and what its standard error (a pty) showed."""
    terminal, stderr = pty.openpty()
    with subprocess.Popen(
        [str(ATELIER), *args], stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL
    ) as running:
        os.close(stderr)
        shown = b""
        while True:  # read as it comes: a full pty would stall the command
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # EIO: the command closed the pty's other end
                break
            if not chunk:
                break
            shown += chunk
        assert running.stdout is not None
        out = running.stdout.read().decode()
        assert running.wait(timeout=120) == 0
    os.close(terminal)
    return out, shown.decode()


def test_bench_rules_draws_a_bar_per_game_on_a_terminal() -> None:
    out, shown = on_a_terminal(*BENCH)
    lines = shown.replace("\r\n", "\n").split("\n")  # a terminal ends its lines with \r\n
    assert [step.strip() for step in lines[0].split("\r")] == [
        "",
        "[....................] 1/4 Color Field",
        "[#####...............] 2/4 Paintings",
        "[##########..........] 3/4 Isle of Colors",
        "[###############.....] 4/4 Pigment Lab",
    ]
    assert lines[1].startswith("benchmark")  # the table on a line of its own
    assert json.loads(out)["suite"] == "rules"
