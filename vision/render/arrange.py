"""Laying a table plan out on the table: boards as people lay them (roughly in a grid, never
quite square), pieces in their places a little off-centre and askew, chips in their slots."""

from __future__ import annotations

import math

import numpy as np

from vision.layout.geometry import Circle, bounds
from vision.render.envelope import Envelope
from vision.render.plan import BoardPlan, TablePlan
from vision.render.scene import Placed, PlacedChip, Pose, Scene

CHIP_RADIUS = 8.0  # 16 mm chips
GROUP_GAP = 40.0  # between players' boards, before jitter
STACK_GAP = 10.0  # between one player's boards (a painter's mats), before jitter


def _turned(rng: np.random.Generator, size: tuple[float, float], limit_deg: float) -> Pose:
    """A pose that turns a component of ``size`` about its centre by up to ``limit_deg``."""
    angle = float(rng.uniform(-limit_deg, limit_deg))
    w, h = size
    centre = Pose(0.0, 0.0, angle).apply([(w / 2, h / 2)])[0]
    return Pose(w / 2 - float(centre[0]), h / 2 - float(centre[1]), angle)


def _leeway(plan: TablePlan, env: Envelope) -> float:
    """How far a board's edge may stray from its tidy place, so that gaps this much wider than
    planned keep jittered and turned boards from ever overlapping."""
    half_diagonal = max(math.hypot(*b.layout.size) / 2 for b in plan.boards)
    return 2 * (env.board_jitter_mm + half_diagonal * math.sin(math.radians(env.board_turn_deg)))


def _group_sizes(plan: TablePlan, stack_gap: float) -> list[tuple[float, float]]:
    return [
        (
            max(b.layout.size[0] for b in group),
            sum(b.layout.size[1] for b in group) + stack_gap * (len(group) - 1),
        )
        for group in plan.groups
    ]


def _pieces(board: BoardPlan, pose: Pose, env: Envelope, rng: np.random.Generator) -> list[Placed]:
    placed = []
    for piece in board.pieces:
        region = bounds(board.layout.region(piece.place).shape)
        w, h = piece.layout.size
        cx, cy = region.centre
        jitter = rng.uniform(-env.piece_jitter_mm, env.piece_jitter_mm, 2)
        angle = 90.0 * piece.quarter_turns + float(rng.uniform(-1, 1)) * env.piece_turn_deg
        centre = Pose(cx + float(jitter[0]), cy + float(jitter[1]), angle)
        local = centre.then(Pose(-w / 2, -h / 2))
        placed.append(
            Placed(
                piece.layout,
                pose.then(local),
                board.position,
                board=board.layout.key,
                place=piece.place,
                quarter_turns=piece.quarter_turns,
            )
        )
    return placed


def _chips(board: BoardPlan, pose: Pose, rng: np.random.Generator) -> list[PlacedChip]:
    chips = []
    for chip in board.chips:
        slot = board.layout.region(chip.slot).shape
        assert isinstance(slot, Circle)
        # A chip rests anywhere inside its printed ring.
        room = max(0.0, slot.r - CHIP_RADIUS)
        angle, reach = rng.uniform(0, 2 * math.pi), room * math.sqrt(rng.uniform(0, 1))
        local = (slot.cx + reach * math.cos(angle), slot.cy + reach * math.sin(angle))
        ((x, y),) = pose.apply([local])
        chips.append(
            PlacedChip(chip.chip, (float(x), float(y)), CHIP_RADIUS, board.layout.key, chip.slot)
        )
    return chips


def arrange(plan: TablePlan, env: Envelope, rng: np.random.Generator) -> Scene:
    """Groups (one per position) in rows of a near-square grid, read left to right."""
    leeway = _leeway(plan, env)
    group_gap, stack_gap = GROUP_GAP + leeway, STACK_GAP + leeway
    sizes = _group_sizes(plan, stack_gap)
    columns = math.ceil(math.sqrt(len(sizes)))
    rows = [sizes[i : i + columns] for i in range(0, len(sizes), columns)]
    col_w = [max(r[c][0] for r in rows if c < len(r)) for c in range(columns)]
    row_h = [max(h for _, h in r) for r in rows]
    boards: list[Placed] = []
    pieces: list[Placed] = []
    chips: list[PlacedChip] = []
    for index, group in enumerate(plan.groups):
        row, col = divmod(index, columns)
        x = sum(col_w[:col]) + group_gap * col + (col_w[col] - sizes[index][0]) / 2
        y = sum(row_h[:row]) + group_gap * row
        for board in group:
            jitter = rng.uniform(-env.board_jitter_mm, env.board_jitter_mm, 2)
            turn = _turned(rng, board.layout.size, env.board_turn_deg)
            pose = Pose(x + float(jitter[0]), y + float(jitter[1])).then(turn)
            boards.append(Placed(board.layout, pose, board.position, fills=board.fills))
            pieces += _pieces(board, pose, env, rng)
            chips += _chips(board, pose, rng)
            y += board.layout.size[1] + stack_gap
    return Scene(tuple(boards), tuple(pieces), tuple(chips))
