"""The options every command that talks to the broker takes, read and checked in one place:
``--broker URL``, ``--site NAME``, and the login (``--broker-user``, ``--broker-password-file``)
and TLS (``--broker-ca``) beside the address."""

from __future__ import annotations

import argparse
import dataclasses
import ssl
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import AtelierError

if TYPE_CHECKING:
    from web.broker.client import BrokerLogin


# How to log in, beside the address: only with --broker.
LOGIN_OPTIONS = ("--broker-user", "--broker-password-file", "--broker-ca")


def add_broker_options(
    parser: argparse.ArgumentParser, site_help: str, broker_help: str = "the MQTT broker"
) -> None:
    """Add the broker's options to ``parser`` (``site_help``: what --site means there;
    ``broker_help``: what the broker is for)."""
    parser.add_argument(
        "--broker",
        metavar="URL",
        help=f"{broker_help}: mqtt://HOST[:PORT] (default port 1883) or mqtts://HOST[:PORT] for "
        "TLS (default 8883); a user may be given as mqtt://USER@HOST",
    )
    parser.add_argument("--site", metavar="NAME", help=site_help)
    parser.add_argument("--broker-user", metavar="USER", help="the user to log in to the broker as")
    parser.add_argument(
        "--broker-password-file",
        type=Path,
        metavar="FILE",
        help="a file holding the broker password (its first line): never on the command line, "
        "where other users of the machine can read it",
    )
    parser.add_argument(
        "--broker-ca",
        type=Path,
        metavar="FILE",
        help="mqtts: the certificate authority that signed the broker's certificate (PEM; "
        "default: the system's)",
    )


def broker_login(args: argparse.Namespace) -> BrokerLogin:
    """The broker and the login the options name, checked: one line naming what is wrong."""
    from web.broker.client import BrokerLogin
    from web.broker.protocol import parse_broker

    if not args.broker:
        raise AtelierError("--broker: give the broker's address, e.g. --broker mqtt://hall.local")
    address = parse_broker(args.broker)
    changes: dict[str, Any] = {}
    if args.broker_user is not None:
        if address.username is not None:
            raise AtelierError("--broker-user: the --broker address already names a user")
        changes["username"] = args.broker_user
    if args.broker_password_file is not None:
        if address.password is not None:
            raise AtelierError("--broker-password-file: the --broker address already has one")
        if address.username is None and args.broker_user is None:
            raise AtelierError("--broker-password-file: only with a user (--broker-user)")
        changes["password"] = _first_line(args.broker_password_file)
    if args.broker_ca is not None:
        if not address.tls:
            raise AtelierError("--broker-ca: only with an mqtts:// broker")
        if not args.broker_ca.is_file():
            raise AtelierError(f"--broker-ca: no such file {str(args.broker_ca)!r}")
        _check_authority(args.broker_ca)
    return BrokerLogin(dataclasses.replace(address, **changes), args.broker_ca)


def site_name(args: argparse.Namespace) -> str | None:
    """``--site``, checked (None when not given)."""
    from web.broker.protocol import checked_name

    return None if args.site is None else checked_name("--site", args.site)


def _first_line(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not text"
        raise AtelierError(
            f"--broker-password-file: cannot read {str(path)!r} ({reason})"
        ) from None
    password = text.splitlines()[0] if text else ""
    if not password:
        raise AtelierError(f"--broker-password-file: {str(path)!r} is empty")
    return password


def _check_authority(path: Path) -> None:
    """Refuse a file TLS cannot trust: paho would only say it cannot connect, again and again."""
    try:
        ssl.create_default_context(cafile=str(path))
    except ssl.SSLError:  # before OSError, which it is
        raise AtelierError(f"--broker-ca: {str(path)!r} is not a PEM certificate") from None
    except OSError as exc:
        raise AtelierError(f"--broker-ca: cannot read {str(path)!r} ({exc.strerror})") from None
