from kamicp.cli.main import main

raise SystemExit(main())
