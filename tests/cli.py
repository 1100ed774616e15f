"""Running the real ``atelier`` console script in a subprocess, as a user would."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ATELIER = Path(sys.executable).with_name("atelier")


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str


def atelier(*args: str | Path, stdin: str | bytes | None = None, cwd: Path | None = None) -> Run:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [str(ATELIER), *map(str, args)],
        input=data,
        capture_output=True,
        cwd=cwd,
        timeout=300,  # a guard against a hang, not a speed claim: loaded machines are slow
        check=False,
    )
    return Run(done.returncode, done.stdout.decode(), done.stderr.decode())


def assert_user_error(run: Run, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming every fragment, no traceback."""
    assert run.status == 2, run
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
