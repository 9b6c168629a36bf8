from __future__ import annotations

import os

from hypothesis import settings

# CI runs more examples; local runs stay quick.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
