"""Paintings: three layered art cards per painting, scored with ribbons against scoring cards."""
