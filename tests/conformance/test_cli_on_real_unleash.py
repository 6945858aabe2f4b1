"""The scriptable commands against a real Unleash OSS: reads, writes read back, the integration
switch, exit 5 for the Enterprise-only commands (project access, change requests), and exit 7 for
a patch the server applied behind a gateway that answered 504 (`tests/gateway.py`)."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from gateway import Gateway, gateway_page
from real_intent import wait_for_stage
from real_webhook import retire_webhook

from flagtui.masking import MASK

pytestmark = pytest.mark.unleash


@pytest.fixture
def flag(http) -> Iterator[str]:
    name = f"cli-conformance-{uuid.uuid4().hex[:10]}"
    created = http.post("/api/admin/projects/default/features", json={"name": name})
    assert created.status_code in (200, 201), created.text
    yield name
    http.delete(f"/api/admin/projects/default/features/{name}")


@pytest.fixture
def webhook(http) -> Iterator[int]:
    """A webhook of this test alone (the session's shared one is never switched off)."""
    created = http.post(
        "/api/admin/addons",
        json={
            "provider": "webhook",
            "description": f"flagtui cli conformance {uuid.uuid4().hex[:8]}",
            "enabled": True,
            "parameters": {"url": "http://127.0.0.1:9/cli-switch", "contentType": "text/plain"},
            "events": ["feature-created"],
            "projects": [],
            "environments": [],
        },
    )
    assert created.status_code in (200, 201), created.text
    yield created.json()["id"]
    retire_webhook(http, created.json()["id"])


def test_reads(run, flag):
    code, out, err = run("feature", "show", "default", flag)
    assert (code, err) == (0, "")
    assert json.loads(out)["name"] == flag
    for argv in (
        ["type", "list"],
        ["integration", "list"],
        ["env", "list", "default"],
        ["event", "search", "--limit", "3"],
        ["feature", "list", "--project", "default", "--search", flag],
        ["user", "search", "admin"],
    ):
        code, out, err = run(*argv)
        assert (code, err) == (0, ""), argv
        assert isinstance(json.loads(out), list)
    code, out, _ = run("feature", "list", "--project", "default", "--search", flag)
    assert [f["name"] for f in json.loads(out)] == [flag]


def test_event_search_keeps_the_servers_label_and_summary(run, flag, http):
    """GET /search/events (what flagtui reads from 7.0) names events for people; the POST
    search of 6.x does not."""
    code, out, err = run("event", "search", "--feature", flag, "--limit", "5")
    assert code == 0, err
    created = next(e for e in json.loads(out) if e["type"] == "feature-created")
    version = http.get("/api/admin/ui-config").json()["version"]
    if int(version.split(".")[0]) < 7:
        assert "label" not in created and "summary" not in created
        return
    assert created["label"] == "Flag created"
    assert f"**{flag}**" in created["summary"] or f"[{flag}](" in created["summary"]
    code, table, _ = run("event", "search", "--feature", flag, "--limit", "5", "-o", "table")
    assert "Flag created" in table


def test_patch_and_dry_run(run, flag, http):
    path = f"/api/admin/projects/default/features/{flag}"
    code, out, _ = run("feature", "patch", "default", flag, "--set", "description=dry", "--dry-run")
    assert code == 0
    assert json.loads(out)["method"] == "PATCH"
    assert http.get(path).json()["description"] in ("", None)
    code, out, err = run("feature", "patch", "default", flag, "--set", "description=from cli")
    assert code == 0, err
    assert http.get(path).json()["description"] == "from cli"


def test_a_patch_applied_behind_a_gateway_that_answered_504_is_7(
    run, flag, http, real_unleash, monkeypatch
):
    with Gateway(real_unleash.url, answer=gateway_page(504)) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)  # its token: UNLEASH_API_TOKEN
        code, out, err = run("feature", "patch", "default", flag, "--set", "description=behind")
    assert (code, out) == (7, "")
    error = json.loads(err)["error"]
    assert (error["kind"], error["status"], error["method"]) == ("outcome-unknown", 504, "PATCH")
    assert error["message"].startswith("the gateway answered 504 after the request was sent")
    assert gateway.count("PATCH") == 1
    path = f"/api/admin/projects/default/features/{flag}"
    assert http.get(path).json()["description"] == "behind"


def test_not_found_is_4(run):
    code, _, err = run("feature", "show", "default", f"missing-{uuid.uuid4().hex[:8]}")
    assert code == 4
    assert json.loads(err)["error"]["kind"] == "not-found"


@pytest.mark.parametrize(
    "argv",
    [
        ["access", "grant", "default", "--role", "4", "--user", "1"],
        ["cr", "list", "default"],
        ["cr", "delete", "default", "1", "--yes"],
    ],
)
def test_enterprise_commands_are_5_on_oss(run, argv):
    code, out, err = run(*argv)
    assert code == 5
    assert out == ""
    error = json.loads(err)["error"]
    assert error["kind"] == "not-supported"
    assert re.search(r"needs? Unleash Enterprise", error["message"]), error["message"]


def addon(http, addon_id: int) -> dict:
    return next(a for a in http.get("/api/admin/addons").json()["addons"] if a["id"] == addon_id)


def test_integration_disable_and_enable(run, http, webhook):
    before = addon(http, webhook)
    code, out, err = run("integration", "disable", str(webhook), "--yes")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["enabled"] is False
    assert shown["parameters"]["url"] == MASK  # the answer's stored secret is not printed
    after = addon(http, webhook)
    assert after == {**before, "enabled": False}
    code, _, err = run("integration", "enable", str(webhook))
    assert code == 0, err
    assert addon(http, webhook) == before
    events = http.get(
        "/api/admin/search/events", params={"type": "IS:addon-config-updated", "limit": 5}
    ).json()["events"]
    assert [e["data"]["enabled"] for e in events if e["data"]["id"] == webhook][:2] == [True, False]


def test_failures_with_fail_on_failures(run, real_webhook):
    code, out, _ = run("failures", "--integration", str(real_webhook), "--fail-on-failures")
    assert code == 1
    assert {d["integrationId"] for d in json.loads(out)} == {real_webhook}


def test_probe_reads_the_url_real_unleash_masks_from_a_delivery_and_says_refused(run, real_webhook):
    """Issue 48, item 5: real Unleash lists a webhook's URL masked; its delivery names it."""
    code, out, _ = run("integration", "probe", str(real_webhook), "-o", "json")
    assert code == 6
    shown = json.loads(out)
    assert shown["targetFrom"] == "the URL a delivery of it was sent to"
    assert shown["target"] == f"http://127.0.0.1:9/{MASK}" and "conformance-hook" not in out
    tcp = next(s for s in shown["steps"] if s["step"] == "tcp")
    assert tcp["detail"] == "connection refused (127.0.0.1:9)"


def test_failures_group_names_the_real_webhook_once(run, real_webhook):
    code, out, _ = run("failures", "--group", "--integration", str(real_webhook), "-o", "json")
    assert code == 0
    (group,) = json.loads(out)
    assert group["errorKey"].startswith("Webhook request failed with status code: ")
    assert group["count"] >= 1 and group["newestChange"]["type"]


def spare_searches(http: httpx.Client, wanted: int) -> None:
    """Real Unleash allows 15 feature searches a minute per client address, and the suite's
    other tests spend them too: with fewer than `wanted` left, wait for the window's reset
    (the server says when), so no search of the test meets a 429. The probe is one search."""
    probe = http.get("/api/admin/search/features", params={"limit": 1})
    left = int(probe.headers.get("RateLimit-Remaining", "0"))
    if probe.status_code == 429 or left < wanted:
        reset = probe.headers.get("RateLimit-Reset") or probe.headers.get("Retry-After") or "60"
        time.sleep(float(reset) + 1)


@pytest.mark.timeout(300)  # up to two waits for the server's search window, a minute each
def test_a_listing_of_one_page_is_the_listing_of_many(run, http, monkeypatch):
    """`feature list` on real Unleash: its first page, searched while the client connects, and
    a listing of several pages (each after the one before) list the same flags, field for
    field, every flag once."""
    from flagtui.cli.commands import feature_list

    prefix = f"cli-list-{uuid.uuid4().hex[:8]}"
    names = [f"{prefix}-{n}" for n in range(5)]
    for name in names:
        created = http.post("/api/admin/projects/default/features", json={"name": name})
        assert created.status_code in (200, 201), created.text
    try:
        # Unleash writes a new flag's first stage in an event handler, after answering: a
        # listing read before it has no lifecycle, one read after has "initial".
        for name in names:
            wait_for_stage(http, "default", name, "initial")
        spare_searches(http, 4)  # one for the listing of one page, 3 for the paged one
        argv = ("feature", "list", "--project", "default", "--search", prefix, "-o", "json")
        code, one_page, err = run(*argv)
        assert (code, err) == (0, "")
        assert sorted(f["name"] for f in json.loads(one_page)) == names
        monkeypatch.setattr(feature_list, "FEATURE_PAGE", 2)  # 3 pages
        code, paged, err = run(*argv)
        assert (code, err) == (0, "")
        assert json.loads(paged) == json.loads(one_page)
    finally:
        for name in names:
            http.delete(f"/api/admin/projects/default/features/{name}")
        # The tests after it search too (the archived flags' search): they get the window this
        # test found, not what is left of it.
        spare_searches(http, 14)
