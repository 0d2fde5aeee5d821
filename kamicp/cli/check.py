"""``kamicp check``: replay a sequence of moves and say whether it solves the board, and how
it compares with the par."""

from __future__ import annotations

import argparse
import sys

from kamicp import formats
from kamicp.api import check
from kamicp.cli.args import add_puzzle_args, load_boards
from kamicp.errors import KamicpError
from kamicp.game import notation

__all__ = ["add_check", "run_check"]


def add_check(p: argparse.ArgumentParser) -> None:
    """Add the options of ``check``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p)
    p.add_argument("moves", nargs="+", help="moves, e.g. '0,0:3 1,2:a' ('-' reads stdin)")
    p.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    """Replay the moves on the first puzzle picked and print the verdict.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``check``.

    Returns
    -------
    int
        0 if the moves solve the board; 1 if a move is illegal or the board is not solved.

    Raises
    ------
    KamicpError
        If standard input is asked for both the puzzle and the moves, or the input is bad.
    """
    text = " ".join(args.moves)
    if text.strip() == "-":
        if args.file == formats.STDIN:
            raise KamicpError("standard input can give the puzzle or the moves, not both")
        text = sys.stdin.read()
    (board,) = load_boards(args)[:1]
    verdict = check(board, text)
    if not verdict.legal:
        print(f"illegal: {verdict.problem}")
        return 1
    done = notation.count_moves(verdict.moves)
    if not verdict.solved:
        print(f"not solved: after {done}, {notation.count(verdict.colours_left, 'colour')} left")
        return 1
    line = f"solved in {done}"
    if verdict.par_difference is not None:
        diff = verdict.par_difference
        line += f" (par {board.par}: {'at par' if diff == 0 else f'{diff:+d}'})"
    print(line)
    return 0
