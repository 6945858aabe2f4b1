"""`flagtui user create` and `flagtui user role` on the sandbox: the user on the server after,
the event, the password never on the command line nor in --dry-run, bad input named."""

from __future__ import annotations

import io

from .helpers import assert_piped_golden

CREATE = ("user", "create", "--name", "Cli Person", "--email", "cli.person@example.com",
          "--username", "cliperson", "--role", "Viewer")  # fmt: skip


def _user(server, email: str) -> dict | None:
    users = server.get("/api/admin/user-admin").json()["users"]
    return next((u for u in users if u["email"] == email), None)


def test_create_dry_run_prints_the_request(run, server):
    assert_piped_golden(run, "user-create-dry-run", *CREATE, "--dry-run")
    assert _user(server, "cli.person@example.com") is None


def test_create_makes_the_user_with_the_role_and_masks_the_invite_link(run, server):
    result = run(*CREATE)
    assert result.code == 0, result.err
    said = result.json
    assert (said["done"], said["rootRole"], said["rootRoleName"]) == ("user-created", 3, "Viewer")
    assert said["inviteLink"].endswith("?token=•••••")
    user = _user(server, "cli.person@example.com")
    assert user is not None and user["rootRole"] == 3
    event = server.get("/api/admin/search/events", params={"type": "IS:user-created"}).json()
    assert event["events"][0]["data"]["email"] == "cli.person@example.com"
    again = run(*CREATE)
    assert again.code == 2 and "User already exists" in again.error["message"]


def test_a_password_from_stdin_is_sent_and_never_shown(run, server, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-pass-word\n"))
    dry = run(*CREATE, "--password-stdin", "--dry-run")
    assert dry.code == 0, dry.err
    assert dry.json["body"]["password"] == "•••••" and "s3cret" not in dry.out
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-pass-word\n"))
    made = run(*CREATE, "--password-stdin")
    assert made.code == 0, made.err
    assert "s3cret" not in made.out + made.err


def test_role_changes_the_root_role_once(run, server):
    assert run(*CREATE).code == 0
    changed = run("user", "role", "cliperson", "editor")
    assert changed.code == 0, changed.err
    assert (changed.json["done"], changed.json["before"], changed.json["rootRoleName"]) == (
        "user-updated",
        "Viewer",
        "Editor",
    )
    assert _user(server, "cli.person@example.com")["rootRole"] == 2
    same = run("user", "role", "cli.person@example.com", "2")
    assert same.code == 0 and same.json["unchanged"] is True
    events = server.get("/api/admin/search/events", params={"type": "IS:user-updated"}).json()
    assert [e["data"]["rootRole"] for e in events["events"]][:1] == [2]


def test_bad_input_names_the_field(run, server):
    role = run("user", "create", "--email", "x@example.com", "--role", "Chief")
    assert role.code == 2 and "rootRole" in role.error["message"]
    nobody = run("user", "create", "--name", "No Address", "--role", "Viewer")
    assert nobody.code == 2 and "email" in nobody.error["message"]
    unknown = run("user", "role", "nobody-at-all", "Viewer")
    assert unknown.code == 4
    assert _user(server, "x@example.com") is None
