"""``python -m workbench.cli``: the same command as the installed ``workbench``."""

import sys

from workbench.cli import main

sys.exit(main())
