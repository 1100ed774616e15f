"""``python -m companion`` runs the ``atelier`` command line."""

from companion.cli.main import main

raise SystemExit(main())
