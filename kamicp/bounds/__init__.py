"""Admissible lower bounds on the moves a position still needs, and the position they read.

Every bound here is proved in ``encodings/bounds.md``; the searches, the exact models' driver
and ``kamicp info`` rely on them, so each is a lower bound on the optimum from the given
position, never a guess. Code outside this package imports from the package itself; the
modules inside are free to change. A walk through them, cheapest first:

- :mod:`~kamicp.bounds.position`: :class:`Current`, the graph of a position's current
  regions, which the searches play forward move by move;
- :mod:`~kamicp.bounds.radius`: a piece's radius from its balls (a move lowers it by at most
  one), updated cheaply after a move;
- :mod:`~kamicp.bounds.islands`: the colour, radius and islands bounds, asked at every
  search node;
- :mod:`~kamicp.bounds.pivot`: the pivot rules' eccentricity and layer bounds;
- :mod:`~kamicp.bounds.walks`, :mod:`~kamicp.bounds.tripods`,
  :mod:`~kamicp.bounds.tetrapods`, :mod:`~kamicp.bounds.anchored`: the free rules' bounds from
  subtrees of a spanning tree with two, three or four ends (Meeks and Scott), as bit levels
  (:mod:`~kamicp.bounds.bits`) built by compiled loops;
- :mod:`~kamicp.bounds.leaves`: a piece without some of its leaves never needs more moves;
- :mod:`~kamicp.bounds.pieces`: those values per piece, raised into bounds on a position;
- :mod:`~kamicp.bounds.capped`: how IDA*'s capped tetrapod checks are kept cheap;
- :mod:`~kamicp.bounds.cache`: what the costly bounds remember, in one
  :class:`~kamicp.bounds.cache.BoundCache`;
- :mod:`~kamicp.bounds.lower`: the best bound of a position, and whether it can be solved.
"""

from kamicp.bounds.cache import forget_cached_bounds
from kamicp.bounds.islands import colour_bound, islands_bound, islands_bound_after, radius_bound
from kamicp.bounds.lower import UNSOLVABLE, bound_report, estimate, lower_bound, solvable
from kamicp.bounds.pieces import (
    TETRAPOD_NODES,
    TRIPOD_NODES,
    kept_tripod_value,
    tetrapods_bound,
    walks_bound,
    walks_bound_capped,
)
from kamicp.bounds.pivot import pivot_final, pivot_final_colour, pivot_layer_bound, pivot_layers
from kamicp.bounds.position import Current, contract
from kamicp.bounds.radius import piece_radius, radius_after, radius_movers
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
    "pivot_final",
    "pivot_final_colour",
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
