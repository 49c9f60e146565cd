"""Type-check gate: mypy over lore/ against a baseline that only shrinks.

Each error is keyed by (file, error code, message) without its line number, so moving code does not
count as a new error, while a new error of any kind does. Exit 1 when mypy reports an error the
baseline does not hold; print how many baseline errors are gone so the baseline can be tightened with
``python .ci/mypy_gate.py --update`` (which refuses to add errors).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "mypy-baseline.json"
LINE = re.compile(r"^(?P<file>[^:]+):\d+(?::\d+)?: error: (?P<msg>.*?)(?:  \[(?P<code>[a-z-]+)\])?$")


def run_mypy() -> Counter[str]:
    done = subprocess.run([sys.executable, "-m", "mypy", "lore"], cwd=HERE.parent, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"mypy failed to run (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    found: Counter[str] = Counter()
    for line in done.stdout.splitlines():
        m = LINE.match(line)
        if m:
            found[f"{m['file']} [{m['code'] or 'misc'}] {m['msg']}"] += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the current errors as the baseline "
                        "(only when it removes errors and adds none, unless --force)")
    parser.add_argument("--force", action="store_true", help="with --update: accept new errors too")
    args = parser.parse_args()
    found = run_mypy()
    base: Counter[str] = Counter(json.loads(BASELINE.read_text())) if BASELINE.exists() else Counter()
    new = found - base
    gone = base - found
    print(f"mypy: {sum(found.values())} error(s); baseline {sum(base.values())}; "
          f"new {sum(new.values())}; fixed {sum(gone.values())}")
    if args.update:
        if new and not args.force:
            print("refusing to add errors to the baseline (use --force after a deliberate change)")
            return 1
        BASELINE.write_text(json.dumps(dict(sorted(found.items())), indent=1) + "\n")
        print(f"baseline written: {BASELINE}")
        return 0
    for key, n in sorted(new.items()):
        print(f"NEW x{n}: {key}")
    if gone:
        print(f"{sum(gone.values())} baseline error(s) fixed: run `python .ci/mypy_gate.py --update` to lock it in")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
