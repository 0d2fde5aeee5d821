"""``python -m kamicp``: the ``kamicp`` command, as the console script runs it."""

from kamicp.cli.main import main

__all__: list[str] = []

raise SystemExit(main())
