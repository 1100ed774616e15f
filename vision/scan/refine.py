"""A board seen by one or two of its markers, its homography refitted with the pieces on it.

One or two markers at one end of a board fix the board's position and turn well, but hardly its
perspective: a small square barely shows how the plane recedes, so places at the far end can be
misplaced by more than the gap between places. Every piece lying on the board carries a marker of
known size on the same plane, and a square seen further away looks smaller: fitting the board's
homography so that each piece marker is an exact square of its printed size, at a position and
turn of its own on the board, pins the perspective down. Blur pulls every detected corner a
little towards its marker's centre, which alone would read as markers lying further away; the
fit allows for that pull, the same for every marker in the photo.

The fit also says how well it knows the board: the covariance of its homography, from which
``uncertainty_mm`` tells how far any point of the board may be off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from vision.scan.registration import Sighting

ITERATIONS = 20
NEAR_BOARD = 0.05  # pieces this far outside the board (a share of its size) may still lie on it
SHRINK_PX, SHRINK_SD = 0.8, 0.5  # blur shrinks detected markers by about this (px, per corner)
OUTLIER_PX = 3.0  # a piece marker fitting worse than this does not lie flat (a piece held up)
CORNER_PX = 1.0  # how far a detected marker corner may be off, for the fit's uncertainty

Array = NDArray[np.float64]


@dataclass(frozen=True)
class _Problem:
    """The board's marker corners (mm, px) and each piece's marker corners (its own mm, px)."""

    board_mm: Array  # B x 2
    board_px: Array  # B x 2
    piece_mm: Array  # P x 4 x 2
    piece_px: Array  # P x 4 x 2

    def residuals(self, params: Array) -> tuple[Array, Array]:
        """Image residuals (px) of every corner, and their Jacobian with respect to the
        parameters: the homography's eight (h33 = 1), then each piece's turn and offset."""
        h = params[:8]
        shrink = params[-1]
        pieces = len(self.piece_mm)
        theta = params[8::3][:pieces]
        offset = np.stack([params[9::3][:pieces], params[10::3][:pieces]], axis=1)
        c, s = np.cos(theta), np.sin(theta)
        turn = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)  # P x 2 x 2
        turn_d = np.stack([np.stack([-s, -c], -1), np.stack([c, -s], -1)], -2)
        on_board = np.einsum("pij,pkj->pki", turn, self.piece_mm) + offset[:, None, :]
        points = np.concatenate([self.board_mm, on_board.reshape(-1, 2)])
        targets = np.concatenate([self.board_px, self.piece_px.reshape(-1, 2)])
        x, y = points[:, 0], points[:, 1]
        w = h[6] * x + h[7] * y + 1.0
        u = (h[0] * x + h[1] * y + h[2]) / w
        v = (h[3] * x + h[4] * y + h[5]) / w
        seen = np.stack([u, v], axis=1)
        # Blur pulls every detected corner a little towards its marker's centre.
        centres = seen.reshape(-1, 4, 2).mean(axis=1, keepdims=True)
        inward = (centres - seen.reshape(-1, 4, 2)).reshape(-1, 2)
        inward /= np.maximum(np.linalg.norm(inward, axis=1, keepdims=True), 1e-9)
        residual = seen + shrink * inward - targets
        n = len(points)
        jac = np.zeros((n, 2, len(params)))
        one, zero = np.ones(n), np.zeros(n)
        jac[:, 0, :8] = np.stack([x, y, one, zero, zero, zero, -u * x, -u * y], 1) / w[:, None]
        jac[:, 1, :8] = np.stack([zero, zero, zero, x, y, one, -v * x, -v * y], 1) / w[:, None]
        # How each image point moves with the board point it comes from, for the pieces' own
        # parameters.
        du = np.stack([(h[0] - u * h[6]) / w, (h[1] - u * h[7]) / w], 1)
        dv = np.stack([(h[3] - v * h[6]) / w, (h[4] - v * h[7]) / w], 1)
        d_point = np.stack([du, dv], 1)[len(self.board_mm) :].reshape(pieces, 4, 2, 2)
        d_theta = np.einsum("pij,pkj->pki", turn_d, self.piece_mm)  # P x 4 x 2
        rows = len(self.board_mm) + 4 * np.arange(pieces)[:, None] + np.arange(4)  # P x 4
        cols = 8 + 3 * np.arange(pieces)[:, None]  # P x 1
        jac[rows, :, cols] = np.einsum("pkij,pkj->pki", d_point, d_theta)
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


def _on_board(
    board: Sighting, pieces: Sequence[Sighting]
) -> tuple[list[Array], list[Array], list[tuple[float, float, float]]]:
    """The pieces lying on the board: their marker corners (own mm, px) and pose on the board."""
    width, height = board.layout.size
    margin = NEAR_BOARD * max(width, height)
    piece_mm, piece_px, poses = [], [], []
    for piece in pieces:
        corners = np.array(piece.layout.markers[0].rect.corners(), np.float64)
        corners_px = piece.to_image(corners)
        on_board = board.to_component(corners_px)
        cx, cy = on_board.mean(axis=0)
        if -margin <= cx <= width + margin and -margin <= cy <= height + margin:
            piece_mm.append(corners)
            piece_px.append(corners_px)
            poses.append(_pose(corners, on_board))
    return piece_mm, piece_px, poses


def refine(board: Sighting, pieces: Sequence[Sighting]) -> Sighting:
    """The board's sighting refitted with the markers of the pieces lying on it (a piece that
    does not lie flat is left out), with the covariance of its homography."""
    seen = [m for m in board.layout.markers if m.id in board.marker_ids]
    board_mm = np.array([c for m in seen for c in m.rect.corners()], np.float64)
    piece_mm, piece_px, poses = _on_board(board, pieces)
    h = (board.homography / board.homography[2, 2]).ravel()[:8]
    keep = list(range(len(poses)))
    while True:
        problem = _Problem(
            board_mm,
            board.to_image(board_mm),
            np.array([piece_mm[i] for i in keep]).reshape(-1, 4, 2),
            np.array([piece_px[i] for i in keep]).reshape(-1, 4, 2),
        )
        start = np.concatenate([h, np.array([poses[i] for i in keep]).ravel(), [SHRINK_PX]])
        if not keep:
            # The board's own markers alone: keep its fit, and say how uncertain it is.
            _, jac = problem.residuals(start)
            return replace(board, covariance=_covariance(jac))
        params, residual, jac = _solve(problem, start)
        per_piece = residual[2 * len(board_mm) : -1].reshape(len(keep), 8)
        misfit = np.sqrt((per_piece**2).mean(axis=1) * 2)
        worst = int(np.argmax(misfit))
        if misfit[worst] <= OUTLIER_PX:
            homography = np.append(params[:8], 1.0).reshape(3, 3)
            error = float(np.sqrt((residual[:-1] ** 2).mean() * 2))
            return Sighting(board.layout, homography, board.marker_ids, error, _covariance(jac))
        keep.pop(worst)


def uncertainty_mm(sighting: Sighting, point_mm: tuple[float, float]) -> float:
    """How far (RMS, mm) a point of the component may lie from where its homography puts it;
    0 when the covariance was not worked out (a board seen by three or four markers)."""
    if sighting.covariance is None:
        return 0.0
    h = sighting.homography / sighting.homography[2, 2]
    x, y = point_mm
    w = h[2, 0] * x + h[2, 1] * y + 1.0
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    by_entry = (
        np.array([[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]) / w
    )
    local = (
        np.array(
            [
                [h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]],
                [h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]],
            ]
        )
        / w
    )
    to_mm = np.linalg.inv(local)
    spread = to_mm @ by_entry @ sighting.covariance @ by_entry.T @ to_mm.T
    return float(np.sqrt(max(np.trace(spread), 0.0)))
