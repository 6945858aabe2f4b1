"""The segment commands against a real Unleash (6.10.1, 7.5.1, 8.2.0), judged as the admin sees
them: each write's event (segment-created, -updated with data and preData, -deleted), where
the segment is used, a used segment's delete refused before sending, and after an edit the
official Python SDK giving the preview's synthetic userIds what the preview said. Names are
unique; the flag is archived afterwards, the segment deleted."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from real_sdk import SdkWatch, create_client_token, delete_client_token, wait_for

from flagtui.cli import main

pytestmark = pytest.mark.unleash

USERS = 300
FEATURES = "/api/admin/projects/default/features"


@pytest.fixture
def run(real_unleash, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))

    def invoke(*argv: str) -> tuple[int, dict[str, Any]]:
        capsys.readouterr()
        code = main([*argv, "-o", "json"])
        out, err = capsys.readouterr()
        return code, dict(json.loads(out if code == 0 else err))

    return invoke


@pytest.fixture
def names(http) -> Iterator[tuple[str, str]]:
    """A segment's name and a flag's, both fresh; afterwards the flag is archived (never
    deleted: see conftest's `real_feature`) and the segment deleted if it is still there."""
    suffix = uuid.uuid4().hex[:10]
    segment, flag = f"conformance-seg-{suffix}", f"conformance-segflag-{suffix}"
    yield segment, flag
    strategies = http.get(f"{FEATURES}/{flag}/environments/production/strategies")
    if strategies.status_code == 200:  # the flag was made
        for s in strategies.json():
            http.delete(f"{FEATURES}/{flag}/environments/production/strategies/{s['id']}")
        http.delete(f"{FEATURES}/{flag}")
    for s in http.get("/api/admin/segments").json()["segments"]:
        if s["name"] == segment:
            http.delete(f"/api/admin/segments/{s['id']}")


@pytest.fixture
def sdk(real_unleash, http) -> Iterator[SdkWatch]:
    token = create_client_token(http, "production")
    watch = SdkWatch(real_unleash.url, token, "production")
    yield watch
    watch.close()
    delete_client_token(http, token)


def _event(http: httpx.Client, type_: str, name: str) -> dict[str, Any]:
    def read() -> list[dict[str, Any]]:
        params = {"type": f"IS:{type_}", "query": name, "limit": 5}
        events = http.get("/api/admin/search/events", params=params).json()["events"]
        return [e for e in events if name in (e.get("data") or e.get("preData") or {}).values()]

    return wait_for(f"the {type_} event of {name}", read, lambda found: len(found) == 1)[0]


def _on(sdk: SdkWatch, flag: str) -> int:
    return sum(sdk.evaluate(flag, {"userId": f"u-{i}"}) for i in range(1, USERS + 1))


def _settled(sdk: SdkWatch, flag: str) -> int | None:
    """Two counts alike: none straddled one of the SDK's refreshes (every second)."""
    first = _on(sdk, flag)
    return first if _on(sdk, flag) == first else None


def _users(n: int) -> str:
    return ",".join(f"u-{i}" for i in range(1, n + 1))


def test_segment_writes_their_events_and_the_sdk_after_an_edit(run, http, sdk, names) -> None:
    segment, flag = names
    code, made = run("segment", "create", segment, "--constraint", f"userId IN {_users(40)}")
    assert (code, made["done"]) == (0, "segment-created"), made
    created = _event(http, "segment-created", segment)
    assert created["data"]["id"] == made["id"] and created["preData"] is None
    assert created["data"]["constraints"][0]["values"] == _users(40).split(",")

    assert http.post(FEATURES, json={"name": flag, "type": "release"}).status_code in (200, 201)
    strategy = http.post(
        f"{FEATURES}/{flag}/environments/production/strategies",
        json={"name": "flexibleRollout", "segments": [made["id"]],
              "parameters": {"rollout": "50", "stickiness": "default", "groupId": flag}},
    ).json()  # fmt: skip
    assert http.post(f"{FEATURES}/{flag}/environments/production/on").status_code == 200
    code, shown = run("segment", "show", segment)
    assert code == 0
    assert [(u["featureName"], u["environment"], u["id"]) for u in shown["usedBy"]] == [
        (flag, "production", strategy["id"])
    ]
    sdk.wait_until(flag, False)  # known to the SDK (an empty context is not in the segment)
    before = wait_for("the SDK before the edit", lambda: _settled(sdk, flag), lambda n: n)

    argv = ("segment", "edit", segment, "--constraint", f"userId IN {_users(200)}",
            "--users", str(USERS))  # fmt: skip
    code, refused = run(*argv)  # in use, off a terminal, without --yes
    assert (code, refused["error"]["kind"]) == (2, "not-confirmed")
    code, edited = run(*argv, "--yes")
    assert (code, edited["done"]) == (0, "segment-updated"), edited
    [share] = edited["preview"]["flags"]
    assert (share["feature"], share["environment"], share["users"]) == (flag, "production", USERS)
    assert share["before"] == before
    assert share["after"] > share["before"]
    updated = _event(http, "segment-updated", segment)
    assert updated["preData"]["constraints"] == created["data"]["constraints"]
    assert updated["data"]["constraints"][0]["values"] == _users(200).split(",")

    after = wait_for(
        "the SDK serving the edited segment",
        lambda: _settled(sdk, flag),
        lambda n: n is not None and n != before,
    )
    assert after == share["after"]

    code, in_use = run("segment", "delete", segment, "--yes")
    assert (code, in_use["error"]["kind"]) == (2, "in-use")
    assert strategy["id"] in in_use["error"]["message"]
    assert segment in [s["name"] for s in http.get("/api/admin/segments").json()["segments"]]
    removed = http.delete(f"{FEATURES}/{flag}/environments/production/strategies/{strategy['id']}")
    assert removed.status_code == 200
    code, deleted = run("segment", "delete", segment, "--yes")
    assert (code, deleted["done"]) == (0, "segment-deleted"), deleted
    gone = _event(http, "segment-deleted", segment)
    assert gone["data"] is None and gone["preData"]["id"] == made["id"]


def test_bad_input_is_refused_before_sending(run, http, names) -> None:
    segment, _ = names
    code, said = run("segment", "create", segment, "--project", "no-such-project-here")
    assert (code, said["error"]["kind"]) == (2, "invalid-argument")
    assert said["error"]["message"].startswith("project: no project")
    many = [f"userId IN {_users(250)}"] * 5
    code, said = run("segment", "create", segment, *(a for c in many for a in ("--constraint", c)))
    assert said["error"]["message"].startswith("constraints: at most 1,000 values")
    assert segment not in [s["name"] for s in http.get("/api/admin/segments").json()["segments"]]
