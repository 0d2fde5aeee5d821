"""``kamicp check``: replay a sequence of moves and say whether it solves the board, and how
it compares with the par."""

from __future__ import annotations

import argparse
import sys

from kamicp import formats, plural
from kamicp.api import check
from kamicp.cli.args import add_puzzle_args, load_boards
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.plural import count_moves
from kamicp.view import places, words

__all__ = ["add_check", "run_check", "said_moves"]


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


def said_moves(board: Board, text: str) -> tuple[list[str], int | None]:
    """Each move of ``text`` in words naming the cell it names, then its token as given, up
    to the first illegal one (included); and the number of the move after which the board is
    first solved (None: it never is). A move given by region number (``#N``) is said on the
    cell :func:`~kamicp.view.places.region_cell` picks in the position the moves before it
    leave; under pivot rules a move of the pivot's region by its colour alone.

    Parameters
    ----------
    board : Board
        The puzzle.
    text : str
        Moves in notation.

    Returns
    -------
    (list of str, int or None)
        The moves said (none when a move cannot be read), and the move that solves it.
    """
    g = region_graph(board)
    try:
        moves = notation.parse_moves(board, g, text)
    except IllegalMove:
        return [], None
    pos, out, solved = rules.start(g), [], None
    given = notation.tokens(board, text)
    for number, (move, token) in enumerate(zip(moves, given, strict=True), 1):
        cell = places.region_cell(board, g, move[0], pos)
        own = notation.token_cell(board, token)
        if own is not None and not (board.rules == "pivot" and cell == board.pivot):
            cell = own
        out.append(f"{words.cell_words(board, move[1], cell)} [{token}]")
        try:
            pos = rules.apply(g, pos, move)
        except IllegalMove:
            break
        if solved is None and rules.is_solved(pos):
            solved = number
    return out, solved


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
    said, solved_by = said_moves(board, text)
    if not verdict.legal:
        prefix = f"move {verdict.moves + 1}: "
        if said and verdict.problem.startswith(prefix):  # a move the rules refuse, not a typo
            problem = f"move {verdict.moves + 1}, {said[-1]}: {verdict.problem[len(prefix) :]}"
            print(f"illegal: {problem}")
        else:
            print(f"illegal: {verdict.problem}")
        return 1
    done = count_moves(verdict.moves)
    if not verdict.solved:
        print(f"not solved: after {done}, {plural.count(verdict.colours_left, 'colour')} left")
        return 1
    line = f"solved in {done}"
    if verdict.par_difference is not None:
        diff = verdict.par_difference
        line += f" (par {board.par}: {'at par' if diff == 0 else f'{diff:+d}'})"
    print(line)
    if solved_by is not None:  # None: no moves, the board was solved from the start
        print(f"solved by move {solved_by}: {said[solved_by - 1]}")
    return 0
