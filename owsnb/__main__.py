"""``python -m owsnb`` runs the command line."""

from owsnb.cli import main

raise SystemExit(main())
