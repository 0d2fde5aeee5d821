"""The CP-SAT models: "solvable in at most T moves?" decided by OR-Tools' CP-SAT.

:mod:`~kamicp.models.cpsat.free` (KAMI 2) and :mod:`~kamicp.models.cpsat.pivot` (Flood-It)
build one model each; :mod:`~kamicp.models.cpsat.horizon` picks one and decides a horizon.
The argument is ``encodings/cpsat.md``. OR-Tools is heavy, so the modules are imported by
name.
"""

__all__: list[str] = []
