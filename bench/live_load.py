"""Live load: thousands of polling phones and a referee on a 128-pair event in the middle of Saturday.
The bench lives in the package ``bench/live_load/`` (its ``__init__.py`` says what it does and its
options); this file runs it: ``.venv/bin/python bench/live_load.py --help``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.live_load.__main__ import main  # noqa: E402 (the project's root first on the path)

if __name__ == "__main__":
    main()
