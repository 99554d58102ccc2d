"""The state directory: the game in progress, its previous version, later the history."""
