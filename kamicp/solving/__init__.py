"""Solving one puzzle end to end: the driver, the portfolio, horizons, hints."""
