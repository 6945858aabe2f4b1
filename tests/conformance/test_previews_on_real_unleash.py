"""The previews of the rollout commands against a real Unleash, judged by the official Python
SDK: `feature enable` (Unleash adds its default strategy: on for everyone) and then `feature
strategy set` to a 25 % rollout with variants typed out of name order; each command's
`preview` (before → after, per variant, 10,000 synthetic userIds) is what the SDK gives those
userIds once it has fetched the new state. Nothing here uses the feature search."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from real_sdk import SdkWatch, create_client_token, delete_client_token, wait_for

from flagtui.cli import main

pytestmark = pytest.mark.unleash

USERS = 10_000
FEATURES = "/api/admin/projects/default/features"


@pytest.fixture
def run(real_unleash, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))

    def invoke(*argv: str) -> dict[str, Any]:
        capsys.readouterr()
        code = main([*argv, "--yes", "-o", "json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        return dict(json.loads(out))

    return invoke


@pytest.fixture
def flag(http) -> Iterator[str]:
    """A fresh flag, archived afterwards (never deleted: see conftest's `real_feature`)."""
    name = f"previews-paths-{uuid.uuid4().hex[:10]}"
    created = http.post(FEATURES, json={"name": name, "type": "release"})
    assert created.status_code in (200, 201), created.text
    yield name
    http.delete(f"{FEATURES}/{name}")


@pytest.fixture
def sdk(real_unleash, http) -> Iterator[SdkWatch]:
    token = create_client_token(http, "production")
    watch = SdkWatch(real_unleash.url, token, "production")
    yield watch
    watch.close()
    delete_client_token(http, token)


def sdk_counts(sdk: SdkWatch, flag: str) -> tuple[int, dict[str, int]]:
    on, variants = 0, Counter[str]()
    for i in range(1, USERS + 1):
        context = {"userId": f"u-{i}"}
        on += sdk.evaluate(flag, context)
        variants[sdk.variant(flag, context)] += 1
    return on, dict(variants)


def test_the_previews_are_what_the_python_sdk_then_gives(run, http, sdk, flag) -> None:
    switched = run("feature", "enable", "default", flag, "production")["preview"]
    assert (switched["before"], switched["after"]) == (0, USERS)  # the default strategy: all
    sdk.wait_until(flag, True)
    assert sdk_counts(sdk, flag)[0] == USERS

    [strategy] = http.get(f"{FEATURES}/{flag}/environments/production/strategies").json()
    argv = ("feature", "strategy", "set", "default", flag, "production", strategy["id"])
    changed = run(*argv, "--rollout", "25", "--variant", "red", "--variant", "blue",
                  "--payload", "red=string:r", "--payload", "blue=string:b")["preview"]  # fmt: skip
    assert changed["before"] == USERS and 2_000 < changed["after"] < 3_000, changed
    split = changed["variants"]["after"]
    assert set(split) == {"blue", "red", "disabled"}, split

    def settled() -> tuple[int, dict[str, int]] | None:
        """Two counts alike: none straddled one of the SDK's refreshes (every second)."""
        first = sdk_counts(sdk, flag)
        return first if sdk_counts(sdk, flag) == first else None

    counts = wait_for(
        "the SDK serving the 25 % rollout",
        settled,
        lambda seen: seen is not None and seen[0] != USERS,
    )
    assert counts == (changed["after"], split)
