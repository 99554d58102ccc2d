"""The state directory: the game in progress, its previous version, the history.

Only finished rounds are ever written: a hidden choice never leaves the table.
"""

from .errors import StorageError
from .files import FileOps
from .state import Loaded, Source, StateDir

__all__ = ["FileOps", "Loaded", "Source", "StateDir", "StorageError"]
