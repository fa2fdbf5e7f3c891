"""``python -m owsnb.server [SCENARIO] [options]``: the same as ``owsnb serve``."""

from owsnb.server.cli import main

raise SystemExit(main())
