"""``kamicp show``: draw each puzzle in the terminal, in colour and in its true geometry.

Colour goes to a terminal only, and not while ``NO_COLOR`` is set (https://no-color.org);
``--colour`` and ``--no-colour`` force the choice."""

from __future__ import annotations

import argparse
import sys

from kamicp.cli.args import add_puzzle_args, load_boards
from kamicp.cli.drawing import add_colour, add_palette, palette_of
from kamicp.view.show import colour_wanted, show

__all__ = ["add_show", "run_show"]


def add_show(p: argparse.ArgumentParser) -> None:
    """Add the options of ``show``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p)
    p.add_argument("--regions", action="store_true", help="print region numbers")
    add_colour(p)
    add_palette(p)
    p.set_defaults(run=run_show)


def run_show(args: argparse.Namespace) -> int:
    """Print each puzzle the arguments pick.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``show``.

    Returns
    -------
    int
        The exit code: 0.

    Raises
    ------
    KamicpError
        If ``--palette`` names fewer colours than a board has, or the input is bad.
    """
    colour = colour_wanted(sys.stdout, args.colour)
    boards = load_boards(args)
    palettes = [palette_of(args, board) for board in boards]  # all checked before printing
    for board, palette in zip(boards, palettes, strict=True):
        print(show(board, regions=args.regions, colour=colour, palette=palette))
    return 0
