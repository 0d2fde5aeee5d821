"""IDA*'s status lines (kamicp.search.ida.search): they report the search and change nothing."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.game.regions import from_edges
from kamicp.search.ida import IdaOptions, idastar
from kamicp.search.ida import search as ida_module
from tests.strategies import region_graphs

STATUS = re.compile(
    r"searching (\d+) moves for \d+ s; ([\d,]+) states; tripod checks ([\d,]+) \(([\d,]+) cut\)"
    r"(; tetrapod checks ([\d,]+) \(([\d,]+) cut, \d+ s\))?"
    r"(?:; [\d,]+ checks? shared by isomorphic states)?$"
)


def parsed_status(lines: list[str]) -> list[tuple[int, ...]]:
    """(threshold, states, tripod checks, their cuts[, tetrapod checks, their cuts]) a line."""
    rows = []
    for line in lines:
        match = STATUS.match(line)
        assert match, line
        rows.append(tuple(int(x.replace(",", "")) for x in match.groups() if x and x[0] != ";"))
    return rows


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=4), st.sampled_from([0, 2]))
# a board where isomorphic states share a tetrapod check, which the line then counts
@example(
    from_edges([1, 0, 0, 1, 2, 1, 0], [(0, 1), (0, 2), (1, 3), (2, 5), (3, 4), (3, 6), (5, 6)]), 2
)
def test_status_lines_report_the_search_and_change_nothing(monkeypatch, g, tetrapod_depth):
    # a line at every state (STATUS_EVERY 0): the thresholds and counts in them only grow,
    # never past the optimum or the run's own count; the search is the same without them
    monkeypatch.setattr(ida_module, "STATUS_EVERY", 0.0)
    bounds.forget_cached_bounds()
    quiet = idastar(g, options=IdaOptions(tetrapod_depth=tetrapod_depth))
    lines: list[str] = []
    bounds.forget_cached_bounds()
    told = idastar(g, options=IdaOptions(tetrapod_depth=tetrapod_depth, on_status=lines.append))
    assert (told.moves, told.nodes) == (quiet.moves, quiet.nodes)
    rows = parsed_status(lines)
    assert len(rows) == told.nodes  # one a state expanded (the tick reports)
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    assert all(row[0] <= len(told.moves) for row in rows)
    assert [row[1] for row in rows] == list(range(1, told.nodes + 1))
    for row in rows:
        assert row[3] <= row[2] and (len(row) == 4) == (tetrapod_depth == 0)
