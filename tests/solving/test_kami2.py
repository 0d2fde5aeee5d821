"""A handful of real KAMI 2 levels: every exact solver proves the same optimum (par, for these
levels, as every run in the README's table found), and one move less is infeasible.

Skipped without ../shared/data/kami2-story (the designs belong to their publisher and are
not copied into the project).
"""

from __future__ import annotations

import pytest

from kamicp import formats
from kamicp.game import rules
from kamicp.game.regions import region_graph
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from tests.formats.helpers import KAMI2, needs_kami2

# small and quick, one with islands (Islands4: 35 regions in pieces, 9 moves)
LEVELS = ["Start6", "Rings6", "Squares6", "Wall3", "Tritarg4", "Islands4"]


@needs_kami2
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("solver", ["sat", "cpsat", "idastar"])
def test_kami2_level_optimum_equals_par(level, solver):
    board = formats.load(str(KAMI2 / f"{level}.puz"))[0]
    g = region_graph(board)
    r = solve(g, solver, SolveOptions(time_limit=120))
    assert r.status == "optimal", (r.status, r.proof)
    assert r.moves == board.par == r.lower_bound
    rules.verify_solution(g, r.solution)
    below = solve(g, solver, SolveOptions(max_moves=board.par - 1, time_limit=120))
    assert below.status == "infeasible"


@pytest.mark.slow
@needs_kami2
def test_threegrid6_is_solvable_below_par_with_a_wide_beam():
    # width 512 finds 15 moves, one below the designer's par 16 (width 32: 16); a slow beam
    board = formats.load(str(KAMI2 / "Threegrid6.puz"))[0]
    g = region_graph(board)
    r = solve(g, "greedy", SolveOptions(beam_width=512))
    rules.verify_solution(g, r.solution)
    assert r.status == "feasible" and r.moves == 15 < board.par == 16
