"""Homographies from a component's plane (mm) to a photo (px): as 3 x 3 matrices or as their
eight free entries (h33 = 1), where they take points, and how those move with the entries."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]


def scale_shift(scale: float, dx: float, dy: float) -> Floats:
    """The map x -> scale x + (dx, dy)."""
    return np.array([[scale, 0.0, dx], [0.0, scale, dy], [0.0, 0.0, 1.0]])


def normalised(homography: Floats) -> Floats:
    """The same homography with h33 = 1."""
    return np.asarray(homography / homography[2, 2], np.float64)


def entries(homography: Floats) -> Floats:
    """The eight free entries of the homography, row by row (h33 = 1)."""
    return np.asarray(normalised(homography).ravel()[:8], np.float64)


def matrix(params: Floats) -> Floats:
    """The homography whose eight free entries are ``params``."""
    return np.append(params, 1.0).reshape(3, 3)


def homogeneous(
    homographies: NDArray[Any], x: NDArray[Any], y: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Where homographies (... x 3 x 3) take the points (x, y) before the division: the
    numerators of u and v and their denominator w, each ... x N, in the points' precision."""
    h = homographies

    def row(i: int) -> NDArray[Any]:
        return np.asarray(h[..., i, 0, None] * x + h[..., i, 1, None] * y + h[..., i, 2, None])

    return row(0), row(1), row(2)


def through(params: Floats, points: Floats) -> tuple[Floats, Floats, Floats]:
    """Where the homography (eight entries) puts ``points`` (N x 2): u, v and the denominator w
    (points in front of the camera)."""
    u, v, w = homogeneous(matrix(params), points[:, 0], points[:, 1])
    return u / w, v / w, w


def project(homography: Floats, points: Floats) -> Floats:
    """Points (... x 2) through a homography (3 x 3), element by element (points in front of
    the camera)."""
    u, v, w = homogeneous(homography, points[..., 0], points[..., 1])
    return np.stack([u / w, v / w], -1)


def by_entry(params: Floats, points: Floats) -> tuple[Floats, Floats, Floats]:
    """Where the homography (eight entries) puts ``points`` (px) and the derivatives of u and v
    with respect to its entries (N x 8 each; points in front of the camera)."""
    x, y = points[:, 0], points[:, 1]
    u, v, w = through(params, points)
    one, zero = np.ones_like(x), np.zeros_like(x)
    du = np.stack([x, y, one, zero, zero, zero, -u * x, -u * y], axis=1) / w[:, None]
    dv = np.stack([zero, zero, zero, x, y, one, -v * x, -v * y], axis=1) / w[:, None]
    return np.stack([u, v], axis=1), du, dv


def by_point(params: Floats, points: Floats) -> Floats:
    """The derivative of the homography (eight entries) at each of ``points``: N x 2 x 2, px per
    unit of the points."""
    h = params
    u, v, w = through(params, points)
    du = np.stack([(h[0] - u * h[6]) / w, (h[1] - u * h[7]) / w], 1)
    dv = np.stack([(h[3] - v * h[6]) / w, (h[4] - v * h[7]) / w], 1)
    return np.stack([du, dv], 1)


def local_map(homography: Floats, point: tuple[float, float]) -> tuple[Floats, Floats]:
    """Where ``homography`` puts ``point`` and its derivative there (2 x 2, px per mm)."""
    params, at = entries(homography), np.array([point], np.float64)
    return project(matrix(params), at)[0], by_point(params, at)[0]
