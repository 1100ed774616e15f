"""Vision: from camera frames and photos to what lies on the table, each read with a confidence."""
