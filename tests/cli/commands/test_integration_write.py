"""`flagtui integration create|edit|delete` against the sandbox: what is stored, the events
recorded, refusals naming the field before anything is sent, a secret in no output, delete
asking first."""

from __future__ import annotations

import getpass
import sys

import pytest

from flagtui.masking import MASK

from ..conftest import event_count
from .helpers import assert_dry_run_sends_nothing
from .integrations import SECRET, addons, create


def newest_event(server) -> dict:
    return server.get("/api/admin/search/events", params={"limit": 1}).json()["events"][0]


@pytest.mark.parametrize("output", ["table", "json", "jsonl", "csv"])
def test_create_stores_it_and_never_shows_the_secret(run, server, output):
    before = len(addons(server))
    result = create(run, "-o", output)
    assert result.code == 0, result.err
    assert SECRET not in result.out + result.err
    stored = addons(server)
    assert len(stored) == before + 1
    new = stored[-1]
    assert (new["provider"], new["events"], new["projects"]) == (
        "webhook",
        ["feature-created"],
        ["default"],
    )
    assert newest_event(server)["type"] == "addon-config-created"
    assert SECRET not in str(newest_event(server))


def test_create_as_json_says_what_was_done(run):
    result = create(run, "-o", "json")
    assert result.json["done"] == "addon-config-created"
    assert result.json["provider"] == "webhook"
    assert isinstance(result.json["id"], int)
    assert result.json["events"] == ["feature-created"]  # a list, as `integration list` has it


def test_create_dry_run_masks_the_secret_and_sends_nothing(run, server):
    before = event_count(server)
    for output in ("json", "table"):
        result = create(run, "--dry-run", "-o", output)
        assert result.code == 0, result.err
        assert SECRET not in result.out + result.err
    assert event_count(server) == before
    sent = create(run, "--dry-run", "-o", "json").json
    assert (sent["method"], sent["path"]) == ("POST", "/api/admin/addons")
    assert sent["body"]["parameters"]["url"] == MASK


def test_create_dry_run_sends_nothing_then_the_write_does(run, server):
    assert_dry_run_sends_nothing(
        run, server, "integration", "create", "webhook", "--param", f"url={SECRET}"
    )


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (("nosuch", "--param", "url=x"), "provider"),
        (("webhook", "--param", f"url={SECRET}", "--param", "colour=red"), "--param colour"),
        (("webhook", "--param", f"url={SECRET}", "--param", "contentType"), "--param contentType"),
        (("webhook", "--param", "url="), "--param url"),
        (("webhook",), "--param url"),  # required secret, not on a terminal: not asked
        (("webhook", "--param", f"url={SECRET}", "--event", "no-such-event"), "--event"),
    ],
)
def test_bad_input_is_refused_naming_the_field_before_sending(run, server, argv, field):
    before = event_count(server)
    result = run("integration", "create", *argv)
    assert result.code == 2, result.out
    assert field in result.err
    assert SECRET not in result.out + result.err
    assert event_count(server) == before


def test_a_missing_secret_is_asked_without_echo(run, server, monkeypatch):
    asked = []

    def fake_getpass(prompt: str) -> str:
        asked.append(prompt)
        return SECRET

    monkeypatch.setattr(getpass, "getpass", fake_getpass)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    result = run("integration", "create", "webhook", "-o", "json")
    assert result.code == 0, result.err
    assert asked and "url" in asked[0]
    assert SECRET not in result.out + result.err
    assert addons(server)[-1]["provider"] == "webhook"


def test_edit_changes_what_is_given_and_keeps_the_secret(run, server):
    new_id = create(run, "-o", "json").json["id"]
    result = run(
        "integration", "edit", str(new_id), "--event", "feature-archived",
        "--description", "edited", "--disabled", "-o", "json",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert result.json["done"] == "addon-config-updated"
    edited = next(a for a in addons(server) if a["id"] == new_id)
    assert (edited["events"], edited["description"], edited["enabled"]) == (
        ["feature-archived"],
        "edited",
        False,
    )
    assert edited["projects"] == ["default"]  # not given: kept
    assert newest_event(server)["type"] == "addon-config-updated"


def test_edit_of_an_unknown_integration_is_not_found(run):
    result = run("integration", "edit", "99999", "--description", "x")
    assert result.code != 0
    assert "99999" in result.err


def test_delete_warns_and_asks_and_refuses_off_a_terminal(run, server):
    new_id = create(run, "-o", "json").json["id"]
    result = run("integration", "delete", str(new_id))
    assert result.code == 2
    assert "delivery history" in result.err
    assert f"integration disable {new_id}" in result.err
    assert any(a["id"] == new_id for a in addons(server))


def test_delete_with_yes_deletes_it_and_records_the_event(run, server):
    new_id = create(run, "-o", "json").json["id"]
    result = run("integration", "delete", str(new_id), "--yes", "-o", "json")
    assert result.code == 0, result.err
    assert result.json == {"done": "addon-config-deleted", "id": new_id}
    assert all(a["id"] != new_id for a in addons(server))
    event = newest_event(server)
    assert event["type"] == "addon-config-deleted"
    assert run("integration", "delete", str(new_id), "--yes").code != 0  # gone: 404


def test_edit_dry_run_masks_a_new_secret(run, server):
    new_id = create(run, "-o", "json").json["id"]
    other = "https://hooks.example.test/T1/other-s3cr3t"
    for output in ("json", "table"):
        result = run("integration", "edit", str(new_id), "--param", f"url={other}",
                     "--dry-run", "-o", output)  # fmt: skip
        assert result.code == 0, result.err
        assert other not in result.out + result.err
    sent = run("integration", "edit", str(new_id), "--param", f"url={other}", "--dry-run").json
    assert (sent["method"], sent["path"]) == ("PUT", f"/api/admin/addons/{new_id}")
    assert sent["body"]["parameters"]["url"] == MASK
    assert sent["body"]["events"] == ["feature-created"]  # the rest sent as it is
