"""``kamicp verify``: say what a certificate certifies, check it step by step, and say what
the verdict rests on; given the user's puzzle, check that the certificate is for it."""

from __future__ import annotations

import argparse
import os

from kamicp.cli.args import SECONDS
from kamicp.errors import KamicpError
from kamicp.proof.verification import read_question, verify

__all__ = ["add_verify", "run_verify"]


def add_verify(p: argparse.ArgumentParser) -> None:
    """Add the options of ``verify``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("dir", help="certificate folder")
    p.add_argument(
        "puzzle",
        nargs="?",
        help="your puzzle file: also check that the certificate is for this board",
    )
    p.add_argument(
        "--rules",
        choices=("free", "pivot"),
        help="the rules your puzzle is asked under (default: the ones its file gives)",
    )
    p.add_argument("--no-drat-trim", action="store_true", help="skip drat-trim even if on PATH")
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds for the proof check")
    p.set_defaults(run=run_verify)


def _question_lines(manifest: dict) -> list[str]:
    """The question a certificate answers, a line per part."""
    q = manifest["question"]
    pivot = q.get("pivot")
    lines = [
        f"puzzle:       {q.get('name', '?')} ({q['puzzle_file']}, puzzle {q['puzzle_index']})",
        f"digest:       {q['digest']}",
        f"geometry:     {q.get('geometry', '?')}",
        f"rules:        {q['rules']}" + (f", pivot cell {pivot}" if q["rules"] == "pivot" else ""),
        f"final colour: {q['final_colour'] or 'any'}",
        f"claim:        the optimum is {manifest['optimum']} moves",
    ]
    return lines


def run_verify(args: argparse.Namespace) -> int:
    """Print the question, each step of the certificate's check, and the verdict.

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
        If the folder or the puzzle file does not exist: bad input (exit 2), not a failed
        check.
    """
    if not os.path.exists(args.dir):
        raise KamicpError(f"{args.dir}: no such folder")
    if not os.path.isdir(args.dir):
        raise KamicpError(f"{args.dir}: a file, not a certificate folder")
    if args.puzzle is not None and not os.path.isfile(args.puzzle):
        raise KamicpError(f"{args.puzzle}: no such puzzle file")
    if args.rules and args.puzzle is None:
        raise KamicpError("--rules: says which rules your puzzle is asked under; give the puzzle")
    manifest, _ = read_question(args.dir)
    if manifest is not None:
        print("\n".join(_question_lines(manifest)))
    ok = True
    rests_on = []
    steps = verify(
        args.dir,
        args.puzzle,
        rules=args.rules,
        drat_trim=not args.no_drat_trim,
        time_limit=args.time_limit,
    )
    for step in steps:
        print(f"{'ok  ' if step.ok else 'FAIL'}  {step.name}: {step.detail}")
        ok &= step.ok
        if step.rests_on and step.rests_on not in rests_on:
            rests_on.append(step.rests_on)
    if ok and rests_on:
        print("rests on:     " + "; ".join(rests_on))
    print("certificate verified" if ok else "certificate REJECTED")
    return 0 if ok else 1
