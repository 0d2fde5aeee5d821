"""Time-indexed models of "solvable in T moves?": the SAT and CP-SAT encodings and exports."""
