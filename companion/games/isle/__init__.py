"""Isle of Colors: hex islands filled with four colours by shared die rolls, scored by condition."""
