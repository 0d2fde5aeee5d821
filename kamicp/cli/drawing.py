"""The options of the commands that draw a board (``show``, ``render``): whether to colour
the terminal, and a palette of one colour per symbol of the board."""

from __future__ import annotations

import argparse

from kamicp import formats, plural
from kamicp.errors import KamicpError
from kamicp.game.board import Board

__all__ = ["add_colour", "add_palette", "palette_of"]


def add_colour(p: argparse.ArgumentParser) -> None:
    """Add ``--colour`` and ``--no-colour`` (also spelt ``color``), into ``args.colour``:
    True, False, or None to decide from the terminal and ``NO_COLOR``
    (:func:`kamicp.view.show.colour_wanted`).

    Parameters
    ----------
    p : argparse.ArgumentParser
        A command's parser.
    """
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--colour",
        "--color",
        dest="colour",
        action="store_const",
        const=True,
        help="ANSI colour even into a pipe or with NO_COLOR set",
    )
    group.add_argument(
        "--no-colour",
        "--no-color",
        dest="colour",
        action="store_const",
        const=False,
        help="plain symbols, no ANSI colour (the default outside a terminal or with NO_COLOR)",
    )


def add_palette(p: argparse.ArgumentParser) -> None:
    """Add ``--palette``: one colour per palette symbol (:func:`palette_of` reads it).

    Parameters
    ----------
    p : argparse.ArgumentParser
        A command's parser.
    """
    p.add_argument(
        "--palette",
        help="comma-separated colours (#rrggbb or names), one per colour of the board, in "
        "palette order",
    )


def palette_of(args: argparse.Namespace, board: Board) -> list[str] | None:
    """The colours of ``--palette`` for ``board``, checked to cover its palette.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments with ``file`` and ``palette``.
    board : Board
        The board drawn.

    Returns
    -------
    list of str or None
        The colours, stripped; None when the option is not given.

    Raises
    ------
    KamicpError
        One line naming the file, if there are fewer colours than the board's palette has
        (the board's own colours would then be drawn beside some of them).
    """
    if args.palette is None:
        return None
    colours = [c.strip() for c in args.palette.split(",")]
    if len(colours) < len(board.palette):
        given = plural.count(len(colours), "colour")
        raise KamicpError(
            f"{formats.shown(args.file)}: --palette: {given} for a board of "
            f"{len(board.palette)} ({' '.join(board.palette)})"
        )
    return colours
