"""A hostile round: random API values, broken plug-ins, edited results files and odd input
files, each judged as a user would see it (tests/hostile.py says how). Prints the counts per
kind and verdict; exits 1 on any raw exception, hang or silent change.

    python scripts/hostile_round.py --cases 10000 --seed 39
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hostile import round_of  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="how many (default 10000)")
    parser.add_argument("--seed", type=int, default=39, help="the round's seed (default 39)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    bad: list[str] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        for n, (kind, verdict) in enumerate(round_of(args.cases, args.seed, Path(work)), 1):
            counts[kind, verdict if verdict in ("ok", "refused") else "BAD"] += 1
            if verdict not in ("ok", "refused"):
                bad.append(f"case {n} ({kind}): {verdict}")
            if n % 500 == 0:
                print(f"{n} cases, {time.monotonic() - started:.0f} s", file=sys.stderr)
    print(f"hostile round: {args.cases} cases, seed {args.seed}, "
          f"{time.monotonic() - started:.0f} s")
    for kind in sorted({k for k, _ in counts}):
        row = {v: counts[kind, v] for v in ("ok", "refused", "BAD")}
        print(f"  {kind:8} {sum(row.values()):6} cases: {row['ok']} ok, {row['refused']} "
              f"refused in words, {row['BAD']} raw, hung or silently changed")
    for line in bad[:50]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
