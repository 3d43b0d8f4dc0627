"""`python -m majordomus` is the same program as the `majordomus` command."""

import sys

from majordomus.cli.entry import main

sys.exit(main())
