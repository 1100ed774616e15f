"""The table renderer: printed components laid out as a position says, seen by a simulated
camera, with the truth of where everything landed (docs/renderer.md)."""
