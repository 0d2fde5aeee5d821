"""Running many puzzles: bench and batch runs, cross-checks of solvers and of claims, the
JSON record of a result, the progress bar."""
