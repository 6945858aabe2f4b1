"""What the rollout commands' tests share: the demo flags with rollouts, reading a flag's
strategies back from the sandbox, and a refusal that sent nothing."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import Run, event_count

FEATURES = "/api/admin/projects/default/features"
# the demo's first three live default-project flags get a production rollout each
# (sandbox/demo_rollouts.py): 10 % gradual, beta tenants, an A/B split
TEN_PERCENT = ("admin-async-navigation", "rollout-example-0")
BETA_TENANTS = ("admin-new-emails", "rollout-example-1")


def strategies(server: httpx.Client, flag: str, env: str) -> list[dict[str, Any]]:
    answer = server.get(f"{FEATURES}/{flag}/environments/{env}/strategies")
    assert answer.status_code == 200, answer.text
    return list(answer.json())


def refused_before_sending(run: Run, server: httpx.Client, *argv: str) -> str:
    """Exit 2 naming what is wrong (invalid-argument), no event recorded; the message."""
    before = event_count(server)
    result = run(*argv)
    assert result.code == 2, result.err
    error = result.error
    assert error["kind"] == "invalid-argument", error
    assert event_count(server) == before
    return str(error["message"])
