"""The rules engines, one package per game, and the registry the command line dispatches on."""
