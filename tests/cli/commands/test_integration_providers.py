"""`flagtui integration providers`: the server's provider definitions (JSON: as the server
lists them), and in a table each one's parameters, required and secret ones marked, never cut."""

from __future__ import annotations


def test_lists_the_servers_providers_and_their_parameters(run, server):
    listed = run("integration", "providers", "-o", "json")
    assert listed.code == 0, listed.err
    at_server = server.get("/api/admin/addons").json()["providers"]
    assert [p["name"] for p in listed.json] == [p["name"] for p in at_server]
    table = run("integration", "providers", "-o", "table")
    assert table.code == 0, table.err
    webhook = next(line for line in table.out.splitlines() if line.startswith("webhook "))
    assert "url* (secret)" in webhook and "authorization (secret)" in webhook
    spec = next(p for p in at_server if p["name"] == "webhook")["parameters"]
    assert all(parameter["name"] in webhook for parameter in spec)  # the whole list
