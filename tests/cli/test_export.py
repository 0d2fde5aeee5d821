"""``kamicp export``: the horizon asked is checked against the board."""

from __future__ import annotations

from kamicp.formats import load
from kamicp.game.regions import region_graph
from tests.cli.helpers import ARTICLE, run


def test_export_refuses_a_horizon_longer_than_the_regions(capsys):
    n = region_graph(load(ARTICLE)[0]).n
    code, out, _ = run(capsys, "export", ARTICLE, "--moves", str(n))
    assert code == 0 and "\np cnf " in "\n" + out
    code, out, err = run(capsys, "export", ARTICLE, "--moves", str(n + 1))
    assert code == 2 and not out
    assert f"more than this board's {n} regions" in err and err.strip().count("\n") == 0
