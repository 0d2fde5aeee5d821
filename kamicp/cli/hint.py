"""``kamicp hint``: the next move of an optimal continuation from a position, and how many
moves are still needed."""

from __future__ import annotations

import argparse
import json
import time

from kamicp import formats
from kamicp.bounds import UNSOLVABLE
from kamicp.cli.args import SECONDS, add_memory_limit, add_puzzle_args, load_boards, memory_limited
from kamicp.cli.clock import seconds_left
from kamicp.cli.output import EXIT_CODES
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation
from kamicp.game.regions import region_graph
from kamicp.procs.progress import watched
from kamicp.runs.bar import Live
from kamicp.runs.record import result_record
from kamicp.solving.hint import hint
from kamicp.solving.solve import DEFAULT_SOLVER, SOLVERS
from kamicp.view import words

__all__ = ["add_hint", "run_hint"]


def add_hint(p: argparse.ArgumentParser) -> None:
    """Add the options of ``hint``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p)
    p.add_argument("--after", default="", metavar="MOVES", help="moves already played")
    p.add_argument("--solver", default=DEFAULT_SOLVER, choices=SOLVERS)
    p.add_argument(
        "--time-limit",
        type=SECONDS,
        metavar="S",
        help="seconds for the whole command, reading the board included",
    )
    add_memory_limit(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object: the answer from the position after --after (its moves, "
        "bounds and solution) and next_move",
    )
    p.set_defaults(run=run_hint, began=time.monotonic())  # the command's start


@memory_limited
def run_hint(args: argparse.Namespace) -> int:
    """Print the next move after ``--after`` on the first puzzle picked.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``hint``.

    Returns
    -------
    int
        The exit code of the solve's status (:data:`~kamicp.cli.output.EXIT_CODES`).

    Raises
    ------
    KamicpError
        If a move of ``--after`` is not legal, or the input is bad.
    """
    board = load_boards(args)[0]
    g = region_graph(board)
    try:
        played = notation.parse_moves(board, g, args.after)
        # on a terminal, a line with the time and the bounds while the position is solved
        with Live(board.name or formats.shown(args.file)) as live, watched(live):
            h = hint(board, played, args.solver, seconds_left(args))
    except IllegalMove as err:
        raise KamicpError(f"{formats.shown(args.file)}: --after: {err}") from None
    r = h.result
    pg = region_graph(h.position)
    move = said = shown = None
    if h.next_move is not None:
        move = notation.format_move(h.position, pg, h.next_move)
        said, token = words.move_said(h.position, pg, h.next_move)
        # the words, then the move in notation on the cell they name, to paste into --after
        shown = f"{said}   [{token}]"
    if args.json:
        data = result_record(h.position, pg, r, formats.shown(args.file), args.index or 1)
        print(json.dumps({**data, "next_move": move, "next_move_words": said}))
    elif r.moves == 0:
        print("already solved")
    elif r.status == "optimal":
        print(f"next move: {shown}")
        print(f"moves still needed: {r.moves} (proved optimal: {r.proof})")
    elif r.lower_bound >= UNSOLVABLE:
        print("next move: - (no sequence of moves solves this board)")
    elif shown is not None:  # the next move of the best solution the limit allowed
        print(f"next move: {shown} (best found, {r.moves} moves; not proved optimal)")
        print(f"moves still needed: between {r.lower_bound} and {r.moves}")
    else:
        print("next move: - (no solution found within the time limit)")
        print(f"moves still needed: at least {r.lower_bound}")
    return EXIT_CODES[r.status]
