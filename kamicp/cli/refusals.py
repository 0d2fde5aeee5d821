"""Options that would do nothing with the others given are refused, one line and exit 2,
rather than ignored: a user who typed one expects it to change the answer."""

from __future__ import annotations

import argparse

from kamicp.errors import KamicpError
from kamicp.solving.options import EXACT_SOLVERS, TETRAPOD_DEPTH_SOLVERS

__all__ = [
    "NODE_LIMIT_SOLVERS",
    "WORKERS_SOLVERS",
    "refuse_unused_batch",
    "refuse_unused_bench",
    "refuse_unused_render",
    "refuse_unused_solve",
]

# The solvers that count nodes (the reference searches; the portfolio's pivot route runs
# the compiled A*) and the ones that run several processes or CP-SAT workers.
NODE_LIMIT_SOLVERS = ("bfs", "astar", "idastar", "pivot-astar", "portfolio")
WORKERS_SOLVERS = ("cpsat", "idastar", "portfolio")


def _either(names) -> str:
    """``a, b or c``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _only(option: str, solvers, solver: str) -> KamicpError:
    """The error of an option given to a solver that does not take it."""
    return KamicpError(f"{option}: only with --solver {_either(solvers)}, not {solver}")


def refuse_unused_solve(args: argparse.Namespace) -> None:
    """Refuse the options of ``solve`` that its solver or its other options leave unused.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``solve``.

    Raises
    ------
    KamicpError
        For ``--cap`` without ``--all-optimal``; ``--tetrapod-depth`` or ``--journal``
        without IDA*; ``--probe`` or ``--strategy`` with a solver that asks no horizons;
        ``--node-limit`` with one that counts no nodes; ``--workers`` above 1 with one that
        runs a single process.

    Examples
    --------
    >>> args = argparse.Namespace(cap=3, all_optimal=False)
    >>> refuse_unused_solve(args)
    Traceback (most recent call last):
    ...
    kamicp.errors.KamicpError: --cap: only with --all-optimal
    """
    if args.cap is not None and not args.all_optimal:
        raise KamicpError("--cap: only with --all-optimal")
    solver = args.solver
    for option, given in (("--tetrapod-depth", args.tetrapod_depth), ("--journal", args.journal)):
        if given is not None and solver not in TETRAPOD_DEPTH_SOLVERS:
            raise _only(option, TETRAPOD_DEPTH_SOLVERS, solver)
    for option, given in (("--probe", args.probe), ("--strategy", args.strategy)):
        if given and solver not in EXACT_SOLVERS:
            raise _only(option, EXACT_SOLVERS, solver)
    if args.node_limit is not None and solver not in NODE_LIMIT_SOLVERS:
        raise _only("--node-limit", NODE_LIMIT_SOLVERS, solver)
    if args.workers > 1 and solver not in WORKERS_SOLVERS:
        raise _only("--workers", WORKERS_SOLVERS, solver)
    if args.ray is not None and solver != "idastar":
        raise _only("--ray", ["idastar"], solver)


def refuse_unused_bench(args: argparse.Namespace, solvers: list[str]) -> None:
    """Refuse the options of ``bench`` that none of its solvers takes.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``bench``.
    solvers : list of str
        The solvers of ``--solver``.

    Raises
    ------
    KamicpError
        For ``--tetrapod-depth`` without idastar or portfolio among the solvers,
        ``--probe`` or ``--strategy`` without an exact model, ``--workers`` above 1 with
        none that runs several.
    """
    named = ",".join(solvers)
    checks = (
        ("--tetrapod-depth", args.tetrapod_depth is not None, TETRAPOD_DEPTH_SOLVERS),
        ("--probe", bool(args.probe), EXACT_SOLVERS),
        ("--strategy", args.strategy is not None, EXACT_SOLVERS),
        ("--workers", args.workers > 1, WORKERS_SOLVERS),
    )
    for option, given, takers in checks:
        if given and not set(takers) & set(solvers):
            raise KamicpError(
                f"{option}: only with {_either(takers)} among the solvers, not {named}"
            )


def refuse_unused_render(args: argparse.Namespace) -> None:
    """Refuse the options of ``render`` that do nothing without a solution to draw.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``render``.

    Raises
    ------
    KamicpError
        For ``--time-limit`` without ``--solve``, ``--frames`` without ``--solve`` or
        ``--solution`` (one frame only).
    """
    if args.time_limit is not None and not args.solve:
        raise KamicpError("--time-limit: only with --solve (the seconds of its solve)")
    if args.frames is not None and not (args.solve or args.solution is not None):
        raise KamicpError("--frames: only with --solve or --solution (one frame a move)")


def refuse_unused_batch(args: argparse.Namespace) -> None:
    """Refuse the options of ``batch`` that a Ray cluster leaves unused.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``batch``.

    Raises
    ------
    KamicpError
        For ``--memory-limit`` with ``--ray``: the cluster's own limits hold there.
    """
    if args.ray and args.memory_limit is not None:
        raise KamicpError("--memory-limit: not with --ray (the cluster's own limits hold there)")
