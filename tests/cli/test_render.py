"""``kamicp render``: the moves given or found, drawn."""

from __future__ import annotations

from tests.cli.helpers import ROOT, run


def test_render_command_draws_the_moves_given_or_found(capsys, tmp_path):
    from PIL import Image

    first = str(ROOT / "puzzles" / "square" / "first.txt")
    gif = tmp_path / "first.gif"
    code, out, _ = run(capsys, "render", first, "--solution", "2,2:G 2,2:Y", "--out", str(gif))
    assert code == 0 and out.strip() == str(gif)
    with Image.open(gif) as image:
        assert image.n_frames == 3  # the start and one frame per move
    svg = tmp_path / "first.svg"
    code, _, _ = run(capsys, "render", first, "--solve", "--frames", "row", "--out", str(svg))
    assert code == 0 and "solved in 4 moves" in svg.read_text()  # the optimum, drawn
    code, _, err = run(capsys, "render", first, "--solution", "2,2:Q", "--out", str(svg))
    assert code == 2 and err.count("\n") == 1 and f"{first}: --solution:" in err
