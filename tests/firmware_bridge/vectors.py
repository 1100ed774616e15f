"""The shared test vectors (firmware_bridge/firmware/vectors/vectors.txt), parsed."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.simulator import FIRMWARE_DIR

VECTORS = FIRMWARE_DIR / "vectors" / "vectors.txt"


def unhex(text: str) -> bytes:
    return b"" if text == "-" else bytes.fromhex(text)


@dataclass
class Conversation:
    name: str
    device_id: int
    displays: int
    steps: list[list[str]] = field(default_factory=list)


@dataclass
class Vectors:
    lines: dict[str, list[list[str]]] = field(default_factory=dict)
    conversations: list[Conversation] = field(default_factory=list)


def load(path: Path = VECTORS) -> Vectors:
    vectors = Vectors()
    conversation: Conversation | None = None
    for line in path.read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        kind, rest = words[0], words[1:]
        if kind == "device":
            conversation = Conversation(rest[0], int(rest[1], 16), int(rest[2]))
            vectors.conversations.append(conversation)
        elif kind == "end":
            conversation = None
        elif conversation is not None:
            conversation.steps.append(words)
        else:
            vectors.lines.setdefault(kind, []).append(rest)
    return vectors
