"""A board seen by one or two of its markers, its homography refitted with the pieces on it and
the other boards on the table.

One or two markers at one end of a board fix the board's position and turn well, but hardly its
perspective: a small square barely shows how the plane recedes, so places at the far end can be
misplaced by more than the gap between places. Every piece lying on the board carries a marker of
known size on the same plane, and a square seen further away looks smaller: fitting the board's
homography so that each piece marker is an exact square of its printed size, at a position and
turn of its own on the board, pins the perspective down. Blur pulls every detected corner a
little towards its marker's centre, which alone would read as markers lying further away; the
fit allows for that pull, the same for every marker in the photo.

Another board on the same table, fixed by three or four markers of its own, shows the table's
perspective far better than any piece: it is fitted in the same way, as one rigid body at a
position and turn of its own, its markers where its own homography puts them (a fit over markers
far apart, which spreads blur's pull over the whole board rather than over each marker).

The fit also says how well it knows the board: the covariance of its homography, from which
``uncertainty_mm`` tells how far any point of the board may be off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from vision.scan.homography import by_entry, by_point, entries, matrix
from vision.scan.registration import Sighting

ITERATIONS = 20
NEAR_BOARD = 0.05  # pieces this far outside the board (a share of its size) may still lie on it
SHRINK_PX, SHRINK_SD = 0.8, 0.5  # blur shrinks detected markers by about this (px, per corner)
OUTLIER_PX = 3.0  # a piece marker fitting worse than this does not lie flat (a piece held up)
CORNER_PX = 1.0  # how far a detected marker corner may be off, for the fit's uncertainty
NEIGHBOUR_MARKERS = 3  # another board seen by this many of its markers fixes the table's plane

Array = NDArray[np.float64]


@dataclass(frozen=True)
class _Problem:
    """The board's marker corners (mm, px), and the marker corners of every body lying on the
    same table (a piece, or another board), each in the body's own mm and in px."""

    board_mm: Array  # B x 2
    board_px: Array  # B x 2
    body_mm: Array  # M x 2, every four points one marker's corners
    body_px: Array  # M x 2
    body: NDArray[np.intp]  # M: the body each point belongs to
    bodies: int
    pulled: Array  # B + M: 1 where a point is a detected corner, which blur pulls inwards

    def residuals(self, params: Array) -> tuple[Array, Array]:
        """Image residuals (px) of every corner, and their Jacobian with respect to the
        parameters: the homography's eight (h33 = 1), then each body's turn and offset."""
        h = params[:8]
        shrink = params[-1]
        theta = params[8::3][: self.bodies][self.body]
        offset = np.stack([params[9::3][: self.bodies], params[10::3][: self.bodies]], 1)
        c, s = np.cos(theta), np.sin(theta)
        turn = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)  # M x 2 x 2
        turn_d = np.stack([np.stack([-s, -c], -1), np.stack([c, -s], -1)], -2)
        on_board = np.einsum("mij,mj->mi", turn, self.body_mm) + offset[self.body]
        points = np.concatenate([self.board_mm, on_board])
        targets = np.concatenate([self.board_px, self.body_px])
        seen, du, dv = by_entry(h, points)
        # Blur pulls every detected corner a little towards its marker's centre.
        centres = seen.reshape(-1, 4, 2).mean(axis=1, keepdims=True)
        inward = (centres - seen.reshape(-1, 4, 2)).reshape(-1, 2)
        inward *= self.pulled[:, None] / np.maximum(
            np.linalg.norm(inward, axis=1, keepdims=True), 1e-9
        )
        residual = seen + shrink * inward - targets
        n = len(points)
        jac = np.zeros((n, 2, len(params)))
        jac[:, 0, :8], jac[:, 1, :8] = du, dv
        # How each image point moves with the board point it comes from, for the bodies' own
        # parameters.
        d_point = by_point(h, points)[len(self.board_mm) :]  # M x 2 x 2
        d_theta = np.einsum("mij,mj->mi", turn_d, self.body_mm)
        rows = len(self.board_mm) + np.arange(len(self.body))
        cols = 8 + 3 * self.body
        jac[rows, :, cols] = np.einsum("mij,mj->mi", d_point, d_theta)
        jac[rows, :, cols + 1] = d_point[..., 0]
        jac[rows, :, cols + 2] = d_point[..., 1]
        jac[:, :, -1] = inward
        prior = np.zeros((1, len(params)))
        prior[0, -1] = 1.0 / SHRINK_SD
        return (
            np.concatenate([residual.ravel(), [(shrink - SHRINK_PX) / SHRINK_SD]]),
            np.concatenate([jac.reshape(2 * n, len(params)), prior]),
        )


def _pose(corners_mm: Array, corners_board: Array) -> tuple[float, float, float]:
    """The turn and offset that best lay a piece's marker corners onto board positions."""
    a = corners_mm - corners_mm.mean(axis=0)
    b = corners_board - corners_board.mean(axis=0)
    theta = float(np.arctan2((a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum(), (a * b).sum()))
    c, s = np.cos(theta), np.sin(theta)
    centre = corners_board.mean(axis=0) - np.array([[c, -s], [s, c]]) @ corners_mm.mean(axis=0)
    return theta, float(centre[0]), float(centre[1])


def _solve(problem: _Problem, start: Array) -> tuple[Array, Array, Array]:
    """Levenberg-Marquardt from ``start``: the parameters, the final residuals and their
    Jacobian."""
    params = start.copy()
    residual, jac = problem.residuals(params)
    cost = float(residual @ residual)
    damping = 1e-3
    for _ in range(ITERATIONS):
        normal = jac.T @ jac
        gradient = jac.T @ residual
        scale = np.diag(np.diag(normal) + 1e-12)
        improved = False
        while not improved and damping < 1e8:
            step = np.linalg.solve(normal + damping * scale, -gradient)
            trial_residual, trial_jac = problem.residuals(params + step)
            trial_cost = float(trial_residual @ trial_residual)
            if trial_cost < cost:
                improved = True
                settled = cost - trial_cost < 1e-3 * cost
                params, residual, jac, cost = params + step, trial_residual, trial_jac, trial_cost
                damping = max(damping / 3.0, 1e-9)
            else:
                damping *= 4.0
        if not improved or settled:
            break
    return params, residual, jac


def _covariance(jac: Array) -> Array:
    """The homography's eight parameters' covariance (detected corners off by CORNER_PX)."""
    normal = jac.T @ jac
    return np.asarray(np.linalg.pinv(normal)[:8, :8] * CORNER_PX**2, np.float64)


@dataclass(frozen=True)
class _Body:
    """A rigid body lying on the board's table: its marker corners (own mm, px) and its pose on
    the board to start the fit from."""

    mm: Array  # K x 2
    px: Array  # K x 2
    pose: tuple[float, float, float]
    pulled: bool  # its corners in px are as detected (blur pulls them in), not a board's fit


def _body(board: Sighting, mm: Array, px: Array, pulled: bool) -> _Body:
    return _Body(mm, px, _pose(mm, board.to_component(px)), pulled)


def _on_board(board: Sighting, pieces: Sequence[Sighting]) -> list[_Body]:
    """The pieces lying on the board, by their markers."""
    width, height = board.layout.size
    margin = NEAR_BOARD * max(width, height)
    bodies = []
    for piece in pieces:
        corners = np.array(piece.layout.markers[0].rect.corners(), np.float64)
        body = _body(board, corners, piece.to_image(corners), pulled=True)
        cx, cy = board.to_component(body.px).mean(axis=0)
        if -margin <= cx <= width + margin and -margin <= cy <= height + margin:
            bodies.append(body)
    return bodies


def _neighbours(board: Sighting, others: Sequence[Sighting]) -> list[_Body]:
    """The other boards on the table whose own markers fix them well, by their seen markers."""
    bodies = []
    for other in others:
        if (
            other.layout.key == board.layout.key
            or len(other.marker_ids) < NEIGHBOUR_MARKERS
            or not other.error_px <= OUTLIER_PX
        ):
            continue
        seen = [m for m in other.layout.markers if m.id in other.marker_ids]
        corners = np.array([c for m in seen for c in m.rect.corners()], np.float64)
        bodies.append(_body(board, corners, other.to_image(corners), pulled=False))
    return bodies


def _problem(board_mm: Array, board_px: Array, bodies: Sequence[_Body]) -> _Problem:
    return _Problem(
        board_mm,
        board_px,
        np.concatenate([np.zeros((0, 2)), *(b.mm for b in bodies)]),
        np.concatenate([np.zeros((0, 2)), *(b.px for b in bodies)]),
        np.repeat(np.arange(len(bodies)), [len(b.mm) for b in bodies]).astype(np.intp),
        len(bodies),
        np.concatenate(
            [np.ones(len(board_mm)), *(np.full(len(b.mm), float(b.pulled)) for b in bodies)]
        ),
    )


def refine(
    board: Sighting, pieces: Sequence[Sighting], boards: Sequence[Sighting] = ()
) -> Sighting:
    """The board's sighting refitted with the markers of the pieces lying on it and of the other
    ``boards`` on the same table (a piece that does not lie flat is left out), with the
    covariance of its homography."""
    seen = [m for m in board.layout.markers if m.id in board.marker_ids]
    board_mm = np.array([c for m in seen for c in m.rect.corners()], np.float64)
    board_px = board.to_image(board_mm)
    bodies = _on_board(board, pieces) + _neighbours(board, boards)
    h = entries(board.homography)
    while True:
        problem = _problem(board_mm, board_px, bodies)
        start = np.concatenate([h, np.array([b.pose for b in bodies]).ravel(), [SHRINK_PX]])
        if not bodies:
            # The board's own markers alone: keep its fit, and say how uncertain it is.
            _, jac = problem.residuals(start)
            return replace(board, covariance=_covariance(jac))
        params, residual, jac = _solve(problem, start)
        per_point = (residual[2 * len(board_mm) : -1].reshape(-1, 2) ** 2).sum(axis=1)
        counts = np.bincount(problem.body, minlength=len(bodies))
        misfit = np.sqrt(np.bincount(problem.body, per_point, len(bodies)) / counts)
        worst = int(np.argmax(misfit))
        if misfit[worst] <= OUTLIER_PX:
            homography = matrix(params[:8])
            error = float(np.sqrt((residual[:-1] ** 2).mean() * 2))
            return Sighting(board.layout, homography, board.marker_ids, error, _covariance(jac))
        bodies.pop(worst)


def uncertainty_mm(sighting: Sighting, point_mm: tuple[float, float]) -> float:
    """How far (RMS, mm) a point of the component may lie from where its homography puts it;
    0 when the covariance was not worked out (a board seen by three or four markers)."""
    if sighting.covariance is None:
        return 0.0
    params, point = entries(sighting.homography), np.array([point_mm], np.float64)
    _, du, dv = by_entry(params, point)
    moves = np.vstack([du, dv])  # how the point's pixel position moves with each entry
    to_mm = np.linalg.inv(by_point(params, point)[0])
    spread = to_mm @ moves @ sighting.covariance @ moves.T @ to_mm.T
    return float(np.sqrt(max(np.trace(spread), 0.0)))
