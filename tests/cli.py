"""Running ``atelier`` as a user would: the real console script in a subprocess (``atelier``),
or its ``main(argv)`` in this process (``atelier_main``), which sees the same arguments, standard
input and output and returns the same exit status without a new interpreter's second of imports.
A process of its own is for what only a process shows: the console script itself, a file
descriptor's output (native libraries), signals, terminals, servers."""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.cli.main import main

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


def atelier_main(*args: str | Path, stdin: str | bytes | None = None) -> Run:
    data = stdin.encode() if isinstance(stdin, str) else stdin or b""
    buffers = io.BytesIO(data), io.BytesIO(), io.BytesIO()
    # Referenced until the buffers are read: a collected wrapper closes its buffer.
    streams = [io.TextIOWrapper(b, encoding="utf-8", write_through=True) for b in buffers]
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        status = main([str(arg) for arg in args])
    except SystemExit as exit_:  # argparse's exits: --help, --version, a usage mistake
        status = int(exit_.code or 0)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    out, err = (buffer.getvalue().decode() for buffer in buffers[1:])
    return Run(status, out, err)


def assert_user_error(run: Run, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming every fragment, no traceback."""
    assert run.status == 2, run
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
