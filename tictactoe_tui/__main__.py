"""`python -m tictactoe_tui` runs the command line."""

from tictactoe_tui.cli import main

raise SystemExit(main())
