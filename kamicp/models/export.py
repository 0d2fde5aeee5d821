"""Export the model of one horizon for other solvers.

- ``dimacs``: the CNF of :mod:`kamicp.models.sat.cnf` ("solvable in at most K moves", every
  constraint a hard clause), with ``c var N = meaning`` comment lines mapping each variable to
  a region, step and colour (``encodings/sat.md``, "Determinism and DIMACS");
- ``cpsat``: the CP-SAT model of :mod:`kamicp.models.cpsat.horizon` as a protocol buffer, in
  text format on standard output or a ``.txt`` file, else binary (``CpModelProto``), ready
  for any CP-SAT front end (``solve_model`` from the command line, or another language).
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph

__all__ = ["EXPORT_FORMATS", "export_dimacs", "export_cpsat"]

EXPORT_FORMATS = ("dimacs", "cpsat")


def export_dimacs(g: RegionGraph, horizon: int, final_colour: int | None = None) -> str:
    """The DIMACS CNF of "``g`` solvable in at most ``horizon`` moves", variables named.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.

    Returns
    -------
    str
        The DIMACS text (:func:`kamicp.models.sat.cnf.dimacs_for_horizon`).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> text = export_dimacs(from_edges([0, 1, 0], [(0, 1), (1, 2)]), 1)
    >>> "p cnf" in text
    True
    """
    from kamicp.models.sat.cnf import dimacs_for_horizon  # pysat is heavy: only for this format

    return dimacs_for_horizon(g, horizon, final_colour)


def export_cpsat(
    g: RegionGraph, horizon: int, final_colour: int | None = None, path: str | None = None
) -> str | None:
    """The CP-SAT model proto of "``g`` solvable in at most ``horizon`` moves".

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.
    path : str or None
        Where to write it: text when it ends in ``.txt``, else binary (as
        ``CpModel.export_to_file`` does); None returns the text.

    Returns
    -------
    str or None
        The proto as text, or None when written to ``path``.

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    from kamicp.models.cpsat.horizon import build_model  # ortools is heavy: only for this format

    model, _ = build_model(g, horizon, final_colour)
    if path is None:
        return str(model.proto)
    if not model.export_to_file(path):
        raise OSError(f"{path}: could not write the model")
    return None
