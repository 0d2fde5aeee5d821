"""Solving a puzzle end to end: the driver, the portfolio, horizons, hints, many puzzles."""
