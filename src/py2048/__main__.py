"""``python -m py2048``: the same as the ``2048`` command."""

from py2048.cli import main

raise SystemExit(main())
