"""`python -m solver ARGS` is `nhex ARGS` (the console script of pyproject.toml)."""

import sys

from .cli import main

sys.exit(main())
