"""Calibration: camera intrinsics from chessboard or ChArUco views, colour correction from the
printed reference card, and the saved profiles that carry both."""
