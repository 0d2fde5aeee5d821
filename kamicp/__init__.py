"""kamicp: exact solver for flood-fill puzzles."""

import os

__version__ = "0.1.0"

# Numba's compiled bound loops are cached in a user cache folder, not beside the package:
# cache files in an installed package's __pycache__ are not pip's, so uninstalling it (as
# `pip install -e .` does after `pip install .`) left a `kamicp` folder of them in
# site-packages, which then shadowed the editable install (the `kamicp` command failed to
# import). A NUMBA_CACHE_DIR of the user's own is kept.
os.environ.setdefault(
    "NUMBA_CACHE_DIR",
    os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "kamicp"),
)
