"""The official Node SDK (npm `unleash-client`, pinned in scripts/sdk-node) asked what an
application gets for one flag over many contexts: scripts/sdk-node/evaluate.mjs fetches the
client API once with a client token (given on stdin, never in argv) and answers each context
as `tests/real_sdk.py`'s `SdkWatch.answer` answers it. Installed by `npm ci` in
scripts/sdk-node (.ci/run does it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

NODE_DIR = Path(__file__).parents[1] / "scripts" / "sdk-node"
HANG_S = 300  # only ends a hung process: never a statement about speed
NOT_INSTALLED = "the Node SDK is not installed: (cd scripts/sdk-node && npm ci)"


def installed() -> bool:
    return shutil.which("node") is not None and (NODE_DIR / "node_modules/unleash-client").is_dir()


def node_answers(
    url: str, client_token: str, environment: str, flag: str, contexts: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    asked = {
        "url": url,
        "token": client_token,
        "appName": "flagtui-node-sdk",
        "environment": environment,
        "flag": flag,
        "contexts": contexts,
    }
    done = subprocess.run(
        ["node", "evaluate.mjs"],
        cwd=NODE_DIR,
        input=json.dumps(asked),
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )
    assert done.returncode == 0, (
        f"the Node SDK failed (exit {done.returncode}): {done.stderr[-2000:]}"
    )
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    assert len(answers) == len(contexts), len(answers)
    return answers
