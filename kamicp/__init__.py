"""kamicp: exact solver for flood-fill puzzles."""

__version__ = "0.1.0"
