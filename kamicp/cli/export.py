"""``kamicp export``: write the model of one horizon ("solvable in at most K moves?") as
DIMACS CNF or a CP-SAT proto, for other solvers."""

from __future__ import annotations

import argparse
import sys

from kamicp.cli.args import COUNT, PATH, add_puzzle_args, final_colour, load_boards
from kamicp.cli.output import ensure_not_input
from kamicp.errors import KamicpError
from kamicp.game.regions import region_graph
from kamicp.models.export import export_cpsat, export_dimacs
from kamicp.plural import count

__all__ = ["add_export", "run_export"]


def add_export(p: argparse.ArgumentParser) -> None:
    """Add the options of ``export``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p, format_flag="--input-format")
    p.add_argument("--moves", type=COUNT, required=True, metavar="K", help="the horizon")
    p.add_argument(
        "--format",
        dest="model_format",
        default="dimacs",
        choices=("dimacs", "cpsat"),
        help="dimacs (default) or cpsat (proto)",
    )
    p.add_argument("--final-colour", metavar="X", help="the board must end in colour X")
    p.add_argument(
        "--out", type=PATH, metavar="PATH", help="output file (default: standard output)"
    )
    p.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    """Write the first puzzle's model to ``--out`` (and print its name) or standard output.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``export``.

    Returns
    -------
    int
        The exit code: 0.

    Raises
    ------
    KamicpError
        If the horizon is longer than the board's regions, ``--out`` is an input, the final
        colour is not in the palette, or the input is bad.
    """
    board = load_boards(args)[0]
    g = region_graph(board)
    final = final_colour(args, board)
    if args.moves < 0:
        raise KamicpError(f"--moves {args.moves}: must be 0 or more")
    if args.moves > g.n:
        # n moves always suffice (n - 1 merges per piece, one recolouring each), so a longer
        # horizon asks the same question with a larger model, which can take minutes and
        # gigabytes to build.
        raise KamicpError(
            f"--moves {args.moves}: more than this board's {count(g.n, 'region')}; a horizon of "
            f"{g.n} has the same answer (each piece needs at most its regions' count of moves)"
        )
    if args.out is not None:
        ensure_not_input(args.out, [args.file])
    if args.model_format == "cpsat":
        text = export_cpsat(g, args.moves, final, path=args.out)
    else:
        text = export_dimacs(g, args.moves, final)
        if args.out is not None:
            with open(args.out, "w") as f:
                f.write(text)
    if args.out is None:
        sys.stdout.write(text)
    else:
        print(args.out)
    return 0
