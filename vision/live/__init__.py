"""The live table: frames to steady board readings, hands and half-placed tiles kept out."""
