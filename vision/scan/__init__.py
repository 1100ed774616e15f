"""Scanning a photo of the table: find the boards by their markers, read every component with a
confidence, and report a board that cannot be read confidently as unreadable, with the reasons."""
