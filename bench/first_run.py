"""A newcomer's first run, measured: fresh clone, empty package caches, `./dev demo` in a real
pseudo-terminal (120x40) until the demo's first rows are on screen.

    python -m bench.first_run [--runs N] [--repo PATH_OR_URL]

Each run clones the repository (HEAD of the checkout by default) into a new temporary folder,
points HOME, the XDG folders and uv's and pip's caches into it, and times each step by the
moment its line reaches the terminal: the virtualenv, the installer, flagtui's install, the
demo data, the first rows. Prints one JSON object per run. Nothing here runs in the test suite:
it needs the network (the package index) and takes a quarter of a minute per run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from testkit.pty_term import Term

HERE = Path(__file__).resolve().parent.parent

# Lines `./dev demo` and `flagtui demo` print, in order, and what each one starts.
STEPS = (
    ("dev: creating the virtualenv", "venv"),
    ("dev: installing uv", "uv"),
    ("dev: installing flagtui", "install"),
    ("Creating demo data", "demo data"),
)
FIRST_ROWS = "page 1/"


def one_run(repo: str) -> dict[str, float]:
    root = Path(tempfile.mkdtemp(prefix="flagtui-first-run-"))
    try:
        checkout = root / "flagtui"
        subprocess.run(["git", "clone", "--quiet", repo, str(checkout)], check=True)
        home = root / "home"
        # The machine's own settings (proxy, certificates, index) stay; flagtui's are dropped.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("UNLEASH_", "FLAGTUI_"))}
        env |= {
            "HOME": str(home),
            "TERM": "xterm-256color",
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "UV_CACHE_DIR": str(root / "uv-cache"),
            "PIP_CACHE_DIR": str(root / "pip-cache"),
        }
        times: dict[str, float] = {}
        with Term(["./dev", "demo"], env, 120, 40, cwd=str(checkout)) as term:

            def seen(t: Term) -> bool:
                text = t.text()
                for line, step in STEPS:
                    if step not in times and line in text:
                        times[step] = t.last_arrival - t.t0
                return FIRST_ROWS in text

            times["first rows"] = term.wait_for(seen, 300, "the demo's first rows") - term.t0
        return {step: round(seconds, 2) for step, seconds in times.items()}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--repo", default=str(HERE), help="what to clone (default: this checkout)")
    args = parser.parse_args()
    for _ in range(args.runs):
        print(json.dumps(one_run(args.repo)), flush=True)


if __name__ == "__main__":
    main()
