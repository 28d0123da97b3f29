"""`python -m cf_guidance.hooks COMMAND`: the hook entrypoint without the fast launcher."""

import sys

from .dispatch import main

sys.exit(main())
