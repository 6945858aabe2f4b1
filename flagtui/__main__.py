from flagtui.cli import main

raise SystemExit(main())
