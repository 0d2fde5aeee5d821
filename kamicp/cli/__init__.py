"""The kamicp command line: one module per subcommand, started by :func:`kamicp.cli.main.main`."""
