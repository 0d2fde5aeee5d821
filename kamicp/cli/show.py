"""``kamicp show``: draw each puzzle in the terminal, in colour and in its true geometry."""

from __future__ import annotations

import argparse

from kamicp.cli.args import add_puzzle_args, load_boards
from kamicp.view.show import show

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
    p.add_argument("--no-colour", action="store_true", help="plain symbols, no ANSI colour")
    p.add_argument("--palette", help="comma-separated colours (#rrggbb or names), palette order")
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
    """
    for board in load_boards(args):
        palette = None if args.palette is None else args.palette.split(",")
        print(show(board, regions=args.regions, colour=not args.no_colour, palette=palette))
    return 0
