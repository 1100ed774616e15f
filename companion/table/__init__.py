"""The table session: a game, its players and options, and the event log every view projects."""
