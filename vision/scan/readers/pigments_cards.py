"""Pigment Lab reader: the shade card under each pan, known by its marker, or else by its face,
and a place without one by its print showing bare."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.colour import CLIPPED
from companion.observation import ComponentRead as Read
from vision.draw import draw_layout
from vision.layout.catalogue import layouts
from vision.layout.geometry import Rect
from vision.layout.inks import INKS
from vision.layout.model import Layout
from vision.scan.colours import lab_8bit, rgb_to_lab
from vision.scan.context import BoardContext
from vision.scan.readers.common import CERTAIN, single_piece
from vision.scan.readers.pigments_pixels import (
    Floats,
    Shift,
    best_match,
    crop,
    crops,
    edge_magnitude,
    grey_levels,
    match_scores,
    region_rect,
    scaled,
    share,
    smooth,
    smooth_colour,
)

# An empty shade card place shows its printed outline and label (edges correlated with the
# print's, both smoothed so that blur does not hide thin lines) and bare board: paper's hue, and
# not much darker than its surroundings (a shadow darkens both alike, a card's marker does not).
PLACE_MARGIN_MM = 3.0
RELATIVE_SMOOTH_MM = 3.0
MARKS_SMOOTH_MM = 0.8
MARKS_REACH_MM = 1.5
# On 3,500 hard renders (seeds 5000-5499, 8000-9999): bare places in plain view correlate 0.265
# and up, and at least 94.7 % of their middle is bare; cards whose middle looks as bare (pale
# faces) correlate at most 0.22. One white card half under a hand correlated 0.28, its middle
# 90 % bare: the bare share's threshold lies between it and the bare places.
MARKS_VISIBLE = 0.25
BARE_INSET = 0.1  # of the place's width: the middle of the place, away from its outline
# White balance leaves bare paper in a warm or tinted light up to 11.7 from the paper's hue (a*b*,
# the 95th percentile of a place's middle, over 5,267 empty places in plain view on 4,000 hard
# renders, seeds 8000-11999); cards whose printed marks show (under a hand or a cup) were at
# most 62 % bare within 14 (one was 92 % bare within 18).
BARE_AB = 14.0
BARE_RELATIVE = 0.85
BARE_SHARE = 0.93
# A place whose middle the sensor clipped beyond this share in every channel shows nothing of what
# lies there but its printed marks: a pale card blown out looks like paper blown out. Its outline
# is weak evidence (a clipped sky card under a white cup matched it 0.48, validation seed 60009 at
# +1 EV); there only the label can say the place is bare (LABEL_SHOWN).
CLIPPED_MIDDLE = 0.5
# A place more than this share of which the sensor clipped in every channel is not seen.
BLOWN_OUT = 0.5
# The place's label, printed in ink so that it stays below the sensor's limit where the paper
# clips (even under a glare that clips a mid grey), is looked for across the place's middle: a
# band this tall, clear of the outline, compared pixel by pixel (both smoothed a little, against
# blur) with the print, within MARKS_REACH_MM. On 200 train boards (seeds 20000-20199, hard, as
# rendered and at +1 EV), the 777 views of a place holding a card (a hand or cup over some)
# matched the label at most 0.56, and 94 % of the empty places clipped at +1 EV matched from
# LABEL_SHOWN up (the rest: a glare over the label itself, or a blank white band).
LABEL_BAND_MM = 9.0
LABEL_INSET_MM = 2.5
LABEL_SMOOTH_MM = 0.4
LABEL_SHOWN = 0.65

# A shade card whose marker cannot be read (too small or blurred) is known by its face: the
# card's pose is found with the average shade card face, then every card not seen elsewhere in
# the photo, and the bare place, is compared with what lies there. Accepted only for a clear
# winner: the face must match (plain correlation), and so must what sets it apart from the
# average card (its marker's pattern, its swatch and name).
CARD_REACH_MM = 5.0
CARD_TURN_DEG = 12.0
CARD_TURN_STEP_DEG = 2.0
CARD_SMOOTH_MM = 1.0
CARD_POSES_REFINED = 4  # the poses best at a quarter of the resolution, tried at full
CARD_EDGE_PX = 2  # a card's own rim, left out: there its face meets whatever it lies on
# A card and the paper around it are mostly neutral (a*b* within NEUTRAL_AB): a place less
# neutral than NEUTRAL_SHARE (a hand or a cup over it) shows no card to know.
NEUTRAL_AB = 12.0
NEUTRAL_SHARE = 0.5
CARD_FOUND = 0.5  # the average card face must match at least this well: a card lies there
FACE_MATCH = (0.6, 0.04)  # plain correlation: best at least, margin over the next at least
MARKS_MATCH = (0.35, 0.15)  # correlation of what sets the card apart: best, margin


@dataclass(frozen=True)
class PlacePrint:
    """A card place's print at one resolution: the edges of its outline and label
    (``mark_edges``), and its label as printed, smoothed as the photo is before they meet."""

    marks: NDArray[np.float32]
    label: NDArray[np.float32]


@dataclass(frozen=True)
class CardTemplate:
    """The average shade card face turned by ``angle`` (grey levels, on paper where its box has
    no card), at full and at a quarter of the resolution."""

    angle: float
    fine: NDArray[np.float32]
    coarse: NDArray[np.float32]


@dataclass(frozen=True)
class CardFaces:
    """Every shade card's face drawn at one resolution and smoothed: each card's pixels (inside
    its rim) normalised per channel for correlation, likewise what sets it apart from the
    average card, the average itself, and the average turned every way a card may lie."""

    names: tuple[str, ...]
    size: tuple[int, int]  # rows, cols
    plain: NDArray[np.float32]  # cards x (pixels x 3), see _normalised
    apart: NDArray[np.float32]  # likewise
    mean: NDArray[np.float32]  # 3 x pixels
    poses: tuple[CardTemplate, ...]


class ShadeCards:
    """Reads the shade card places: the cards' layouts, the paper's colour, and the cards'
    faces drawn at each resolution (once)."""

    def __init__(self) -> None:
        self.paper = rgb_to_lab(INKS["paper"])
        self.cards = tuple(c for c in layouts("pigments") if c.kind == "shade")
        self._faces: dict[float, CardFaces] = {}

    def shade(
        self, ctx: BoardContext, print_: PlacePrint, name: str, shift: Shift | None
    ) -> str | None:
        place = ctx.board.layout.region(f"shade {name}")
        rect = region_rect(ctx.board.layout, place.name)
        if shift is None and len(ctx.board.marker_ids) < 2:
            # Placed by one marker and not lined up: even a card's own marker cannot say which
            # place it lies in.
            why = f"{place.name}: the board cannot be lined up with its print"
            ctx.record(Read(place.name, None, 0.0, why))
            return None
        dx, dy = shift or (0.0, 0.0)
        moved = Rect(rect.x + dx, rect.y + dy, rect.w, rect.h)
        piece, problem = single_piece(ctx.pieces_in(moved, ("shade",)), place.name)
        if problem:
            ctx.record(Read(place.name, None, 0.0, problem))
            return None
        if piece is not None:
            shade = str(piece.layout.content["shade"])
            ctx.record(Read(place.name, shade, CERTAIN))
            return shade
        if shift is not None and self._empty_place(ctx, print_, rect, shift):
            ctx.record(Read(place.name, None, CERTAIN))
            return None
        known = None if shift is None else self._identify(ctx, rect, shift)
        if known is not None:
            ctx.record(Read(place.name, known[0], known[1]))
            return known[0]
        problem = f"{place.name}: covered, or a card whose marker cannot be read"
        if _blown_out(ctx, moved):
            problem = f"{place.name}: blown out by the light (at the sensor's limit)"
        ctx.record(Read(place.name, None, 0.0, problem))
        return None

    def _empty_place(self, ctx: BoardContext, print_: PlacePrint, rect: Rect, shift: Shift) -> bool:
        """A card place is empty when its label, printed across its middle, shows: a card, a cup
        or a hand over the place hides it (``label_shows``). Else, where the label is hidden in
        part, when its printed outline shows (its edges, sought a little around where the pan
        above puts it) and it is bare board. Both are judged on the photo divided by its own
        smoothed brightness, so that a shadow across the place changes neither: the print's
        thin lines stay, and paper in shadow is still paper, while a card's dark marker or
        coloured swatch is not."""
        if label_shows(ctx, print_.label, rect, shift) >= LABEL_SHOWN:
            return True
        ppm = ctx.face.ppm
        box = rect.inset(-PLACE_MARGIN_MM - MARKS_REACH_MM)
        seen = crop(ctx.face.image, Rect(box.x + shift[0], box.y + shift[1], box.w, box.h), ppm)
        inner = round((MARKS_REACH_MM + PLACE_MARGIN_MM + BARE_INSET * rect.w) * ppm)
        if min(seen.shape[:2]) <= 2 * inner:
            return False
        # Every other pixel each way is plenty to tell what share of the place is bare. A pixel
        # the sensor clipped in every channel is no evidence: a pale card's face blown out looks
        # like paper blown out. With most of the middle clipped, only the label could have said
        # the place is bare.
        middle = (slice(inner, -inner, 2), slice(inner, -inner, 2))
        pixels = seen[middle].reshape(-1, 3)
        unclipped = ~np.all(pixels >= CLIPPED, axis=1)
        if share(unclipped) < CLIPPED_MIDDLE:
            return False
        relative = relative_brightness(grey_levels(seen), ppm)
        edges = mark_edges(relative, ppm)
        printed = print_.marks
        if edges.shape[0] < printed.shape[0] or edges.shape[1] < printed.shape[1]:
            return False
        if float(match_scores(edges, printed).max()) < MARKS_VISIBLE:
            return False
        lab = lab_8bit(ctx.balance.apply(pixels[unclipped], rect.centre))
        paper_hue = np.hypot(lab[:, 1] - self.paper[1], lab[:, 2] - self.paper[2]) <= BARE_AB
        lit = relative[middle].reshape(-1)[unclipped] >= BARE_RELATIVE
        bare = share(paper_hue & lit)
        return bare >= BARE_SHARE

    def _identify(self, ctx: BoardContext, rect: Rect, shift: Shift) -> tuple[str, float] | None:
        """The shade card lying on the place, known by its face, with a confidence; None when
        no card is clearly the one."""
        ppm = ctx.face.ppm
        faces = self.card_faces(ppm)
        elsewhere = {p.layout.content["shade"] for p in ctx.pieces if p.layout.kind == "shade"}
        chosen = [k for k, name in enumerate(faces.names) if name not in elsewhere]
        seen, printed = crops(ctx, rect.inset(-CARD_REACH_MM), shift)
        rows, cols = faces.size
        if not chosen or seen.shape[0] <= rows or seen.shape[1] <= cols:
            return None
        lab = lab_8bit(ctx.balance.apply(seen[::4, ::4].reshape(-1, 3), rect.centre))
        if float(np.mean(np.hypot(lab[:, 1], lab[:, 2]) <= NEUTRAL_AB)) < NEUTRAL_SHARE:
            return None
        view = smooth_colour(seen, CARD_SMOOTH_MM * ppm)
        found, angle, corner = _card_pose(view, faces)
        if found < CARD_FOUND:
            return None
        # Everything is compared in the card's own frame: the photo turned back, once.
        centre = ((cols - 1) / 2, (rows - 1) / 2)
        back = np.asarray(cv2.getRotationMatrix2D(centre, angle, 1.0), np.float64)
        back[:, 2] += corner
        patch = _inner(_in_frame(view, back, (cols, rows)))
        bare = _inner(_in_frame(smooth_colour(printed, CARD_SMOOTH_MM * ppm), back, (cols, rows)))
        # The bare place is one more option: a card must beat it too.
        plain = np.append(_correlations(faces.plain, patch)[chosen], _correlation3(bare, patch))
        rest = patch - _fitted(faces.mean, patch)
        apart = np.append(
            _correlations(faces.apart, rest)[chosen], _correlation3(bare - faces.mean, rest)
        )
        best = _clear_winner(plain, *FACE_MATCH)
        if best is None or best != _clear_winner(apart, *MARKS_MATCH) or best == len(chosen):
            return None
        ranked = np.sort(apart)[::-1]
        return faces.names[chosen[best]], min(CERTAIN, 0.5 + float(ranked[0] - ranked[1]))

    def card_faces(self, ppm: float) -> CardFaces:
        if ppm not in self._faces:
            self._faces[ppm] = _draw_card_faces(self.cards, ppm)
        return self._faces[ppm]


def _blown_out(ctx: BoardContext, rect: Rect) -> bool:
    """Whether most of ``rect`` shows at the sensor's limit in every channel: its printed marks
    are lost in the paper's white there, and bare paper, a white card's back and a white cup
    all look alike."""
    seen = ctx.face.pixels(rect)
    return len(seen) > 0 and share(np.all(seen >= CLIPPED, axis=1)) > BLOWN_OUT


def place_print(printed: NDArray[np.uint8], rect: Rect, ppm: float) -> PlacePrint:
    """What the card place ``rect`` looks like on the board's print (``printed``, at ``ppm``)."""
    box = crop(printed, rect.inset(-PLACE_MARGIN_MM), ppm)
    marks = mark_edges(relative_brightness(grey_levels(box), ppm), ppm)
    label = smooth(grey_levels(crop(printed, label_band(rect), ppm)), LABEL_SMOOTH_MM * ppm)
    return PlacePrint(marks, label)


def label_band(rect: Rect) -> Rect:
    """The band across a card place's middle that holds its label and nothing else printed."""
    cy = rect.y + rect.h / 2
    return Rect(
        rect.x + LABEL_INSET_MM, cy - LABEL_BAND_MM / 2, rect.w - 2 * LABEL_INSET_MM, LABEL_BAND_MM
    )


def label_shows(
    ctx: BoardContext, template: NDArray[np.float32], rect: Rect, shift: Shift
) -> float:
    """How well the photo over card place ``rect`` (its pan moved by ``shift``) matches its
    printed label, the best correlation within a little reach: near 1 for the label in plain
    view; lower for a card, a cup or a hand over it (a card's edges and print matched up to
    0.56), and 0 for a place blown out blank."""
    ppm = ctx.face.ppm
    band = label_band(rect).inset(-MARKS_REACH_MM)
    seen = crop(ctx.face.image, Rect(band.x + shift[0], band.y + shift[1], band.w, band.h), ppm)
    if seen.shape[0] <= template.shape[0] or seen.shape[1] <= template.shape[1]:
        return 0.0
    view = smooth(relative_brightness(grey_levels(seen), ppm), LABEL_SMOOTH_MM * ppm)
    return float(match_scores(view, template).max())


def mark_edges(relative: NDArray[np.float32], ppm: float) -> NDArray[np.float32]:
    """The edges of a card place's printed marks, smoothed so that blur does not hide thin
    lines, from its relative brightness; the place's outline and a little around it. Kept at
    half resolution: the smoothing leaves nothing finer, and matching costs a quarter."""
    trim = round(PLACE_MARGIN_MM * ppm) // 2
    return scaled(
        edge_magnitude(smooth(relative, MARKS_SMOOTH_MM * ppm))[trim:-trim, trim:-trim], 2
    )


def relative_brightness(gray: NDArray[np.float32], ppm: float) -> NDArray[np.float32]:
    """Brightness against the smoothed brightness around: a shadow's slow change cancels. So
    wide a smoothing loses nothing done at a quarter of the resolution, and costs far less."""
    small = smooth(scaled(gray, 4), RELATIVE_SMOOTH_MM * ppm / 4)
    around = cv2.resize(small, (gray.shape[1], gray.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.asarray(gray / np.maximum(around, 1.0), np.float32)


def _draw_card_faces(cards: tuple[Layout, ...], ppm: float) -> CardFaces:
    drawn = [smooth_colour(draw_layout(card, ppm), CARD_SMOOTH_MM * ppm) for card in cards]
    rows, cols = drawn[0].shape[:2]
    inner = np.stack([_inner(face) for face in drawn])
    mean = inner.mean(axis=0)
    average = np.mean(np.stack(drawn), axis=0).astype(np.float32)
    r, g, b = INKS["paper"]
    steps = np.arange(-CARD_TURN_DEG, CARD_TURN_DEG + 1e-6, CARD_TURN_STEP_DEG)
    poses = []
    for angle in (*steps, *(steps + 180.0)):
        # A turned card lies on paper: that is what shows where its box has no card.
        turned = grey_levels(_turned(average, float(angle), (b, g, r)))
        poses.append(CardTemplate(float(angle), turned, scaled(turned, 4)))
    return CardFaces(
        tuple(str(card.content["shade"]) for card in cards),
        (rows, cols),
        _normalised(inner),
        _normalised(inner - mean[None]),
        mean.astype(np.float32),
        tuple(poses),
    )


def _card_pose(view: NDArray[np.float32], faces: CardFaces) -> tuple[float, float, tuple[int, int]]:
    """Where and how turned (degrees, the right way up or upside down) a card lies in ``view``:
    the correlation of the average card face there, its angle and its top-left pixel. Every
    angle is tried at a quarter of the resolution; the best few are then placed to the pixel
    at full resolution, where the best of them is chosen."""
    gray = grey_levels(view)
    coarse = scaled(gray, 4)
    scored = sorted(
        ((best_match(coarse, pose.coarse), pose) for pose in faces.poses),
        key=lambda item: -item[0][0],
    )
    best: tuple[float, float, tuple[int, int]] = (-1.0, 0.0, (0, 0))
    for (_, (x, y)), pose in scored[:CARD_POSES_REFINED]:
        rows, cols = pose.fine.shape
        x0, y0 = max(0, 4 * x - 4), max(0, 4 * y - 4)
        score, (wx, wy) = best_match(gray[y0 : y0 + rows + 8, x0 : x0 + cols + 8], pose.fine)
        if score > best[0]:
            best = (score, pose.angle, (x0 + wx, y0 + wy))
    return best


def _correlations(normalised: NDArray[np.float32], patch: NDArray[np.float32]) -> Floats:
    """Each card's correlation with ``patch`` (3 x pixels), channel by channel, averaged."""
    # einsum rather than a BLAS product: no thread pool to wake for so small a sum.
    return np.asarray(np.einsum("kp,p->k", normalised, _normalised(patch[None])[0]) / 3.0)


def _correlation3(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    return float(_correlations(_normalised(a[None]), b)[0])


def _normalised(samples: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each sample (samples x 3 x pixels) less its mean, over its length, per channel, laid out
    flat: the dot product of two is the sum of their three channels' correlations."""
    centred = samples - samples.mean(axis=2, keepdims=True)
    length = np.sqrt(np.einsum("scp,scp->sc", centred, centred))[:, :, None]
    flat = (centred / np.maximum(length, 1e-6)).reshape(len(samples), -1)
    return np.ascontiguousarray(flat, np.float32)


def _fitted(model: NDArray[np.float32], seen: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per channel, ``model`` (3 x pixels) with the gain and offset that best fit ``seen``."""
    model_mean, seen_mean = model.mean(axis=1, keepdims=True), seen.mean(axis=1, keepdims=True)
    centred = model - model_mean
    covariance = np.einsum("cp,cp->c", centred, seen - seen_mean)
    gain = covariance / np.maximum(np.einsum("cp,cp->c", centred, centred), 1e-6)
    return np.asarray(centred * gain[:, None] + seen_mean, np.float32)


def _clear_winner(scores: NDArray[np.float64], least: float, margin: float) -> int | None:
    order = np.argsort(scores)[::-1]
    best, second = float(scores[order[0]]), float(scores[order[1]])
    return int(order[0]) if best >= least and best - second >= margin else None


def _inner(face: NDArray[np.float32]) -> NDArray[np.float32]:
    """A card face's pixels inside its rim, as 3 x pixels (one row per channel)."""
    edge = CARD_EDGE_PX
    return np.ascontiguousarray(face[edge:-edge, edge:-edge].reshape(-1, 3).T, np.float32)


def _in_frame(
    image: NDArray[np.float32], back: Floats, size: tuple[int, int]
) -> NDArray[np.float32]:
    """What ``back`` maps each pixel of a frame of ``size`` to in ``image``, as that frame."""
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return np.asarray(cv2.warpAffine(image, back, size, flags=flags), np.float32)


def _turned(
    image: NDArray[np.float32], degrees: float, fill: tuple[int, int, int]
) -> NDArray[np.float32]:
    """``image`` turned about its centre (counter-clockwise), same size, ``fill`` outside."""
    rows, cols = image.shape[:2]
    matrix = cv2.getRotationMatrix2D(((cols - 1) / 2, (rows - 1) / 2), degrees, 1.0)
    turned = cv2.warpAffine(image, matrix, (cols, rows), flags=cv2.INTER_LINEAR, borderValue=fill)
    return np.asarray(turned, np.float32)
