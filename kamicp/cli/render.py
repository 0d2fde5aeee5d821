"""``kamicp render``: draw a puzzle, and one frame per move of a solution given or found, as
an SVG, PNG or animated GIF file."""

from __future__ import annotations

import argparse
import time

from kamicp import formats
from kamicp.cli.args import PATH, SECONDS, add_puzzle_args, load_boards
from kamicp.cli.clock import seconds_left
from kamicp.cli.drawing import add_palette, palette_of
from kamicp.cli.output import ensure_output_file
from kamicp.cli.refusals import refuse_unused_render
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation
from kamicp.game.regions import region_graph
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from kamicp.view.render import render

__all__ = ["add_render", "run_render"]


def add_render(p: argparse.ArgumentParser) -> None:
    """Add the options of ``render``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p)
    p.add_argument("--out", type=PATH, required=True, help="output file: .svg, .png or .gif")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--solution", metavar="MOVES", help="moves to show frame by frame")
    group.add_argument("--solve", action="store_true", help="solve first, show the solution")
    add_palette(p)
    p.add_argument("--numbers", action="store_true", help="print region numbers")
    p.add_argument("--frames", choices=("row", "gif"), help="frames as a row or a GIF")
    p.add_argument(
        "--time-limit",
        type=SECONDS,
        metavar="S",
        help="with --solve: seconds for the whole command (the solve then draws the best "
        "solution found)",
    )
    p.set_defaults(run=run_render, began=time.monotonic())  # the command's start


def run_render(args: argparse.Namespace) -> int:
    """Draw the first puzzle picked into ``--out`` and print the file's name.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``render``.

    Returns
    -------
    int
        The exit code: 0.

    Raises
    ------
    KamicpError
        If the output cannot be written (checked before any solve), ``--solution`` is not
        legal on the board, or the input is bad.
    """
    refuse_unused_render(args)
    ensure_output_file(args.out, [args.file])
    board = load_boards(args)[0]
    palette = palette_of(args, board)
    g = region_graph(board)
    moves = None
    if args.solution is not None:
        try:
            moves = notation.parse_moves(board, g, args.solution)
        except IllegalMove as err:
            raise KamicpError(f"{formats.shown(args.file)}: --solution: {err}") from None
    elif args.solve:
        result = solve(g, options=SolveOptions(time_limit=seconds_left(args)))
        moves = result.solution
    render(board, args.out, moves=moves, palette=palette, numbers=args.numbers, frames=args.frames)
    print(args.out)
    return 0
