"""Frame sources for the live table: cameras, streams, video files, folders of images."""
