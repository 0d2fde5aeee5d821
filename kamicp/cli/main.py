"""The ``kamicp`` command: its parser, made of one module per subcommand, and how a run ends.

Exit codes: 0 solved (or a valid solution checked), 1 proved infeasible within
``--max-moves`` (or ``check`` found the moves wrong), 2 bad input, 3 unknown (a time or node
limit was hit), 70 a bug in kamicp, 130 interrupted. Bad input is reported as one line naming
the file and line, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

# Every subcommand module is imported here, at start-up: the parser needs each one's options
# for --help. The heavy dependencies (ortools, pysat, PIL) load only inside the kamicp
# modules that use them, so this costs little beyond the bounds every solve needs.
from kamicp import __version__
from kamicp.cli import (
    batch,
    bench,
    check,
    cross_check,
    export,
    hint,
    info,
    render,
    show,
    solve,
    verify,
)
from kamicp.errors import InternalError, KamicpError

__all__ = ["COMMANDS", "INTERNAL_ERROR", "build_parser", "main"]

INTERNAL_ERROR = 70  # a bug in kamicp (sysexits' EX_SOFTWARE); bad input is 2

# Each command's name, one-line help, and the function that adds its options.
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "info": (info.HELP, info.add_info),
    "solve": (solve.HELP, solve.add_solve),
    "check": (check.HELP, check.add_check),
    "show": (show.HELP, show.add_show),
    "render": (render.HELP, render.add_render),
    "bench": (bench.HELP, bench.add_bench),
    "batch": (batch.HELP, batch.add_batch),
    "hint": (hint.HELP, hint.add_hint),
    "cross-check": (cross_check.HELP, cross_check.add_cross_check),
    "export": (export.HELP, export.add_export),
    "verify": (verify.HELP, verify.add_verify),
}


class _Parser(argparse.ArgumentParser):
    """Bad arguments in one line (exit 2), as bad input files are; ``--help`` has the rest."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``kamicp`` command and all its subcommands.

    Returns
    -------
    argparse.ArgumentParser
        A parser whose result has ``run``, the chosen command's function, when a command is
        given.

    Examples
    --------
    >>> args = build_parser().parse_args(["check", "board.txt", "0,0:G"])
    >>> args.run.__name__, args.file, args.moves
    ('run_check', 'board.txt', ['0,0:G'])
    """
    parser = _Parser(
        prog="kamicp", description="Exact solver for flood-fill puzzles (KAMI 2, Flood-It)."
    )
    parser.add_argument("--version", action="version", version=f"kamicp {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")
    for name, (text, adder) in COMMANDS.items():
        adder(sub.add_parser(name, help=text, description=text))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``kamicp`` command.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program's name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code (see the module's docstring). Errors are printed as one line on
        standard error; ``KAMICP_TRACEBACK`` set in the environment raises a bug instead.

    Raises
    ------
    SystemExit
        From argparse: for ``--help``, ``--version`` and bad arguments (code 2).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except KamicpError as err:
        print(f"kamicp: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # where a command has nothing to report (solve and bench do)
        print("kamicp: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:  # a file that cannot be written (or read): one line, not a traceback
        where = f"{err.filename}: " if err.filename else ""
        print(f"kamicp: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except Exception as err:  # a bug: one line (with the bounds, from solve), exit 70
        if os.environ.get("KAMICP_TRACEBACK"):
            raise
        if isinstance(err, MemoryError):  # not a bug: a board too large for this machine
            line = "out of memory"
        elif isinstance(err, InternalError):  # solve's line, with the bounds
            line = str(err)
        else:
            line = f"internal error: {type(err).__name__}: {err} (a bug in kamicp)"
        print(f"kamicp: {line}", file=sys.stderr)
        return INTERNAL_ERROR
