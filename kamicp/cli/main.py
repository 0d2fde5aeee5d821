"""The ``kamicp`` command: its parser, made of one module per subcommand, and how a run ends.

Exit codes: 0 solved (or a valid solution checked), 1 proved infeasible within
``--max-moves`` (or ``check`` found the moves wrong), 2 bad input, 3 unknown (a time or node
limit was hit), 70 a bug in kamicp, 130 interrupted. Bad input is reported as one line naming
the file and line, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Collection

from kamicp import __version__
from kamicp.errors import InternalError, KamicpError
from kamicp.procs.interruptible import sigterm_as_interrupt

__all__ = ["COMMANDS", "INTERNAL_ERROR", "build_parser", "command_of", "main"]

INTERNAL_ERROR = 70  # a bug in kamicp (sysexits' EX_SOFTWARE); bad input is 2

# Each command's one-line help. Its options come from ``kamicp.cli.<name>`` (``-`` as ``_``),
# whose ``add_<name>`` adds them; that module is imported only when its command runs, since
# each pulls in what the command needs (the bounds and Numba, networkx, PIL) and the parser
# needs the other commands' names alone.
COMMANDS: dict[str, str] = {
    "info": "Describe a puzzle: geometry, rules, cells, regions, colours, islands, par, bounds.",
    "solve": "Solve puzzles; prints the moves and optimal / feasible / infeasible / unknown.",
    "check": "Replay a move sequence: illegal moves, whether the board ends solved, count vs par.",
    "show": "Draw the board in the terminal in colour, in its true geometry.",
    "render": "Draw the board (and one frame per move of a solution) as SVG, PNG or animated GIF.",
    "bench": "Run solvers side by side on files and folders; print a table with totals, medians.",
    "batch": "Solve every puzzle of files and folders into a resumable JSON-lines file.",
    "hint": "The next move of an optimal continuation and the proved number of moves left.",
    "cross-check": "Run several solvers, replay every solution, report each disagreement "
    "(exit 1 if any); with --claims FILE, judge another solver's answers.",
    "export": "Write the model of one horizon (DIMACS CNF or CP-SAT proto) for other solvers.",
    "verify": "Say what a certificate of ``solve --certificate`` certifies, check it step by "
    "step, say what it rests on, and whether it is for your puzzle.",
    "play": "Open a local web page to play, hint and solve a board (the browser opens it).",
}


def command_of(argv: list[str]) -> str | None:
    """The command named in ``argv``: its first word that is no option.

    The ``kamicp`` command's own options (``--help``, ``--version``) take no value, so the
    first other word is the command.

    Parameters
    ----------
    argv : list of str
        The arguments after the program's name.

    Returns
    -------
    str or None
        The command (perhaps not one of :data:`COMMANDS`: argparse then says so), or None.

    Examples
    --------
    >>> command_of(["--version"]), command_of(["solve", "a.txt"])
    (None, 'solve')
    """
    return next((word for word in argv if not word.startswith("-")), None)


class _Parser(argparse.ArgumentParser):
    """Bad arguments in one line (exit 2), as bad input files are; ``--help`` has the rest."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the ``kamicp`` command and its subcommands.

    Parameters
    ----------
    commands : collection of str, optional
        The commands whose options are added (their modules imported); None for all. Every
        command is listed in ``--help`` either way.

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
    for name, text in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        if commands is None or name in commands:
            module = name.replace("-", "_")
            adder = getattr(importlib.import_module(f"kamicp.cli.{module}"), f"add_{module}")
            adder(p)
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
    argv = sys.argv[1:] if argv is None else argv
    with sigterm_as_interrupt():  # reading or building a large board also ends with one line
        return _run(argv)


def _run(argv: list[str]) -> int:
    """Parse ``argv`` and run its command; errors as one line and an exit code."""
    try:
        # the command's module is imported here (a second of imports on a first run): a
        # Ctrl-C meanwhile ends with one line too
        command = command_of(argv)
        parser = build_parser([command] if command else [])
        args = parser.parse_args(argv)
        if not hasattr(args, "run"):
            parser.print_help()
            return 2
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
