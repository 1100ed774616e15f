"""What happened on a canvas between two scans: tiles placed, removed, rotated and moved.

Tile identity. When both scans name every tile by catalogue id, the id decides which tile is
which. Otherwise tiles are known by their printed edges, and the same four edges listed from a
different starting side are the same tile; a catalogue tile is then compared by its edges too, so
an id the camera failed to read in one scan does not turn into a phantom replacement.

Ambiguity. Identical tiles on one canvas (two inline tiles with the same edges) cannot be told
apart, so several readings of the same two scans may exist. Each tile that can be the same tile
is taken to be the same tile, and of the readings that remain, ``diff`` keeps the one that needs
the fewest Inspiration tokens (then the fewest moved tiles). That reading is the most charitable
one for every legality check, so a violation found in it holds in every reading.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from companion.games.colorfield.model import SPACES, Canvas, Edge, PlacedTile, Side, Tile


@dataclass(frozen=True)
class TileIdentity:
    """How two scans tell tiles apart: by catalogue id, or by printed edges."""

    by_id: bool

    @staticmethod
    def for_scans(before: Canvas, after: Canvas) -> TileIdentity:
        placed = [p for p in (*before.spaces, *after.spaces) if p is not None]
        return TileIdentity(by_id=all(p.tile.id is not None for p in placed))

    def key(self, tile: Tile) -> Hashable:
        if self.by_id:
            return ("id", tile.id)
        return ("edges", _canonical_edges(tile.edges))

    def same_direction(self, first: PlacedTile, second: PlacedTile) -> bool:
        """Whether two placements of the same tile point the same way on the canvas."""
        if self.by_id:
            return first.rotation == second.rotation
        # Without an id the printed top is only where the camera started listing, so the
        # direction is what each canvas side shows.
        return _shown(first) == _shown(second)


def _edge_order(edge: Edge) -> tuple[str, int]:
    return (edge.colour.value, edge.multiplier)


def _canonical_edges(edges: tuple[Edge, ...]) -> tuple[tuple[str, int], ...]:
    """The edges as read from the starting side that gives the smallest listing."""
    listings = (tuple(_edge_order(edges[(start + i) % 4]) for i in range(4)) for start in range(4))
    return min(listings)


def _shown(placed: PlacedTile) -> tuple[Edge, ...]:
    return tuple(placed.edge(side) for side in Side)


@dataclass(frozen=True)
class Move:
    """A tile already on the canvas that now lies in another space."""

    source: int
    target: int
    turned: bool  # it also points another way: one rotate on top of the swaps

    def to_json(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "turned": self.turned}


@dataclass(frozen=True)
class CanvasChange:
    """One reading of two scans. Space lists are sorted; moves are sorted by source.

    ``filled``: an empty space now holds a tile that was not on the canvas. ``replaced``: such a
    new tile now lies where another tile lay. ``emptied``: a space that held a tile is empty.
    ``rotated``: the same tile in the same space points another way. ``ambiguous``: spaces (in
    either scan) whose tile has an identical twin, where this reading is one of several.
    """

    filled: tuple[int, ...] = ()
    replaced: tuple[int, ...] = ()
    emptied: tuple[int, ...] = ()
    rotated: tuple[int, ...] = ()
    moves: tuple[Move, ...] = ()
    ambiguous: tuple[int, ...] = ()

    @property
    def placed(self) -> tuple[int, ...]:
        """Spaces that received a tile new to the canvas."""
        return tuple(sorted(self.filled + self.replaced))

    @property
    def moved(self) -> tuple[int, ...]:
        """Every space a moved tile left or entered."""
        return tuple(sorted({m.source for m in self.moves} | {m.target for m in self.moves}))

    @property
    def turned(self) -> tuple[int, ...]:
        """Spaces (after the change) holding a tile that needs a rotate: in place or moved."""
        return tuple(sorted(self.rotated + tuple(m.target for m in self.moves if m.turned)))

    @property
    def swaps(self) -> int:
        """The fewest swaps that realise the moves: moved tiles minus closed cycles.

        A chain that ends where a tile left the canvas (or a space was empty) closes through that
        space, so it needs as many swaps as it has moved tiles.
        """
        return len(self.moves) - _closed_cycles(self.moves)

    @property
    def rotations(self) -> int:
        return len(self.turned)

    @property
    def tokens(self) -> int:
        """Inspiration tokens the change needs: one per swap and one per rotate."""
        return self.swaps + self.rotations

    @property
    def unchanged(self) -> bool:
        return not (self.filled or self.replaced or self.emptied or self.rotated or self.moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "filled": list(self.filled),
            "replaced": list(self.replaced),
            "emptied": list(self.emptied),
            "rotated": list(self.rotated),
            "moves": [m.to_json() for m in self.moves],
            "swaps": self.swaps,
            "rotations": self.rotations,
            "tokens": self.tokens,
            "ambiguous": list(self.ambiguous),
        }


def _closed_cycles(moves: tuple[Move, ...]) -> int:
    step = {m.source: m.target for m in moves}
    seen: set[int] = set()
    cycles = 0
    for start in step:
        if start in seen:
            continue
        here = start
        while here in step and here not in seen:
            seen.add(here)
            here = step[here]
        # Each space is entered by at most one move, so a walk that comes back to its start
        # went round a cycle no earlier walk touched.
        if here == start:
            cycles += 1
    return cycles


def diff(before: Canvas, after: Canvas) -> CanvasChange:
    """The most charitable reading of what happened between two scans (see module docstring)."""
    return min(readings(before, after), key=lambda c: (c.tokens, len(c.moves)))


def readings(before: Canvas, after: Canvas) -> Iterator[CanvasChange]:
    """Every reading that keeps as many tiles as possible; one unless tiles are identical."""
    identity = TileIdentity.for_scans(before, after)
    was, now = _occupied(before), _occupied(after)
    groups: dict[Hashable, tuple[list[int], list[int]]] = {}
    for tiles, side in ((was, 0), (now, 1)):
        for space, placed in tiles.items():
            groups.setdefault(identity.key(placed.tile), ([], []))[side].append(space)
    ambiguous = tuple(
        sorted({s for a, b in groups.values() if len(a) > 1 or len(b) > 1 for s in a + b})
    )
    options = [list(_pairings(a, b)) for a, b in groups.values()]
    for choice in product(*options):
        pairs = [pair for option in choice for pair in option]
        yield _reading(was, now, pairs, identity, ambiguous)


def _occupied(canvas: Canvas) -> dict[int, PlacedTile]:
    return {s: p for s, p in zip(SPACES, canvas.spaces, strict=True) if p is not None}


def _pairings(sources: list[int], targets: list[int]) -> Iterator[tuple[tuple[int, int], ...]]:
    """Each way to match as many copies of one tile before to copies after as possible."""
    if len(sources) <= len(targets):
        for chosen in permutations(targets, len(sources)):
            yield tuple(zip(sources, chosen, strict=True))
    else:
        for chosen in permutations(sources, len(targets)):
            yield tuple(zip(chosen, targets, strict=True))


def _reading(
    was: dict[int, PlacedTile],
    now: dict[int, PlacedTile],
    pairs: list[tuple[int, int]],
    identity: TileIdentity,
    ambiguous: tuple[int, ...],
) -> CanvasChange:
    kept_targets = {target for _, target in pairs}
    arrivals = [s for s in sorted(now) if s not in kept_targets]
    rotated: list[int] = []
    moves: list[Move] = []
    for source, target in sorted(pairs):
        turned = not identity.same_direction(was[source], now[target])
        if source != target:
            moves.append(Move(source, target, turned))
        elif turned:
            rotated.append(source)
    return CanvasChange(
        filled=tuple(s for s in arrivals if s not in was),
        replaced=tuple(s for s in arrivals if s in was),
        emptied=tuple(s for s in sorted(was) if s not in now),
        rotated=tuple(rotated),
        moves=tuple(moves),
        ambiguous=ambiguous,
    )
