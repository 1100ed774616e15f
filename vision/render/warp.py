"""The camera's one warp: for every image pixel, the table point it sees, then a single remap of
the composed canvas (and of the table top around it).

The pixel-to-table map inverts exactly what ``Camera.project`` does (distortion, then the
pinhole), so truth corners computed by projection land where the remap draws them.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import Image
from vision.render.camera import Camera
from vision.render.compose import Canvas
from vision.render.table import TEXTURE_PPM

GRID_PX = 4  # the map is computed exactly on this grid and interpolated between
UNDISTORT_STEPS = 25

TableMap = NDArray[np.float32]  # (h, w, 2): the table mm each image pixel sees
Frame = NDArray[np.float32]  # (h, w, 3) BGR, 0..255, while light and sensor act on it


def _undistort(
    camera: Camera, xd: NDArray[np.float64], yd: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Ideal normalised coordinates from distorted ones, by fixed-point iteration."""
    xu, yu = xd.copy(), yd.copy()
    for _ in range(UNDISTORT_STEPS):
        r2 = xu * xu + yu * yu
        factor = 1.0 + camera.k1 * r2 + camera.k2 * r2 * r2
        xu, yu = xd / factor, yd / factor
    return xu, yu


def table_map(camera: Camera) -> TableMap:
    w, h = camera.size
    us = np.arange(0, w + GRID_PX, GRID_PX, dtype=np.float64)
    vs = np.arange(0, h + GRID_PX, GRID_PX, dtype=np.float64)
    u, v = np.meshgrid(us, vs)
    k = camera.matrix()
    xu, yu = _undistort(camera, (u - k[0, 2]) / k[0, 0], (v - k[1, 2]) / k[1, 1])
    rays = np.stack([xu, yu, np.ones_like(xu)], axis=-1) @ np.linalg.inv(camera.homography()).T
    coarse = (rays[..., :2] / rays[..., 2:3]).astype(np.float32)
    grid_u = np.tile(np.arange(w, dtype=np.float32) / GRID_PX, (h, 1))
    grid_v = np.tile((np.arange(h, dtype=np.float32) / GRID_PX)[:, None], (1, w))
    full = cv2.remap(coarse, grid_u, grid_v, cv2.INTER_LINEAR)
    return np.asarray(full, np.float32)


def photograph(canvas: Canvas, tile: Image, seen: TableMap) -> Frame:
    """What the camera sees, before light and sensor: the canvas over the table top."""
    ox, oy = canvas.origin
    map_x = (seen[..., 0] - ox) * canvas.ppm
    map_y = (seen[..., 1] - oy) * canvas.ppm
    layers = cv2.merge([canvas.colour, canvas.alpha])
    warped = cv2.remap(
        layers, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )
    size = tile.shape[0]
    tex_x = np.mod(seen[..., 0] * TEXTURE_PPM, size).astype(np.float32)
    tex_y = np.mod(seen[..., 1] * TEXTURE_PPM, size).astype(np.float32)
    table = cv2.remap(tile, tex_x, tex_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    # Premultiplied colour over the table: colour + table * (1 - coverage).
    colour, alpha = warped[..., :3].copy(), warped[..., 3]
    bare = cv2.merge([255 - alpha] * 3)
    seen_table = cv2.multiply(table, bare, scale=1.0 / 255.0, dtype=cv2.CV_32F)
    return np.asarray(cv2.add(seen_table, colour, dtype=cv2.CV_32F), np.float32)
