"""Writing a whole output folder or nothing: files go into a hidden folder beside the target,
which is renamed into place only once everything is written."""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.errors import AtelierError


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _fresh(parent: Path, stem: str) -> Path:
    """A new empty folder in ``parent``; unlike ``tempfile.mkdtemp`` it gets the usual
    permissions, as the output folder it becomes should."""
    while True:
        folder = parent / f"{stem}-{secrets.token_hex(4)}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder


def check_target(target: Path, force: bool) -> None:
    """Refuse a target that is a file, or a folder with something in it (unless ``force``)."""
    if target.exists() and not target.is_dir():
        raise AtelierError(f"{target}: is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise AtelierError(f"{target}: folder is not empty (use --force to replace it)")


@contextmanager
def staged_folder(target: Path, force: bool) -> Iterator[Path]:
    """A fresh folder to write into; on success it becomes ``target`` (replacing what was there
    when ``force``), on any failure it is removed and ``target`` is left as it was."""
    check_target(target, force)
    parent = target.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = _fresh(parent, f".{target.name}.partial")
    except OSError as exc:
        raise AtelierError(f"{target}: cannot write there ({_reason(exc)})") from None
    try:
        yield staging
        old: Path | None = None
        if target.is_dir():
            old = _fresh(parent, f".{target.name}.old")
            target.replace(old / target.name)
        try:
            staging.replace(target)
        except OSError as exc:
            if old is not None:
                (old / target.name).replace(target)
            raise AtelierError(f"{target}: cannot write there ({_reason(exc)})") from None
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise AtelierError(f"{target}: cannot write there ({_reason(exc)})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
