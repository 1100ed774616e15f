"""Atelier: a table companion for colour and painting board games."""

__version__ = "0.1.0"
