"""Errors a user can fix: a pattern not found, too few views, a corrupt profile."""

from __future__ import annotations


class CalibrationError(Exception):
    """Something in the user's calibration input is wrong; the message says what and where."""
