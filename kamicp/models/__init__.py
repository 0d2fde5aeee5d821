"""Time-indexed models of "solvable in T moves?": the SAT and CP-SAT encodings and exports.

The SAT side: :mod:`~kamicp.models.sat` (solvers, horizons, DIMACS, proofs) over the encodings
:mod:`~kamicp.models.sat_free` and :mod:`~kamicp.models.sat_pivot` (shared base
:mod:`~kamicp.models.sat_encoding`). The CP-SAT side: :mod:`~kamicp.models.cpsat` over
:mod:`~kamicp.models.cpsat_free` and :mod:`~kamicp.models.cpsat_pivot`. Both add their
clauses through :mod:`~kamicp.models.clauses`; :mod:`~kamicp.models.export` writes a horizon's
model for other solvers. The submodules are imported by name (python-sat and OR-Tools are
heavy), so this package re-exports nothing.
"""

__all__: list[str] = []
