"""Santo Domingo Companion: a tabletop companion for the card game *Santo Domingo*."""

__version__ = "0.1.0"
