"""The scan of one photo: markers, boards, the pieces on them, and each board's observation.

The detector, the marker index, the readers and any lens-correction maps are built once and reused
for every frame, so a live camera pays only for the per-frame work. Scoring is not done here: the
observations go to ``companion.observation``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import CameraModel
from calibration.colour import ColourCorrection, fit_correction
from calibration.errors import CalibrationError
from companion.errors import AtelierError
from companion.observation import BoardObservation, Unreadable
from companion.words import plural
from vision.draw import draw_layout
from vision.fiducials import ATELIER_DICTIONARY, Marker, MarkerDetector, predefined_dictionary
from vision.images import Image, to_gray
from vision.layout.catalogue import marker_index
from vision.layout.model import Layout
from vision.scan.blots import MIN_BLOTS, blots
from vision.scan.colours import channel_max
from vision.scan.context import BoardContext, piece_on_board, white_of
from vision.scan.marker_search import MarkerSearch, Place
from vision.scan.missing_markers import places_to_search
from vision.scan.noise import quietened
from vision.scan.readers.reader import BoardReader, Kind, Printed, kind_of
from vision.scan.readers.registry import READERS
from vision.scan.readers.second_look import Rescue
from vision.scan.rectify import rectify
from vision.scan.reference import find_reference, read_patches
from vision.scan.refine import refine
from vision.scan.registration import Registration, Sighting, register
from vision.scan.stray_icons import stray_icons
from vision.scan.unreadable import unreadable

MAX_DETECT_SIDE = 4000  # larger photos are searched for markers at this size, then read in full
MIN_SIDE = 16  # smaller images hold nothing to read
MAX_FIT_ERROR_PX = 3.0  # a board whose markers disagree by more than this is not trusted
CLIPPED_LEVEL = 250  # a pixel with a channel this bright has lost its colour
COLOURED_PRINT = 235  # printed pixels whose brightest channel is below this are not paper white
MAX_CLIPPED = 0.25  # more of a board's coloured print than this so bright: it is overexposed
CLIPPED_SAMPLE = 7  # every 7th coloured pixel is plenty to judge the exposure
MIN_CONFIDENCE = 0.5
REGISTRATION_CONFIDENCE = {4: 1.0, 3: 0.98, 2: 0.95, 1: 0.85}
# Markers named by their look where the detector outlined them but could not decode them
# (measured on hard Paintings photos: see ``vision.scan.readers.second_look``).
RESCUED_KINDS = {("paintings", "mat"), ("paintings", "art-card")}
# An Isle sheet seen by one marker is placed only roughly, and may not be lined up on its grid at
# all: its other corner markers are named the same way where the detector outlined them. (With
# two decoded, a third named there is placed less precisely than the grid lines the sheet up.)
RESCUED_SHEETS = {("isle", "sheet")}
FEW_MARKERS = 2
# Where nothing was decoded and the marker search outlined nothing marker-shaped, the whole frame
# is searched once more for outlines at this fraction of its size: under 14-16 px of motion blur
# often only such a search still outlines the markers. On an empty noisy 1080p table it costs 77 ms
# in full, 14 ms at half size (docs/scanning.md).
OUTLINE_PASS_SCALE = 0.5


@dataclass(frozen=True)
class Reading:
    """One board as read: where its reader placed it, and what it read there (a Paintings mat
    before a player's mats are merged into one observation)."""

    board: Sighting
    observation: BoardObservation


@dataclass(frozen=True)
class Known:
    """What is known of a frame from the frames before it (a live camera's): markers are searched
    for only ``around`` these places (None: the whole frame; none: nowhere), ``kept`` markers lie
    where nothing changed and are taken as they were, and boards whose ``readings`` still hold (by
    layout key, the pixels over them unchanged) are not read again. Markers are searched for in
    the frame shrunk to ``scale`` of its size (a 4K camera's markers are large enough to be found
    in fewer pixels); boards are read from the frame as it is, each at its reader's resolution."""

    around: tuple[Place, ...] | None = None
    kept: tuple[Marker, ...] = ()
    readings: Mapping[str, Reading] = field(default_factory=dict)
    scale: float = 1.0
    # Readings from before for boards to be read again, standing in where some of a board's
    # markers are now hidden (a hand over a corner): a live loop counts it covered, so reading
    # it would be wasted.
    hidden: Mapping[str, Reading] = field(default_factory=dict)
    # At most this many boards are read (None: every one to be read), those named in ``first``
    # before the others, each in its order; every other board to be read is left waiting: it is
    # observed as not read yet, a problem, with nothing read of it (a live camera's loop reads
    # it on a following frame, and counts it covered until then).
    most_reads: int | None = None
    first: tuple[str, ...] = ()
    left: frozenset[str] = frozenset()  # boards left waiting, whatever ``most_reads``


@dataclass(frozen=True)
class Observation:
    """Everything one photo showed."""

    boards: tuple[BoardObservation, ...]
    markers: tuple[Marker, ...]
    unknown_ids: tuple[int, ...]  # markers of our family that no printed component carries
    stages_ms: Mapping[str, float]
    colour_source: str = "white balance only"  # or "profile", "reference card"
    # Boards in view whose markers were outlined but could not be decoded.
    unreadable: tuple[Unreadable, ...] = ()
    readings: tuple[Reading, ...] = ()  # each board read, as read
    waiting: tuple[str, ...] = ()  # boards left to be read (``Known.most_reads``), by layout key

    @property
    def total_ms(self) -> float:
        return sum(self.stages_ms.values())


class Scanner:
    """Reads every Atelier board in a photo."""

    def __init__(
        self,
        camera: CameraModel | None = None,
        colour: ColourCorrection | None = None,
        readers: Mapping[Kind, BoardReader] | None = None,
        cores: int | None = None,
    ) -> None:
        """``readers``: readers to use instead of the default ones for their kinds (the
        defaults of the other kinds are built as usual). ``cores``: how many boards to read
        side by side (default: as many as the cores this process may use when it scans)."""
        dictionary = predefined_dictionary(ATELIER_DICTIONARY)
        self.search = MarkerSearch(dictionary)
        self.outline_pass = MarkerDetector(dictionary)
        self.index = marker_index()
        self.camera = camera
        self.colour = colour
        self._undistort: dict[tuple[int, int], tuple[Any, Any]] = {}
        self._faces: dict[tuple[str, float], Image] = {}
        self._coloured_print: dict[tuple[str, float], NDArray[np.intp]] = {}
        given = readers or {}
        unknown = sorted(set(given) - set(READERS))
        if unknown:
            raise ValueError(f"no board kind {unknown[0]} to read")
        # A default reader is built only where none is given: building one may load a model
        # file, which retraining that very model must not depend on.
        self.readers: dict[Kind, BoardReader] = {
            kind: given[kind] if kind in given else entry.reader()
            for kind, entry in READERS.items()
        }
        self.cores = cores
        self._pool: ThreadPoolExecutor | None = None  # made when boards are first read side by side
        self._pool_size = 0
        self.rescue = Rescue(RESCUED_KINDS)
        self.sheet_rescue = Rescue(RESCUED_SHEETS)

    def prepare(self) -> None:
        """Draw every board's printed face now rather than on first sight (for a live camera or
        a benchmark, where the first frame's latency counts), and what each reader builds per
        board."""
        boards: dict[Kind, list[Printed]] = {kind: [] for kind in READERS}
        layouts = {owner.layout.key: owner.layout for owner in self.index.values()}
        for layout in layouts.values():
            entry = READERS.get(kind_of(layout))
            if entry is not None:
                boards[entry.key].append((layout, self._printed(layout, entry.ppm)))
        for kind, reader in self.readers.items():
            reader.prepare(boards[kind], READERS[kind].ppm)

    def _coloured(self, layout: Layout, ppm: float) -> NDArray[np.intp]:
        """Where the board's print is coloured, not paper white: a sample of flat pixel indices."""
        key = (layout.key, ppm)
        if key not in self._coloured_print:
            printed = self._printed(layout, ppm)
            flat = np.flatnonzero(printed.max(axis=2) < COLOURED_PRINT)
            self._coloured_print[key] = flat[::CLIPPED_SAMPLE]
        return self._coloured_print[key]

    def _printed(self, layout: Layout, ppm: float) -> Image:
        key = (layout.key, ppm)
        if key not in self._faces:
            self._faces[key] = draw_layout(layout, ppm)
        return self._faces[key]

    def _correct(self, image: Image) -> Image:
        if self.camera is None:
            return image
        size = (image.shape[1], image.shape[0])
        if size != self.camera.image_size:
            want = "x".join(map(str, self.camera.image_size))
            raise AtelierError(
                f"--calibration: the profile is for {want} photos, this one is "
                f"{size[0]}x{size[1]} (another camera or setting?)"
            )
        if size not in self._undistort:
            matrix, dist = self.camera.matrix(), self.camera.distortion()
            self._undistort[size] = cv2.initUndistortRectifyMap(
                matrix, dist, None, matrix, size, cv2.CV_16SC2
            )
        map1, map2 = self._undistort[size]
        return np.asarray(cv2.remap(image, map1, map2, cv2.INTER_LINEAR), np.uint8)

    def _detect(
        self,
        image: Image,
        game: str | None,
        around: Sequence[Place] | None = None,
        most: float = 1.0,
    ) -> tuple[list[Marker], list[NDArray[np.float64]]]:
        """The markers decoded or named, and the outlines left undecoded, in photo px; only
        around the places given, when they are; searched at ``most`` of the photo's size."""
        longest = max(image.shape[:2])
        scale = min(most, MAX_DETECT_SIDE / longest)
        if scale < 1.0:
            image = np.asarray(
                cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8
            )
        gray = to_gray(image)
        height, width = gray.shape[:2]

        def places(found: list[Marker], outlines: list[NDArray[np.float64]]) -> list[Place]:
            # Markers named by their cells place boards too: where they say more lie.
            named = self._named(gray, found, outlines, game)
            return places_to_search(found + named, self.index, width, height)

        if around is None:
            markers, outlines = self.search.detect_with_rejected(gray, places)
        else:
            start = [(quad * scale, margin) for quad, margin in around]
            markers, outlines = self.search.detect_with_rejected(gray, places, start)
        markers += self._named(gray, markers, outlines, game)
        if scale == 1.0:
            return markers, outlines
        return [
            Marker(m.id, m.dictionary, tuple((x / scale, y / scale) for x, y in m.corners))
            for m in markers
        ], [outline / scale for outline in outlines]

    def glance(self, image: Image, scale: float = 1.0) -> dict[int, NDArray[np.float64]]:
        """The markers a quick look at the whole photo (shrunk to ``scale``) finds, by id, each
        where it was roughly found (its quad, photo px): for a live camera's loop, checking now
        and then for markers it does not know, and where to search for them."""
        if scale < 1.0:
            image = np.asarray(
                cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8
            )
        found = self.search.glance(to_gray(image))
        return {marker: quad / scale for marker, quad in found.items()}

    def _named(
        self,
        gray: Image,
        markers: list[Marker],
        outlines: list[NDArray[np.float64]],
        game: str | None,
    ) -> list[Marker]:
        """Markers named by their cells among the undecoded ``outlines``, where the boards they
        may belong to call for it."""
        decoded = {m.id for m in markers}
        if self._may_hold_paintings(markers, game):
            return self.rescue.markers(gray, outlines, decoded)
        if self._sheet_seen_by_few(markers, game):
            return self.sheet_rescue.markers(gray, outlines, decoded)
        return []

    def _may_hold_paintings(self, markers: Sequence[Marker], game: str | None) -> bool:
        """Whether undecoded outlines are worth naming: only Paintings markers are rescued, and
        a table holds one game, so a frame whose markers all belong to another has none (the
        colour reference card may lie beside any game)."""
        if game is not None:
            return game == "paintings"
        games = {self.index[m.id].layout.game for m in markers if m.id in self.index}
        games.discard("calibration")
        return not games or "paintings" in games

    def _sheet_seen_by_few(self, markers: Sequence[Marker], game: str | None) -> bool:
        """Whether an Isle sheet may want markers the detector outlined but did not decode: one
        is seen by fewer than FEW_MARKERS, or none is seen where only Isle is looked for."""
        if game not in (None, "isle"):
            return False
        seen: dict[str, int] = {}
        for m in markers:
            owner = self.index.get(m.id)
            if owner is not None and (owner.layout.game, owner.layout.kind) in RESCUED_SHEETS:
                seen[owner.layout.key] = seen.get(owner.layout.key, 0) + 1
        if not seen:
            return game == "isle"
        return min(seen.values()) < FEW_MARKERS

    def scan(
        self, image: Image, game: str | None = None, known: Known | None = None
    ) -> Observation:
        """Every board in ``image`` (of ``game`` only, when given) read. With ``known``, what the
        frames before said: markers searched for only around its places, and boards whose
        readings still hold not read again (a live camera's frames, where most of the table
        stands still)."""
        stages: dict[str, float] = {}
        clock = time.perf_counter
        if image.ndim != 3 or min(image.shape[:2]) < MIN_SIDE:
            return Observation((), (), (), {})
        start = clock()
        image = self._correct(image)
        stages["undistort"] = (clock() - start) * 1000
        start = clock()
        if known is None:
            markers, outlines = self._detect(image, game)
        elif known.around == ():
            # Nothing to search for: the markers are those kept.
            markers, outlines = sorted(known.kept, key=lambda m: m.id), []
        else:
            markers, outlines = self._detect(image, game, known.around, known.scale)
            decoded = {m.id for m in markers}
            kept = (m for m in known.kept if m.id not in decoded)
            markers = sorted([*markers, *kept], key=lambda m: m.id)
        stages["markers"] = (clock() - start) * 1000
        start = clock()
        registration = register(markers, self.index)
        correction, colour_source = self._colour_for(image, registration.boards)
        boards = [
            # A board seen by few markers is placed better by the pieces on it.
            refine(b, registration.pieces, registration.boards) if len(b.marker_ids) <= 2 else b
            for b in registration.boards
            if kind_of(b.layout) in READERS and (game is None or b.layout.game == game)
        ]
        readings = self._readings(image, boards, registration, correction, known)
        boards = [r.board for r in readings]
        read = [r.observation for r in readings]
        waiting = tuple(r.board.layout.key for r in readings if r.observation.position is WAITING)
        mats = [o for o in read if o.game == "paintings" and o.kind == "player"]
        players = _merge_paintings(mats)
        if players:
            placed = {b.layout.key for b in boards}
            found = boards + [b for b in registration.boards if b.layout.key not in placed]
            players = _with_stray_icons(image, found, registration.pieces, players)
        observations = players + [o for o in read if o not in mats]
        observations.sort(key=lambda o: (o.game, o.player or 0, o.boards))
        stages["read"] = (clock() - start) * 1000
        start = clock()
        # Outlines on any component found (a colour card's patches, a tile's edge) are its print:
        # each board where it was read from.
        read_keys = {b.layout.key for b in boards}
        others = [b for b in registration.boards if b.layout.key not in read_keys]
        found = [*boards, *others, *registration.pieces]
        areas = [s.to_image(np.asarray(s.layout.outline.corners(), np.float64)) for s in found]
        height, width = image.shape[:2]
        unread = unreadable(outlines, markers, areas, width, height)
        # Searches of the whole frame, which one around known places has no business making.
        whole = known is None or known.around is None
        if whole and not markers and not unread:
            unread = unreadable(self._whole_frame_outlines(image), [], areas, width, height)
        if whole and not markers and not unread:
            # Smeared past any outline, markers still leave dark blots on their paper.
            squares = [blot.square() for blot in blots(image)]
            smeared = unreadable(squares, [], areas, width, height)
            unread = tuple(u for u in smeared if u.candidates >= MIN_BLOTS)
        stages["unreadable"] = (clock() - start) * 1000
        return Observation(
            tuple(observations),
            tuple(markers),
            registration.unknown_ids,
            stages,
            colour_source,
            unread,
            tuple(readings),
            waiting,
        )

    def _whole_frame_outlines(self, image: Image) -> list[NDArray[np.float64]]:
        """The undecoded outlines of one search of the whole frame, shrunk, in photo px."""
        height, width = image.shape[:2]
        size = (round(width * OUTLINE_PASS_SCALE), round(height * OUTLINE_PASS_SCALE))
        small = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
        _, outlines = self.outline_pass.detect_with_rejected(small)
        # A pixel of the small frame covers 1 / scale of the photo's: its centre lies half-way.
        fx, fy = width / size[0], height / size[1]
        return [(q + 0.5) * np.array([fx, fy]) - 0.5 for q in outlines]

    def _colour_for(
        self, image: Image, boards: Sequence[Sighting]
    ) -> tuple[ColourCorrection | None, str]:
        """A reference card in the frame recalibrates colour for this frame; else the profile's."""
        card = find_reference(boards)
        if card is not None:
            patches = read_patches(image, card)
            try:
                return fit_correction(patches.measured_rgb, patches.printed_rgb), "reference card"
            except CalibrationError:
                pass  # too little of the card in view: fall back to the profile
        if self.colour is not None:
            return self.colour, "profile"
        return None, "white balance only"

    def _readings(
        self,
        image: Image,
        boards: Sequence[Sighting],
        registration: Registration,
        correction: ColourCorrection | None,
        known: Known | None,
    ) -> list[Reading]:
        """Each board's reading: the one that still holds, or read now; the boards to read are
        read side by side on as many cores as this process may use (OpenCV and numpy let go of
        the interpreter while they work), one after another on one."""
        holding = [_still_holds(known, b) for b in boards]
        left = _left_waiting(
            known, [b for b, held in zip(boards, holding, strict=True) if held is None]
        )
        holding = [
            Reading(b, waiting(b.layout)) if id(b) in left else held
            for b, held in zip(boards, holding, strict=True)
        ]
        unread = [b for b, held in zip(boards, holding, strict=True) if held is None]
        cores = self.cores or len(os.sched_getaffinity(0))

        def read(board: Sighting) -> Reading:
            return self._reading(image, board, registration, correction)

        if cores > 1 and len(unread) > 1:
            fresh = iter(list(self._pool_of(cores).map(read, unread)))
        else:
            fresh = iter([read(board) for board in unread])
        return [held or next(fresh) for held in holding]

    def _pool_of(self, cores: int) -> ThreadPoolExecutor:
        if self._pool is None or self._pool_size != cores:
            if self._pool is not None:
                self._pool.shutdown(wait=False)
            self._pool = ThreadPoolExecutor(cores, "board reader")
            self._pool_size = cores
        return self._pool

    def _reading(
        self,
        image: Image,
        board: Sighting,
        registration: Registration,
        correction: ColourCorrection | None,
    ) -> Reading:
        # Placed as its reader places it (by its print, where its markers place it poorly).
        placed = self.readers[kind_of(board.layout)].place(image, board)
        return Reading(placed, self._read_board(image, placed, registration, correction))

    def _read_board(
        self,
        image: Image,
        board: Sighting,
        registration: Registration,
        correction: ColourCorrection | None,
    ) -> BoardObservation:
        pieces = registration.pieces
        entry, reader = READERS[kind_of(board.layout)], self.readers[kind_of(board.layout)]
        layout = board.layout
        problems: list[str] = []
        if board.error_px > MAX_FIT_ERROR_PX:
            problems.append(
                f"board {layout.key}: its markers disagree by {board.error_px:.1f} px "
                "(bent, or a marker misread)"
            )
        ppm = entry.ppm
        face = rectify(image, board, ppm)
        printed = self._printed(layout, ppm)
        clipped = _clipped_share(face.image, self._coloured(layout, ppm))
        # Colour noise beyond the renders' own is taken out before any colour is judged.
        face = quietened(face)
        overexposed = clipped > MAX_CLIPPED and entry.refused_when_overexposed
        if overexposed:
            # Blown-out light leaves pale colours at the sensor's limit, like white: nothing
            # read by colour there can be trusted.
            problems.append(
                f"board {layout.key}: overexposed ({clipped:.0%} of its coloured print at the "
                "sensor's limit); colours cannot be read"
            )
        on_board = [piece_on_board(p, board) for p in pieces]
        balance = white_of(face, layout, correction, board.marker_ids)
        ctx = BoardContext(image, board, face, balance, on_board, printed)
        position = reader.read(ctx)
        if overexposed:
            ctx.reads = [
                replace(r, confidence=0.0, problem=r.problem or f"{r.component}: overexposed")
                for r in ctx.reads
            ]
        problems += [r.problem for r in ctx.reads if r.problem]
        problems += [
            f"{r.component}: low confidence ({r.confidence:.2f})"
            for r in ctx.reads
            # Written so that a NaN confidence counts as low, never as sure.
            if not r.problem and not r.confidence >= MIN_CONFIDENCE
        ]
        seen = REGISTRATION_CONFIDENCE.get(len(board.marker_ids), 0.0)
        confidence = seen * min([r.confidence for r in ctx.reads] or [1.0])
        shared = entry.shared
        return BoardObservation(
            layout.game,
            None if shared else layout.seat,
            (layout.key,),
            position,
            confidence,
            tuple(problems),
            tuple(ctx.reads),
            "shared" if shared else "player",
        )


# A board left waiting to be read (``Known.most_reads``) is observed with this position: nothing.
WAITING: dict[str, Any] = {}


def waiting(layout: Layout) -> BoardObservation:
    """A board left to be read on a following frame: its problem says so, nothing read of it."""
    shared = READERS[kind_of(layout)].shared
    return BoardObservation(
        layout.game,
        None if shared else layout.seat,
        (layout.key,),
        WAITING,
        0.0,
        (f"board {layout.key}: not read yet",),
        (),
        "shared" if shared else "player",
    )


def _left_waiting(known: Known | None, unread: Sequence[Sighting]) -> set[int]:
    """Of the boards to be read, those left waiting (by ``id``): the ones ``known`` names, and
    those past its most reads (the ones it puts first read first)."""
    if known is None:
        return set()
    left = {id(b) for b in unread if b.layout.key in known.left}
    if known.most_reads is not None:
        order = {key: at for at, key in enumerate(known.first)}
        rest = [b for b in unread if id(b) not in left]
        ranked = sorted(rest, key=lambda b: order.get(b.layout.key, len(order)))
        left.update(id(b) for b in ranked[known.most_reads :])
    return left


def _still_holds(known: Known | None, board: Sighting) -> Reading | None:
    """The board's reading from ``known`` where it still holds: the board seen by the same
    markers as when it was read (the pixels over it unchanged, they lie as they did); or, for a
    board some of whose markers are hidden, its reading from before standing in for one, as a
    live camera's loop counts such a board covered whatever it reads."""
    if known is None:
        return None
    reading = known.readings.get(board.layout.key)
    if reading is not None and reading.board.marker_ids == board.marker_ids:
        return reading
    before = known.hidden.get(board.layout.key)
    if before is not None and len(board.marker_ids) < len(board.layout.markers):
        return Reading(board, before.observation)
    return None


def _clipped_share(face: Image, coloured: NDArray[np.intp]) -> float:
    """The share of the board's coloured (not white) print that the photo shows at the sensor's
    limit. White paper may well be near it; a coloured area only when light has blown it out."""
    if len(coloured) == 0:
        return 0.0
    # np.take: several times faster than indexing with the array.
    brightest = channel_max(np.take(face.reshape(-1, 3), coloured, axis=0))
    return np.count_nonzero(brightest >= CLIPPED_LEVEL) / len(coloured)


def _with_stray_icons(
    image: Image,
    boards: Sequence[Sighting],
    pieces: Sequence[Sighting],
    players: list[BoardObservation],
) -> list[BoardObservation]:
    """Every player's paintings, with a problem when art card icons lie on none of the
    ``boards`` found: a painting there, of any player, may be missing from what was read."""
    mats = [b for b in boards if (b.layout.game, b.layout.kind) == ("paintings", "mat")]
    icons = stray_icons(image, boards, pieces, mats)
    if not icons:
        return players
    x, y = icons[0]
    problem = (
        f"table: {plural(len(icons), 'art card icon')} {'lies' if len(icons) == 1 else 'lie'} "
        f"on no board found (near {x}, {y} px): "
        "a painting there may be missing"
    )
    return [replace(p, problems=(*p.problems, problem)) for p in players]


def _merge_paintings(read: Sequence[BoardObservation]) -> list[BoardObservation]:
    """A player's mats, one per painting, become one Paintings observation."""
    seats: dict[int | None, list[BoardObservation]] = {}
    for obs in read:
        seats.setdefault(obs.player, []).append(obs)
    merged = []
    for seat, every in seats.items():
        # A mat waiting to be read (nothing read of it) makes its player's paintings not read
        # yet: it stays among the player's boards, its problem with them.
        waiting = sorted((m for m in every if m.position is WAITING), key=lambda m: m.boards)
        mats = sorted(
            (m for m in every if m.position is not WAITING),
            key=lambda m: int(m.position["painting"]),
        )
        numbers = {int(m.position["painting"]) for m in mats}
        # Paintings are made in order: a later painting's mat in view means every earlier one
        # is on the table too, its mat not found.
        unseen = tuple(
            f"painting {n}: its mat is not in view"
            for n in range(1, max(numbers, default=0))
            if n not in numbers
        )
        merged.append(
            BoardObservation(
                "paintings",
                seat,
                tuple(k for m in (*mats, *waiting) for k in m.boards),
                {"game": "paintings", "paintings": [m.position["cards"] for m in mats]},
                min(m.confidence for m in every),
                unseen + tuple(p for m in (*mats, *waiting) for p in m.problems),
                tuple(r for m in mats for r in m.components),
            )
        )
    return merged
