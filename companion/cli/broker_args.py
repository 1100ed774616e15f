"""The command line's way to an MQTT broker: ``--broker`` and how to log in to it, checked
before anything starts (one line, exit 2, for anything that cannot work)."""

from __future__ import annotations

import argparse
import dataclasses
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import AtelierError

if TYPE_CHECKING:
    from web.broker.protocol import BrokerAddress

LOGIN = ("broker_user", "broker_password_file", "broker_ca")


@dataclass(frozen=True)
class BrokerLogin:
    """The broker's address with the user and password to give it, and the authority its TLS
    certificate must come from (None: the system's)."""

    address: BrokerAddress
    ca_file: Path | None


def add_broker_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--broker`` (``what`` it is for) and the options that log in to it."""
    parser.add_argument(
        "--broker",
        metavar="URL",
        help=f"{what}: mqtt://[USER@]HOST[:PORT] (default port 1883), or mqtts:// for TLS (8883)",
    )
    parser.add_argument("--broker-user", metavar="NAME", help="the user to log in to the broker as")
    parser.add_argument(
        "--broker-password-file",
        type=Path,
        metavar="FILE",
        help="a file holding the broker password on its first line (kept off the command line, "
        "where any user of the machine sees it)",
    )
    parser.add_argument(
        "--broker-ca",
        type=Path,
        metavar="FILE",
        help="mqtts: the certificate (PEM) of the private authority that signed the broker's",
    )


def broker_login(args: argparse.Namespace) -> BrokerLogin | None:
    """What ``--broker`` and its options say, checked; None without ``--broker``."""
    if args.broker is None:
        for name in LOGIN:
            if getattr(args, name) is not None:
                raise AtelierError(f"--{name.replace('_', '-')}: only with --broker")
        return None
    from web.broker.protocol import parse_broker  # loads the web package: only when asked

    address = parse_broker(args.broker)
    if args.broker_user is not None:
        if address.username is not None:
            raise AtelierError("--broker-user: the --broker address already names a user")
        if not args.broker_user:
            raise AtelierError("--broker-user: empty")
        address = dataclasses.replace(address, username=args.broker_user)
    if args.broker_password_file is not None:
        if address.password is not None:
            raise AtelierError("--broker-password-file: the --broker address already has one")
        if address.username is None:
            raise AtelierError(
                "--broker-password-file: a password needs a user (--broker-user or USER@ in "
                "--broker)"
            )
        address = dataclasses.replace(address, password=_password(args.broker_password_file))
    if args.broker_ca is not None:
        if not address.tls:
            raise AtelierError("--broker-ca: only with an mqtts:// broker")
        _check_authority(args.broker_ca)
    return BrokerLogin(address, args.broker_ca)


def _password(path: Path) -> str:
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise AtelierError(f"--broker-password-file {path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise AtelierError(f"--broker-password-file {path}: not a text file") from None
    if not lines or not lines[0]:
        raise AtelierError(f"--broker-password-file {path}: the first line is empty")
    return lines[0]


def _check_authority(path: Path) -> None:
    try:
        ssl.create_default_context(cafile=str(path))
    except ssl.SSLError:  # before OSError, which it is
        raise AtelierError(f"--broker-ca {path}: not a PEM certificate") from None
    except OSError as exc:
        raise AtelierError(f"--broker-ca {path}: cannot read ({exc.strerror})") from None
