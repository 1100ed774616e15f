"""Pigment Lab: chips pressed into pans, a colour model of light bands, the recipe check."""
