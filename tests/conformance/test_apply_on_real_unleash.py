"""`flagtui apply` on a real Unleash: two flags made on the in-process sandbox (names of this
test's own, in project `default`: three strategies put out of their creation order, one
disabled, constraints on a context field of its own, strategy variants with a payload, a tag,
a dependency) exported, applied to the real server, planned again there: nothing to do; and
the official Python SDK, watching production on both servers, gives 2,000 users the same answer
for each flag. The flags are archived afterwards, the context field deleted.

The application is already running while the apply writes (an SDK, and another instance
fetching the client API all the time). Real Unleash keeps its client API's answer per revision
(the newest event it has read, once a second): an answer made in the middle of the apply is
served, half applied (the child flag still off), until the next revision. So the SDK's answers
are compared once it has fetched a revision at least as new as the apply's last write; waiting
only until it knows the flags compared a half-applied state, now and then (the sandbox answers
from its database at every fetch)."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from real_intent import flag_events_since, newest_event_id
from real_sdk import SdkWatch, create_client_token, delete_client_token, wait_for
from UnleashClient.constants import CLIENT_SPEC_VERSION

from flagtui.cli import main

pytestmark = pytest.mark.unleash
BASE = "/api/admin/projects/default/features"


def _ok(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code < 300, f"{answer.request.method} {answer.request.url.path}: " \
        f"{answer.status_code} {answer.text[:300]}"  # fmt: skip
    return answer.json() if answer.content else {}


def _made_on(http: httpx.Client, names: list[str], field: str) -> None:
    rollout, ids = names
    _ok(http.post("/api/admin/context", json={"name": field, "legalValues": []}))
    for name in names:
        _ok(http.post(BASE, json={"name": name, "type": "release", "description": "applied"}))
    at = f"{BASE}/{rollout}/environments/production/strategies"
    made = [_ok(http.post(at, json=body))["id"] for body in (
        {"name": "default", "title": "off for now", "disabled": True},
        {"name": "flexibleRollout", "title": "Rollout",
         "parameters": {"rollout": "40", "stickiness": "default", "groupId": rollout},
         "variants": [{"name": "blue", "weight": 1000, "weightType": "variable",
                       "stickiness": "default", "payload": {"type": "json", "value": "{\"a\":1}"}},
                      {"name": "red", "weight": 0, "weightType": "variable",
                       "stickiness": "default"}]},
        {"name": "flexibleRollout", "title": "ends in 7",
         "parameters": {"rollout": "100", "stickiness": "default", "groupId": rollout},
         "constraints": [{"contextName": "userId", "operator": "STR_ENDS_WITH",
                          "values": ["7"]},
                         {"contextName": field, "operator": "NOT_IN", "values": ["no"]}]},
    )]  # fmt: skip
    order = [{"id": made[i], "sortOrder": n} for n, i in enumerate((2, 1, 0))]
    _ok(http.post(f"{at}/set-sort-order", json=order))
    _ok(http.post(f"{BASE}/{ids}/environments/production/strategies", json={
        "name": "flexibleRollout", "parameters": {"rollout": "70", "stickiness": "userId",
                                                  "groupId": ids}}))  # fmt: skip
    _ok(http.post(f"/api/admin/features/{rollout}/tags",
                  json={"type": "simple", "value": f"t-{ids}"[:50]}))  # fmt: skip
    _ok(http.post(f"{BASE}/{rollout}/dependencies", json={"feature": ids}))
    for name in names:
        _ok(http.post(f"{BASE}/{name}/environments/production/on"))


USERS = 2_000  # issue 47: the official SDK evaluates 2,000 users identically on both


@pytest.fixture
def names(http) -> Iterator[list[str]]:
    suffix = uuid.uuid4().hex[:8]
    made = [f"apply-rollout-{suffix}", f"apply-ids-{suffix}", f"applyField{suffix}"]
    yield made
    for name in made[:2]:  # archived, not deleted (6.10.1, see the notes); the child first
        http.delete(f"{BASE}/{name}")
    http.delete(f"/api/admin/context/{made[2]}")  # the test's own, its flags archived


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))

    def invoke(url: str, token: str, *argv: str) -> tuple[int, str, str]:
        monkeypatch.setenv("UNLEASH_URL", url)
        monkeypatch.setenv("UNLEASH_API_TOKEN", token)
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@contextmanager
def polling(url: str, client_token: str) -> Iterator[None]:
    """Another instance of the application fetching the client API every 10 ms while the block
    runs, with the SDK's client-spec header (the same query, so the same kept answer): a fetch
    in the middle of the apply makes a half-applied state that revision's answer."""
    done = threading.Event()

    def fetch() -> None:
        headers = {"Authorization": client_token, "Unleash-Client-Spec": CLIENT_SPEC_VERSION}
        with httpx.Client(base_url=url, headers=headers) as client:
            while not done.wait(0.01):
                client.get("/api/client/features")

    fetcher = threading.Thread(target=fetch, daemon=True)
    fetcher.start()
    try:
        yield
    finally:
        done.set()
        fetcher.join()


def test_a_sandbox_export_applied_to_real_unleash_is_served_the_same(
    run, names, real_unleash, http, sandbox, tmp_path
):
    real = (real_unleash.url, real_unleash.token)
    local = (sandbox.url, sandbox.admin_token)
    path = tmp_path / "flags.toml"
    with httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token},
                      timeout=30) as sandbox_http:  # fmt: skip
        names, field = names[:2], names[2]
        _made_on(sandbox_http, names, field)
    code, _, err = run(*local, "export", "--project", "default", "--env", "production",
                       *names, "-f", str(path))  # fmt: skip
    assert code == 0, err

    real_token = create_client_token(http, "production")
    # The application runs before the apply and goes on running: an SDK watching the real
    # server and another instance fetching while the apply writes.
    watches = [SdkWatch(real_unleash.url, real_token, "production")]
    try:
        mark = newest_event_id(http)
        with polling(real_unleash.url, real_token):
            code, out, err = run(*real, "apply", str(path), "--yes", "-o", "json")
        assert code == 0, err
        done = json.loads(out)["apply"]
        assert done["complete"] and {s["outcome"] for s in done["steps"]} == {"done"}
        assert (field, "create context field") == (done["steps"][0]["flag"],
                                                   done["steps"][0]["what"])  # fmt: skip
        assert {b["state"] for b in done["readBack"]} == {"as the file"}
        # Known is not enough: the flags are known from the first half of the apply on. The
        # real SDK must have fetched a revision at least as new as the apply's last write.
        last = max(e["id"] for name in names for e in flag_events_since(http, name, mark))
        watches[0].wait_for_revision(last)
        watches.append(SdkWatch(sandbox.url, sandbox.client_token, "production"))
        for name in names:  # the sandbox's answer is never older than its last write
            wait_for(f"the sandbox's SDK knowing {name}", lambda n=name: watches[1].evaluation(n),
                     lambda known: known is not None)  # fmt: skip
        users = [{"userId": f"u-{i}", "sessionId": f"s-{i}"} for i in range(1, USERS + 1)]
        for name in names:
            answers = [[w.answer(name, u) for u in users] for w in watches]
            assert answers[0] == answers[1], name
            served = sum(a["enabled"] for a in answers[0])
            assert 0 < served < USERS, (name, served)  # a rollout, not all or nothing
        code, out, err = run(*real, "plan", str(path), "-o", "json")
        assert code == 0 and json.loads(out)["changes"] is False, out + err
        code, again, err = run(*real, "export", "--project", "default", "--env", "production",
                               *names)  # fmt: skip
        assert code == 0, err
        # The same bytes, but for the links a version that has them lists (none here): the
        # sandbox's flags have no `links` field, 8.x's do.
        assert again.replace("links = []\n", "") == path.read_text(encoding="utf-8")
    finally:
        for watch in watches:
            watch.close()
        delete_client_token(http, real_token)
