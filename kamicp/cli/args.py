"""The arguments several commands share: checked number and path types, the puzzle file and
its options, and reading the boards those options pick.

A bad value is argparse's one-line error (exit 2), as a bad input file is.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from kamicp import formats
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation
from kamicp.game.board import Board
from kamicp.procs import memory
from kamicp.solving.options import SOLVERS

__all__ = [
    "COUNT",
    "DEPTH",
    "MOST_PROCESSES",
    "MOST_SECONDS",
    "PATH",
    "POSITIVE",
    "PROCESSES",
    "SECONDS",
    "SECONDS_OR_NONE",
    "SIZE",
    "add_memory_limit",
    "add_puzzle_args",
    "add_workers",
    "final_colour",
    "jobs_option",
    "load_boards",
    "load_puzzles",
    "memory_limit",
    "memory_limited",
    "memory_watched",
    "solver_list",
]


def _number(kind, least, strict: bool = False, most: float | None = None):
    """An argparse type: a number of ``kind`` at least ``least`` (above it if ``strict``),
    and at most ``most`` if given."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value != value or value < least or (strict and value == least):  # NaN too
            raise argparse.ArgumentTypeError(f"must be {'>' if strict else '>='} {least}: {text}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be <= {most:,}: {text}")
        return value

    return parse


# The pools and pipes wait for at most the time left, which the system takes as a C int of
# milliseconds (about 24 days at most): a longer limit ('inf', 1e308) would overflow it.
MOST_SECONDS = 1_000_000
# Each worker or job is a process of its own, and CP-SAT refuses a count past a C int.
MOST_PROCESSES = 256

COUNT = _number(int, 0)  # moves
POSITIVE = _number(int, 1)  # nodes, solutions, a beam's width, a puzzle's index
PROCESSES = _number(int, 1, most=MOST_PROCESSES)  # workers, jobs
SECONDS = _number(float, 0, strict=True, most=MOST_SECONDS)  # time limits
SECONDS_OR_NONE = _number(float, 0, most=MOST_SECONDS)  # --probe: 0 means none


def SIZE(text: str) -> int:
    """An argparse type: a size in bytes, such as ``4G``, ``512M``, ``2.5G`` or ``1000000``.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    int
        Bytes (:func:`kamicp.procs.memory.parse_size`).

    Raises
    ------
    argparse.ArgumentTypeError
        Not such a size.

    Examples
    --------
    >>> SIZE("1.5K")
    1536
    """
    try:
        return memory.parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def DEPTH(text: str) -> int | None:
    """An argparse type: ``--tetrapod-depth``, a number of moves or ``auto``.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    int or None
        The number of moves; None for ``auto``.

    Raises
    ------
    argparse.ArgumentTypeError
        If ``text`` is neither ``auto`` nor a number of moves.

    Examples
    --------
    >>> DEPTH("2"), DEPTH("auto")
    (2, None)
    """
    if text == "auto":
        return None
    try:
        return COUNT(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"a number of moves or 'auto': {error}") from None


def PATH(text: str) -> str:
    """An argparse type: a file or folder name, not empty.

    An empty name would otherwise read as the option not given (``--journal ""`` would run
    without a journal).

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    str
        ``text`` unchanged.

    Raises
    ------
    argparse.ArgumentTypeError
        If ``text`` is empty.

    Examples
    --------
    >>> PATH("rows.csv")
    'rows.csv'
    """
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    return text


def add_puzzle_args(
    p: argparse.ArgumentParser, format_flag: str = "--format", many: bool = False
) -> None:
    """Add the puzzle file and the options that say how to read it.

    Parameters
    ----------
    p : argparse.ArgumentParser
        A command's parser.
    format_flag : str
        The name of the input-format option (``export`` takes ``--format`` for its output).
    many : bool
        Take one or more files and folders (``files``, read by :func:`load_puzzles`)
        instead of one file (``file``).
    """
    kinds = (
        "grid text, flood text, .puz, JSON, floodit-99, digit lines; - reads stdin; "
        "a Tatham flood game ID is read as the puzzle"
    )
    if many:
        p.add_argument(
            "files", nargs="+", metavar="FILE", help=f"puzzle files or folders ({kinds})"
        )
    else:
        p.add_argument("file", help=f"puzzle file ({kinds})")
    p.add_argument(
        format_flag,
        dest="format",
        choices=formats.FORMATS,
        help="input format (default: detected from content)",
    )
    p.add_argument("--rules", choices=("free", "pivot"), help="override the file's rule set")
    p.add_argument(
        "--index", type=POSITIVE, help="only the N-th puzzle (1-based) of a multi-puzzle file"
    )


def add_workers(p: argparse.ArgumentParser) -> None:
    """Add ``--workers``, as ``solve`` and ``bench`` take it.

    Parameters
    ----------
    p : argparse.ArgumentParser
        A command's parser.
    """
    p.add_argument(
        "--workers",
        type=PROCESSES,
        default=1,
        help="CP-SAT workers, or idastar processes (default 1; the portfolio: 1 a backend)",
    )


def add_memory_limit(p: argparse.ArgumentParser, text: str = "") -> None:
    """Add ``--memory-limit SIZE`` (:func:`memory_limit` reads it, default included).

    Parameters
    ----------
    p : argparse.ArgumentParser
        A command's parser.
    text : str
        What the limit covers, added to the help.
    """
    default = memory.format_size(memory.default_limit())
    p.add_argument(
        "--memory-limit",
        type=SIZE,
        metavar="SIZE",
        help=f"resident memory of kamicp and its processes{text}, such as 4G or 512M; past "
        f"it the bounds proved so far are the answer (default {default}: 4G or 3/4 of the RAM)",
    )


def memory_limit(args: argparse.Namespace) -> int:
    """The bytes of ``--memory-limit``, or :func:`kamicp.procs.memory.default_limit`."""
    return args.memory_limit or memory.default_limit()


def memory_limited(run: Callable[[argparse.Namespace], int]) -> Callable:
    """A command's ``run_*`` made to run within its memory limit (:func:`memory_watched`).

    Parameters
    ----------
    run : callable
        Takes the parsed arguments, returns the exit code.

    Returns
    -------
    callable
        The same, watched.
    """

    @functools.wraps(run)
    def limited(args: argparse.Namespace) -> int:
        with memory_watched(args):
            return run(args)

    return limited


@contextmanager
def memory_watched(args: argparse.Namespace) -> Iterator[None]:
    """Watch the memory of this process and its children within the block (the limit of
    :func:`memory_limit`); on leaving, one line on standard error if it was reached.

    Parameters
    ----------
    args : argparse.Namespace
        A command's arguments, with ``memory_limit``.

    Returns
    -------
    context manager
        Yields None.
    """
    with memory.limited(memory_limit(args)) as watch:
        try:
            yield
        finally:
            if watch.reached_after is not None:
                peak = memory.format_size(watch.peak)
                when = f"after {watch.reached_after:.1f} s, peak {peak}"
                print(f"kamicp: {memory.note()} ({when}): bounds only", file=sys.stderr)


def jobs_option(p: argparse.ArgumentParser, text: str) -> None:
    """Add ``--jobs``: how many puzzles run side by side.

    Parameters
    ----------
    p : argparse.ArgumentParser
        A command's parser.
    text : str
        The option's help.
    """
    p.add_argument("--jobs", type=PROCESSES, default=1, metavar="N", help=text)


def load_boards(args: argparse.Namespace) -> list[Board]:
    """The boards of the puzzle file that :func:`add_puzzle_args`'s options pick.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments with ``file``, ``format``, ``index`` and ``rules``.

    Returns
    -------
    list of Board
        Every puzzle of the file, or the one ``--index`` names, under ``--rules`` if given.

    Raises
    ------
    KamicpError
        If the file cannot be read or ``--index`` is past its last puzzle.
    """
    boards = formats.load(args.file, fmt=args.format)
    if args.index is not None:
        if not 1 <= args.index <= len(boards):
            raise KamicpError(
                f"{formats.shown(args.file)}: --index {args.index}: the file has {len(boards)}"
            )
        boards = [boards[args.index - 1]]
    if args.rules:
        boards = [b.with_rules(args.rules) for b in boards]
    return boards


def load_puzzles(args: argparse.Namespace) -> list[tuple[str, int, Board]]:
    """The puzzles of the files and folders that :func:`add_puzzle_args` (``many``) picks.

    Every file is read before the first puzzle is solved, so a bad one is an error before a
    long run starts.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments with ``files``, ``format``, ``index`` and ``rules``.

    Returns
    -------
    list of tuple of (str, int, Board)
        Each puzzle's file (as messages show it), its 1-based index in the file, and the
        board (under ``--rules`` if given), in the order given, folders sorted.

    Raises
    ------
    KamicpError
        If a file cannot be read, ``--index`` is given with several files or a folder, or
        it is past the file's last puzzle.
    """
    paths = formats.sources(args.files)
    if args.index is not None and (len(paths) != 1 or paths[0] != args.files[0]):
        raise KamicpError("--index picks a puzzle of one file: give one file, not several")
    found = []
    for path in paths:
        one = argparse.Namespace(**{**vars(args), "file": path})
        first = 1 if args.index is None else args.index
        found += [(formats.shown(path), i, b) for i, b in enumerate(load_boards(one), first)]
    return found


def final_colour(args: argparse.Namespace, board: Board) -> int | None:
    """The colour index of ``--final-colour``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments with ``file`` and ``final_colour``.
    board : Board
        The board whose palette names the colour.

    Returns
    -------
    int or None
        The colour's index; None when the option is not given.

    Raises
    ------
    KamicpError
        One line naming the file, if the colour is not in the board's palette.
    """
    if args.final_colour is None:
        return None
    try:
        return notation.parse_colour(board, args.final_colour)
    except IllegalMove as err:
        raise KamicpError(f"{formats.shown(args.file)}: --final-colour: {err}") from None


def solver_list(text: str, option: str) -> list[str]:
    """The solvers of a comma-separated option value.

    Parameters
    ----------
    text : str
        The option's value, e.g. ``"bfs, sat"``.
    option : str
        The option's name, for the error.

    Returns
    -------
    list of str
        The solvers named, in order.

    Raises
    ------
    KamicpError
        If a name is not a solver, or none is named.

    Examples
    --------
    >>> solver_list("bfs, sat", "--solvers")
    ['bfs', 'sat']
    """
    solvers = [s.strip() for s in text.split(",") if s.strip()]
    for s in solvers:
        if s not in SOLVERS:
            raise KamicpError(f"{option}: unknown solver {s!r} (one of {', '.join(SOLVERS)})")
    if not solvers:  # would run nothing and exit 0, as if every check had passed
        raise KamicpError(f"{option}: no solver named (one or more of {', '.join(SOLVERS)})")
    return solvers
