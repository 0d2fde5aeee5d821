"""Admissible lower bounds on the moves a position still needs, and the position they read.

Every bound here is proved in ``encodings/bounds.md``. Code outside this package imports
from the package itself; the modules inside are free to change.
"""

from kamicp.bounds.core import (
    TETRAPOD_NODES,
    TRIPOD_NODES,
    UNSOLVABLE,
    Current,
    bound_report,
    colour_bound,
    contract,
    estimate,
    forget_cached_bounds,
    islands_bound,
    islands_bound_after,
    kept_tripod_value,
    lower_bound,
    piece_radius,
    pivot_layer_bound,
    pivot_layers,
    radius_after,
    radius_bound,
    radius_movers,
    solvable,
    tetrapods_bound,
    walks_bound,
    walks_bound_capped,
)
from kamicp.bounds.tetrapods import keep_levels_memory

__all__ = [
    "TETRAPOD_NODES",
    "TRIPOD_NODES",
    "UNSOLVABLE",
    "Current",
    "bound_report",
    "colour_bound",
    "contract",
    "estimate",
    "forget_cached_bounds",
    "islands_bound",
    "islands_bound_after",
    "keep_levels_memory",
    "kept_tripod_value",
    "lower_bound",
    "piece_radius",
    "pivot_layer_bound",
    "pivot_layers",
    "radius_after",
    "radius_bound",
    "radius_movers",
    "solvable",
    "tetrapods_bound",
    "walks_bound",
    "walks_bound_capped",
]
