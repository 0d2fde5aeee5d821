"""``kamicp show``: the board drawn in the terminal, one symbol a cell."""

from __future__ import annotations

from tests.cli.helpers import ROOT, run


def test_show_without_colour_prints_the_grid_as_the_file_gives_it(capsys):
    # plain symbols, no ANSI escapes: the rows of the file, a space between cells
    path = ROOT / "puzzles" / "square" / "first.txt"
    rows = [line for line in path.read_text().splitlines() if line and ":" not in line]
    rows = [" ".join(row) for row in rows if not row.startswith("#")]
    code, out, _ = run(capsys, "show", str(path), "--no-colour")
    assert code == 0 and "\x1b[" not in out
    assert out.strip().splitlines() == rows
