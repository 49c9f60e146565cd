"""lore's Go call edges against gopls (Debian's `gopls`), on real Go modules.

    python benchmarks/langs/go_oracle.py PATH/TO/MODULE [...] [--sites 400] [--seed 0]

Prints recall, strict and edge precision, and the unresolved share per project, then the
disagreements by cause with examples (see benchmarks/langs/harness.py). Not run in CI: it needs
gopls and takes minutes.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import run_lsp  # noqa: E402

if __name__ == "__main__":
    run_lsp(__doc__.splitlines()[0], ("go",), "go", ["gopls"], warmup=2.0)
