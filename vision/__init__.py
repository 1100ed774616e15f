"""Vision: from camera frames and photos to what lies on the table, each read with a confidence."""

import companion  # noqa: F401  (first: it settles the BLAS threads before numpy loads)
