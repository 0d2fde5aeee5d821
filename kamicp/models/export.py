"""Export the model of one horizon for other solvers.

- ``dimacs``: the CNF of :mod:`kamicp.models.sat` ("solvable in at most K moves", every constraint
  a hard clause), with ``c var N = meaning`` comment lines mapping each variable to a region,
  step and colour;
- ``cpsat``: the CP-SAT model of :mod:`kamicp.models.cpsat` as a protocol buffer, in text format on
  standard output or a ``.txt`` file, else binary (``CpModelProto``), ready for
  any CP-SAT front end (``solve_model`` from the command line, or another language).
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph

EXPORT_FORMATS = ("dimacs", "cpsat")


def export_dimacs(g: RegionGraph, horizon: int, final_colour: int | None = None) -> str:
    from kamicp.models.sat import dimacs_for_horizon

    return dimacs_for_horizon(g, horizon, final_colour)


def export_cpsat(
    g: RegionGraph, horizon: int, final_colour: int | None = None, path: str | None = None
) -> str | None:
    """The CP-SAT model proto: returned as text, or written to ``path`` (text when it ends
    in ``.txt``, else binary, as ``CpModel.export_to_file`` does)."""
    from kamicp.models.cpsat import build_model

    model, _ = build_model(g, horizon, final_colour)
    if path is None:
        return str(model.proto)
    if not model.export_to_file(path):
        raise OSError(f"{path}: could not write the model")
    return None
