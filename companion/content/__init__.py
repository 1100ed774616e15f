"""Game content (tiles, cards, boards) as data files, and the loaders that validate them."""
