"""Atelier: a table companion for colour and painting board games."""

import os

__version__ = "0.1.0"

# Atelier's matrices are small: OpenBLAS's extra threads only spin, taking the core a camera loop
# or a second process needs for the same wall time (`atelier print all`: 13 s either way, 27 s
# of CPU with them, 13 without). Set before numpy loads it; a setting of the user's own wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
