"""`flagtui integration edit` against another admin's change (issue 43, item 3): the record is
read, then the secret asked; when another admin changed the integration meanwhile nothing is
sent (exit 2), what changed and who changed it said; with --anyway the options given are
applied to the integration as it is now, theirs kept."""

from __future__ import annotations

from testkit.pty_term import Term
from testkit.second_admin import second_admin

from ..processes import FLAGTUI, command_env, finish
from .integrations import addons, create, stored_parameters

NEW_SECRET = "https://hooks.example.test/T0/new-s3cr3t"


def theirs(server, token: str, addon_id: int, events: list[str]) -> None:
    """Another admin sets the integration's events (its secret sent back masked: kept)."""
    [current] = [a for a in addons(server) if a["id"] == addon_id]
    keys = ("provider", "enabled", "description", "parameters", "projects", "environments")
    body = {**{k: current[k] for k in keys}, "events": events}
    answer = server.put(f"/api/admin/addons/{addon_id}", json=body,
                        headers={"Authorization": token})  # fmt: skip
    assert answer.status_code == 200, answer.text


def edit(cli_env, sandbox, addon_id: int, *extra: str) -> Term:
    argv = [*FLAGTUI, "integration", "edit", str(addon_id), "--param", "url",
            "--description", "mine", *extra]  # fmt: skip
    term = Term(argv, command_env(cli_env, sandbox), cols=200)
    term.wait_for(lambda t: t.has("url (not shown)"), what="the secret asked, the record read")
    return term


def test_a_change_made_while_the_secret_is_asked_stops_the_edit(run, cli_env, sandbox, server):
    addon_id = create(run, "-o", "json").json["id"]
    before = stored_parameters(sandbox)["url"]
    token, who = second_admin(sandbox)
    term = edit(cli_env, sandbox, addon_id)
    theirs(server, token, addon_id, ["feature-created", "feature-archived"])
    term.send(NEW_SECRET + "\r")
    assert finish(term) == 2
    said = term.text()
    assert 'changed since read: events: shown ["feature-created"], now' in said
    assert f"addon-config-updated by {who} at " in said and "nothing sent" in said
    [after] = [a for a in addons(server) if a["id"] == addon_id]
    assert after["events"] == ["feature-created", "feature-archived"]  # theirs, untouched
    assert after["description"] == "ci" and stored_parameters(sandbox)["url"] == before


def test_anyway_applies_the_options_to_the_integration_as_it_is_now(run, cli_env, sandbox, server):
    addon_id = create(run, "-o", "json").json["id"]
    token, who = second_admin(sandbox)
    term = edit(cli_env, sandbox, addon_id, "--anyway")
    theirs(server, token, addon_id, ["feature-created", "feature-revived"])
    term.send(NEW_SECRET + "\r")
    assert finish(term) == 0
    said = term.text()
    assert f"addon-config-updated by {who} at " in said
    assert "applied to the integration as it is now" in said and NEW_SECRET not in said
    [after] = [a for a in addons(server) if a["id"] == addon_id]
    assert after["events"] == ["feature-created", "feature-revived"]  # nothing of theirs lost
    assert after["description"] == "mine" and stored_parameters(sandbox)["url"] == NEW_SECRET
