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


def _kamicp(*argv, env=None):
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    command = [sys.executable, "-m", "kamicp", *argv]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)


def test_no_colour_into_a_pipe_or_with_no_color_unless_forced():
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    piped = _kamicp("show", first, env={"NO_COLOR": "1"})
    assert piped.returncode == 0 and "\x1b" not in piped.stdout and "B B Y Y" in piped.stdout
    assert "\x1b" not in _kamicp("show", first, env={"NO_COLOR": ""}).stdout  # a pipe still
    forced = _kamicp("show", first, "--color", env={"NO_COLOR": "1"})
    assert forced.returncode == 0 and "\x1b[" in forced.stdout


def test_colour_goes_to_a_terminal_only_while_no_color_is_unset_or_empty():
    from kamicp.view.show import colour_wanted

    class Terminal:
        def isatty(self):
            return True

    assert colour_wanted(Terminal(), environ={}) is True
    assert colour_wanted(Terminal(), environ={"NO_COLOR": ""}) is True
    assert colour_wanted(Terminal(), environ={"NO_COLOR": "1"}) is False
    assert colour_wanted(Terminal(), forced=False, environ={}) is False


def test_a_palette_shorter_than_the_board_is_refused(capsys):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, err = run(capsys, "show", first, "--palette", "red,blue")
    assert code == 2 and not out and err.count("\n") == 1
    assert "--palette: 2 colours for a board of 4" in err
    code, out, _ = run(capsys, "show", first, "--palette", "red,blue,navy,gold", "--no-color")
    assert code == 0 and out
