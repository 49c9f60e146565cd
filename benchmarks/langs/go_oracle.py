"""lore's Go call edges against gopls (Debian's `gopls`), on real Go modules.

    python benchmarks/langs/go_oracle.py PATH/TO/MODULE [...] [--sites 400] [--seed 0]

The machine has no Go module proxy, so the oracle reads a copy of each module whose go.mod keeps
only its module path (GOPROXY=off, -mod=mod): calls into other modules are then unresolved for
gopls as they are outside the project for lore, and every in-project definition still resolves.

Prints recall, strict and edge precision, and the unresolved share per project, then the
disagreements by cause with examples (see benchmarks/langs/harness.py). Not run in CI: it needs
gopls and takes minutes.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402

from harness import run_lsp  # noqa: E402


def offline_module(root: Path, work: Path) -> Path:
    """A copy of the module ``root`` whose go.mod names only the module (its requirements can't be fetched)."""
    copy = work / f"{root.name}-gopls"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git", ".lore"), symlinks=True)
    for mod in copy.rglob("go.mod"):
        text = mod.read_text(encoding="utf-8")
        head = re.search(r"^module\s+\S+", text, flags=re.MULTILINE)
        go = re.search(r"^go\s+\S+", text, flags=re.MULTILINE)
        mod.write_text("\n".join(m.group(0) for m in (head, go) if m) + "\n", encoding="utf-8")
        (mod.parent / "go.sum").unlink(missing_ok=True)
    return copy


if __name__ == "__main__":
    os.environ.setdefault("GOPROXY", "off")
    os.environ.setdefault("GOFLAGS", "-mod=mod")
    run_lsp(__doc__.splitlines()[0], ("go",), "go", ["gopls"], warmup=2.0, prepare=offline_module)
