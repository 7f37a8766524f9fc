"""Topology: double-hex tiles whose lines close into rings (rulings L1-L7).

Importing the package registers the game under the name "topology".
"""

from .game import TopologyGame  # noqa: F401  (registers the game)
from .state import TopologyState  # noqa: F401
