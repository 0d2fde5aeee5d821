"""What a command leaves behind: its exit code for a status, and the files it writes, each
refused before the work when it would overwrite an input or cannot be made."""

from __future__ import annotations

import os

from kamicp.errors import KamicpError

__all__ = ["EXIT_CODES", "ensure_not_input", "ensure_output_file"]

EXIT_CODES = {"optimal": 0, "feasible": 0, "infeasible": 1, "unknown": 3}


def ensure_not_input(out: str, inputs: list[str]) -> None:
    """Refuse to write over a file the user gave as input.

    Parameters
    ----------
    out : str
        The file to be written.
    inputs : list of str
        The input files (names that do not exist are skipped).

    Raises
    ------
    KamicpError
        If ``out`` is one of ``inputs``, under any name.
    """
    for path in inputs:
        if os.path.exists(out) and os.path.exists(path) and os.path.samefile(out, path):
            raise KamicpError(f"{out}: refusing to overwrite the input file")


def ensure_output_file(out: str, inputs: list[str]) -> None:
    """Refuse, before the work rather than after it, an output file that cannot be written.

    Parameters
    ----------
    out : str
        The file to be written.
    inputs : list of str
        The input files.

    Raises
    ------
    KamicpError
        If ``out`` is an input, its folder is missing, or a folder stands in its place.
    """
    ensure_not_input(out, inputs)
    folder = os.path.dirname(out) or "."
    if not os.path.isdir(folder):
        raise KamicpError(f"{out}: no such folder: {folder}")
    if os.path.isdir(out):
        raise KamicpError(f"{out}: a folder, not a file")
