"""The boards the scanner reads, by kind: each reader module's entries."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from vision.scan.readers import colorfield, isle, paintings, pigments, tables
from vision.scan.readers.reader import Kind, ReaderEntry

READERS: Mapping[Kind, ReaderEntry] = MappingProxyType(
    {
        entry.key: entry
        for module in (colorfield, paintings, isle, pigments, tables)
        for entry in module.ENTRIES
    }
)
