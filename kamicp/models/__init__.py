"""Time-indexed models of "solvable in T moves?": the SAT and CP-SAT encodings and exports.

Two packages, one per solver: :mod:`kamicp.models.sat` (the CNF encoding, python-sat) and
:mod:`kamicp.models.cpsat` (the CP-SAT models, OR-Tools). Both add their clauses through
:mod:`~kamicp.models.clauses`; :mod:`~kamicp.models.export` writes a horizon's model for
other solvers. The submodules are imported by name (python-sat and OR-Tools are heavy), so
this package and its two packages re-export nothing.
"""

__all__: list[str] = []
