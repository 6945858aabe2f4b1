"""`flagtui token list|create|revoke` on the sandbox: the secret printed once by create and
masked everywhere else (list, --dry-run, the event log); revoke by name or ref, confirmed."""

from __future__ import annotations

import json
from urllib.parse import quote

from .helpers import assert_piped_golden

CREATE = ("token", "create", "sdk-cli", "--env", "development", "--project", "default")


def _listed(server) -> dict[str, dict]:
    return {t["tokenName"]: t for t in server.get("/api/admin/api-tokens").json()["tokens"]}


def test_create_dry_run_prints_the_request_and_sends_nothing(run, server):
    assert_piped_golden(run, "token-create-dry-run", *CREATE, "--dry-run")
    assert "sdk-cli" not in _listed(server)


def test_create_prints_the_secret_once_and_list_masks_it(run, server):
    created = run(*CREATE)
    assert created.code == 0, created.err
    answer = created.json
    secret = _listed(server)["sdk-cli"]["secret"]
    assert answer["done"] == "api-token-created" and answer["secret"] == secret
    assert answer["shownOnce"] is True
    listed = run("token", "list")
    assert listed.code == 0, listed.err
    assert secret not in listed.out
    row = next(t for t in listed.json if t["tokenName"] == "sdk-cli")
    assert row["secret"] == "default:development.•••••"
    assert (row["type"], row["projects"], row["orphaned"], row["legacy"]) == (
        "client",
        ["default"],
        False,
        False,
    )
    assert row["ref"] == answer["ref"]
    table = run("token", "list", "-o", "table")
    assert secret not in table.out and "sdk-cli" in table.out
    events = run("event", "search", "--type", "api-token-created", "-o", "json")
    assert events.code == 0, events.err
    assert "sdk-cli" in events.out and secret not in events.out


def test_the_table_output_shows_the_secret_once_too(run, server):
    created = run(*CREATE, "-o", "table")
    assert created.code == 0, created.err
    secret = _listed(server)["sdk-cli"]["secret"]
    assert created.out.count(secret) == 1 and "shown this once" in created.out


def test_revoke_needs_the_typed_name_or_yes_and_its_dry_run_masks_the_path(run, server):
    assert run(*CREATE).code == 0
    secret = _listed(server)["sdk-cli"]["secret"]
    refused = run("token", "revoke", "sdk-cli")
    assert refused.code == 2 and "needs --yes" in refused.err
    dry = run("token", "revoke", "sdk-cli", "--dry-run")
    assert dry.code == 0, dry.err
    assert dry.json["path"] == "/api/admin/api-tokens/default:development.•••••"
    assert secret not in dry.out and "sdk-cli" in _listed(server)
    done = run("token", "revoke", "sdk-cli", "--yes")
    assert done.code == 0, done.err
    assert done.json["done"] == "api-token-deleted"
    assert "sdk-cli" not in _listed(server)
    assert server.get("/api/client/features", headers={"Authorization": secret}).status_code == 401


def test_two_tokens_of_one_name_are_told_apart_by_ref(run, server):
    assert run(*CREATE).code == 0 and run(*CREATE).code == 0
    ambiguous = run("token", "revoke", "sdk-cli", "--yes")
    assert ambiguous.code == 2
    assert "2 tokens are named 'sdk-cli'" in ambiguous.error["message"]
    refs = [t["ref"] for t in run("token", "list").json if t["tokenName"] == "sdk-cli"]
    assert run("token", "revoke", refs[0], "--yes").code == 0
    assert [t["ref"] for t in run("token", "list").json if t["tokenName"] == "sdk-cli"] == refs[1:]


def test_bad_input_names_the_field_and_nothing_is_sent(run, server):
    before = set(_listed(server))
    wrong_type = run("token", "create", "x", "--env", "development", "--type", "admin")
    assert wrong_type.code == 2 and "type" in wrong_type.error["message"]
    star = run("token", "create", "x", "--env", "*")
    assert star.code == 2 and "environment" in star.error["message"]
    date = run("token", "create", "x", "--env", "development", "--expires-at", "soon")
    assert date.code == 2 and "--expires-at" in date.err
    assert set(_listed(server)) == before


def test_an_error_never_names_the_secret(run, server):
    """The server's refusal of a revoke names the request's path, masked."""
    assert run(*CREATE).code == 0
    secret = _listed(server)["sdk-cli"]["secret"]
    server.delete(f"/api/admin/api-tokens/{quote(secret, safe='')}")
    missing = run("token", "revoke", "sdk-cli", "--yes")
    assert missing.code == 4 and secret not in missing.err
    assert json.loads(missing.err)["error"]["message"] == "no API token named 'sdk-cli'"
