from kamicp.cli import main

raise SystemExit(main())
