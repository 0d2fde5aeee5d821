"""``kamicp verify``: check a certificate of optimality that ``solve --certificate`` wrote,
step by step."""

from __future__ import annotations

import argparse
import os

from kamicp.cli.args import SECONDS
from kamicp.errors import KamicpError
from kamicp.proof.certificate import verify

__all__ = ["add_verify", "run_verify"]


def add_verify(p: argparse.ArgumentParser) -> None:
    """Add the options of ``verify``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("dir", help="certificate folder")
    p.add_argument("--no-drat-trim", action="store_true", help="skip drat-trim even if on PATH")
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds for the proof check")
    p.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    """Print each step of the certificate's check and the verdict.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``verify``.

    Returns
    -------
    int
        0 if every step passed, else 1.

    Raises
    ------
    KamicpError
        If the folder does not exist or is a file: bad input (exit 2), not a failed check.
    """
    if not os.path.exists(args.dir):
        raise KamicpError(f"{args.dir}: no such folder")
    if not os.path.isdir(args.dir):
        raise KamicpError(f"{args.dir}: a file, not a certificate folder")
    ok = True
    for step in verify(args.dir, drat_trim=not args.no_drat_trim, time_limit=args.time_limit):
        print(f"{'ok  ' if step.ok else 'FAIL'}  {step.name}: {step.detail}")
        ok &= step.ok
    print("certificate verified" if ok else "certificate REJECTED")
    return 0 if ok else 1
