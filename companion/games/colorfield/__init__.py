"""Color Field: 2x3 canvases of paint tiles, scored by matching edges and the largest patch."""
