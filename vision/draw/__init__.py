"""Drawing printed components from their layouts: what the printer prints and the renderer shows."""

from vision.draw.component import draw_layout

__all__ = ["draw_layout"]
