"""Benchmarks: rates measured against a baseline taken in the same run."""
