"""The SAT model: "solvable in at most T moves?" as a CNF, decided by python-sat.

From the ground up: :mod:`~kamicp.models.sat.variables` (what each variable means, in
words), :mod:`~kamicp.models.sat.formula` (a CNF being written: named variables,
cardinality constraints), :mod:`~kamicp.models.sat.radius` and
:mod:`~kamicp.models.sat.symmetry` (a bound and the rules that remove solutions),
:mod:`~kamicp.models.sat.free` and :mod:`~kamicp.models.sat.pivot` (the clauses of each rule
set), :mod:`~kamicp.models.sat.encoding` (a puzzle's encoding, grown horizon by horizon),
:mod:`~kamicp.models.sat.cnf` (the fixed CNF of one horizon and its DIMACS),
:mod:`~kamicp.models.sat.solvers` (a python-sat solver run within a time limit),
:mod:`~kamicp.models.sat.horizon` (horizon decisions and proofs). The argument is
``encodings/sat.md``. python-sat is heavy, so the modules are imported by name.
"""

__all__: list[str] = []
