"""Profile flagtui (cProfile) in a real pty from process start until a text shows, then quit.

    python -m bench.profile_tui [--size demo|large] [--keys KEYS] [--out FILE.prof]

Starts a bench sandbox, runs `python -m cProfile -o FILE flagtui` at 80x24, waits for the first
feature name, optionally presses keys (comma-separated, e.g. `pagedown,pagedown,enter`), quits
with `q` and prints the top functions by cumulative and own time.
"""

from __future__ import annotations

import argparse
import json
import pstats
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import harness
from testkit.pty_term import Term


def summarize_collapsed(path: Path, top: int) -> None:
    """Inclusive share of samples per frame (a frame counted once per stack)."""
    from collections import Counter

    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        total += n
        for frame in set(stack.split(";")):
            inclusive[frame] += n
    print(f"{total} samples (1 ms each)")
    for frame, n in inclusive.most_common(top):
        print(f"{n:7d} {100 * n / total:5.1f}%  {frame[:150]}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="demo")
    parser.add_argument("--keys", default="")
    parser.add_argument("--area", default=None, help="area to start in (state file)")
    parser.add_argument("--out", default=str(harness.CACHE / "tui.prof"))
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument(
        "--py-spy",
        default=None,
        help="path to a py-spy binary: sample (1 kHz, real time) instead of cProfile; writes "
        "collapsed stacks to --out and prints the heaviest frames",
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="flagtui-prof-"))
    db = harness.large_database(tmp) if args.size == "large" else tmp / "demo.db"
    sb = harness.Sandbox(db, args.size)
    try:
        marker = harness.marker_of(sb.first_feature())
        home = tmp / "home"
        env = harness.base_env(home)
        env.update(UNLEASH_URL=sb.url, UNLEASH_API_TOKEN=sb.token)
        if args.area:
            state = home / "state" / "flagtui" / "state.json"
            state.parent.mkdir(parents=True)
            state.write_text(json.dumps({"env": {"area": args.area}}))
        if args.py_spy:
            argv = [args.py_spy, "record", "-r", "1000", "-f", "raw", "-o", args.out, "--",
                    harness.PY, harness.FLAGTUI]  # fmt: skip
        else:
            argv = [harness.PY, "-m", "cProfile", "-o", args.out, harness.FLAGTUI]
        with Term(argv, env, harness.COLS, harness.ROWS) as t:
            if not args.area:
                at = t.wait_for(harness.shows(marker), 60) - t.t0
                print(f"first feature shown after {at:.3f}s (under cProfile)")
            t.settle(0.3)
            for key in filter(None, args.keys.split(",")):
                t.send(key)
                t.settle(0.3, 30)
            t.send("q")
            try:
                t.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:  # flagtui leaves cleanly on SIGTERM too
                t.proc.terminate()
                t.proc.wait(timeout=15)
        if args.py_spy:
            summarize_collapsed(Path(args.out), args.top)
            return 0
        stats = pstats.Stats(args.out)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top // 2)
    finally:
        sb.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
