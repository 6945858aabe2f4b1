"""`flagtui integration deliveries`: golden JSON, and a `--limit` read page by page."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "integration-deliveries", "integration", "deliveries", "2", "--failed")


def test_integration_deliveries_pages_to_reach_the_limit(run, sandbox, server):
    """Real Unleash (and the sandbox) answer 50 to a limit over 100: a larger --limit pages."""
    sandbox.use_database(sandbox.db_path, keep_all_deliveries=True)
    newest = server.get("/api/admin/addons/2/events", params={"limit": 100, "offset": 0})
    older = server.get("/api/admin/addons/2/events", params={"limit": 100, "offset": 100})
    on_server = [
        d["id"] for d in newest.json()["integrationEvents"] + older.json()["integrationEvents"]
    ]
    assert len(on_server) > 120, "the demo keeps enough deliveries of integration 2"
    shown = run("integration", "deliveries", "2", "--limit", "120").json
    assert [d["id"] for d in shown] == on_server[:120]
    refused = run("integration", "deliveries", "2", "--limit", "0")
    assert (refused.code, refused.error["message"]) == (2, "--limit: at least 1 (it is 0)")
