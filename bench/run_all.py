"""Run every ``bench/bench_*.py`` in its own process (so peak memory is per benchmark)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if len(sys.argv) > 1:
        scripts = [s for s in scripts if any(name in s.name for name in sys.argv[1:])]
    failed = []
    for script in scripts:
        print(f"\n==> {script.name}", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"<== {script.name}: exit {code}, {time.perf_counter() - started:.0f} s", flush=True)
        if code:
            failed.append(script.name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
