"""``kamicp info``: a puzzle's description and bounds."""

from __future__ import annotations

import json

from tests.cli.helpers import ARTICLE, ROOT, run


def test_info_lists_bounds(capsys):
    code, out, _ = run(capsys, "info", ARTICLE, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["regions"] == 16 and data["colours"] == 4 and data["islands"] == 1
    assert 3 <= data["lower_bound"] <= 5
    bounds = data["lower_bounds"]
    assert bounds["tripods"] >= bounds["walks"] >= bounds["islands"]
    assert data["lower_bound"] == max(bounds.values())


def test_info_with_tetrapods(capsys):
    from kamicp import bounds

    tree = str(ROOT / "puzzles" / "graph" / "tetrapod.json")
    bounds.forget_cached_bounds()
    code, out, _ = run(capsys, "info", tree, "--json")
    assert code == 0 and "tetrapods" not in json.loads(out)["lower_bounds"]
    code, out, _ = run(capsys, "info", tree, "--json", "--tetrapods")
    data = json.loads(out)
    assert code == 0 and data["lower_bounds"]["tripods"] == 4
    assert data["lower_bounds"]["tetrapods"] == data["lower_bound"] == 5
