"""`python -m solver ...`: the `nhex` command without installing it."""

import sys

from .cli import main

sys.exit(main())
