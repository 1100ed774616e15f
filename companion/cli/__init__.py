"""The ``atelier`` command line: argument parsing and thin commands over the packages."""
