"""One reader per board kind: from a rectified board and the pieces on it to a position."""
