"""`flagtui context list|show|create|edit|delete` on the sandbox: golden JSON, dry runs that
send nothing, the server's state and events after each write, bad input named by field and
limit (exit 2), where a field is used, the constraints an edit of legal values leaves off the
list, a used field's delete asking for the typed name on a terminal, read-only refused."""

from __future__ import annotations

import json

from testkit.pty_term import Term

from ..conftest import event_count
from ..processes import FLAGTUI, command_env, finish
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

FLAG = "/api/admin/projects/default/features"


def stored(server, name: str) -> dict | None:
    answer = server.get(f"/api/admin/context/{name}")
    return answer.json() if answer.status_code == 200 else None


def newest(server, type_: str) -> dict:
    answer = server.get("/api/admin/search/events", params={"type": f"IS:{type_}", "limit": 1})
    return dict(answer.json()["events"][0])


def used_flag(server, field: str, values: list[str]) -> str:
    """A new flag with a production strategy constrained on `field`; its strategy's id."""
    assert server.post(FLAG, json={"name": f"uses-{field}"}).status_code == 201
    constraint = {"contextName": field, "operator": "IN", "values": values}
    path = f"{FLAG}/uses-{field}/environments/production/strategies"
    added = server.post(path, json={"name": "default", "constraints": [constraint]})
    assert added.status_code == 200, added.text
    return str(added.json()["id"])


def test_list_and_show_print_their_golden_json(run, server):
    assert_piped_golden(run, "context-list", "context", "list")
    assert_piped_golden(run, "context-show", "context", "show", "plan")


def test_create_sends_the_field_and_its_dry_run_nothing(run, server):
    argv = ("context", "create", "region", "--description", "Where",
            "--legal-value", "eu=Europe", "--legal-value", "us", "--stickiness")  # fmt: skip
    shown = run(*argv, "--dry-run").json
    assert (shown["method"], shown["path"]) == ("POST", "/api/admin/context")
    assert shown["body"] == {
        "name": "region",
        "description": "Where",
        "legalValues": [{"value": "eu", "description": "Europe"}, {"value": "us"}],
        "stickiness": True,
    }
    assert stored(server, "region") is None
    assert_dry_run_sends_nothing(run, server, "context", "create", "region2")
    result = run(*argv)
    assert result.code == 0, result.err
    assert result.json["done"] == "context-field-created"
    assert stored(server, "region")["legalValues"][0] == {"value": "eu", "description": "Europe"}
    assert newest(server, "context-field-created")["data"]["name"] == "region"
    taken = run(*argv, "-o", "table")
    assert taken.code == 2 and "NameExistsError" in taken.err


def test_bad_input_names_the_field_and_the_limit_and_sends_nothing(run, server):
    before = event_count(server)
    cases = [
        (("bad name",), "flagtui: name: 1 to 100 URL-friendly characters"),
        (("x", "--description", "d" * 251), "flagtui: description: at most 250 characters"),
        (("x", "--legal-value", "a", "--legal-value", "a"), "flagtui: legalValues[1].value:"),
        (("x", "--legal-value", "v" * 101), "flagtui: legalValues[0].value: 1 to 100"),
    ]
    for argv, said in cases:
        result = run("context", "create", *argv, "-o", "table")
        assert result.code == 2, argv
        assert result.line.startswith(said), result.line
    assert event_count(server) == before


def test_an_edit_says_no_evaluation_changes_and_names_the_constraints_left_off(run, server):
    assert run("context", "create", "tier", "--legal-value", "gold", "--legal-value",
               "silver").code == 0  # fmt: skip
    strategy = used_flag(server, "tier", ["gold", "silver"])
    before = event_count(server)
    argv = ("context", "edit", "tier", "--remove-legal-value", "silver")
    shown = run(*argv, "--dry-run").json
    assert shown["body"] == {"legalValues": [{"value": "gold"}], "stickiness": False}
    assert shown["evaluation"].startswith("SDKs never receive context fields")
    assert "no flag's evaluation changes" in shown["evaluation"]
    assert shown["noLongerLegal"] == [
        {"project": "default", "feature": "uses-tier", "environment": "production",
         "strategy_id": strategy, "strategy_name": "default", "constraint": 0,
         "values": ["silver"]}
    ]  # fmt: skip
    assert event_count(server) == before
    table = run(*argv, "-o", "table")
    assert table.code == 0, table.err
    assert "no flag's evaluation changes" in table.out
    assert f"uses-tier in production: strategy {strategy} (default)" in table.out
    assert "constraints[0] uses silver" in table.out
    assert [v["value"] for v in stored(server, "tier")["legalValues"]] == ["gold"]
    event = newest(server, "context-field-updated")
    assert event["preData"]["legalValues"] == [{"value": "gold"}, {"value": "silver"}]
    again = run(*argv, "-o", "table")
    assert again.code == 2 and "not a legal value of tier" in again.line
    described = run("context", "edit", "tier", "--description", "Plan tier", "--stickiness")
    assert described.code == 0, described.err
    assert described.json["noLongerLegal"] == []
    after = stored(server, "tier")
    assert (after["description"], after["stickiness"]) == ("Plan tier", True)
    assert [v["value"] for v in after["legalValues"]] == ["gold"]  # kept: sent whole


def test_show_and_delete_say_where_a_field_is_used(run, server):
    assert run("context", "create", "seat").code == 0
    strategy = used_flag(server, "seat", ["a"])
    shown = run("context", "show", "seat").json
    assert shown["usedBy"] == [
        {"id": strategy, "projectId": "default", "featureName": "uses-seat",
         "strategyName": "default", "environment": "production"}
    ]  # fmt: skip
    table = run("context", "show", "seat", "-o", "table").out
    assert f"uses-seat (project default): production: {strategy} (default)" in table
    refused = run("context", "delete", "seat")  # not a terminal, no --yes: not asked, not sent
    assert refused.code == 2
    warning, error = (json.loads(line) for line in refused.err.splitlines())
    assert "uses-seat (project default)" in warning["warning"]["message"]
    assert error["error"]["kind"] == "not-confirmed"
    plan = run("context", "delete", "seat", "--dry-run").json
    assert (plan["method"], plan["path"]) == ("DELETE", "/api/admin/context/seat")
    assert plan["usedBy"][0]["featureName"] == "uses-seat"
    sent = run("context", "delete", "seat", "--yes", "-o", "table")
    assert sent.code == 2 and "ConflictError" in sent.err  # the sandbox refuses, as 8.2.0
    assert stored(server, "seat") is not None


def test_delete_of_an_unused_field_records_its_event(run, server):
    assert run("context", "create", "spare").code == 0
    assert_dry_run_sends_nothing(run, server, "context", "delete", "spare")
    assert stored(server, "spare") is None
    assert newest(server, "context-field-deleted")["preData"]["name"] == "spare"
    assert run("context", "delete", "spare", "-o", "table").code == 4


def test_a_used_fields_delete_asks_for_its_typed_name_on_a_terminal(cli_env, sandbox, server):
    assert server.post("/api/admin/context", json={"name": "asked"}).status_code == 201
    used_flag(server, "asked", ["x"])
    argv = [*FLAGTUI, "context", "delete", "asked"]
    term = Term(argv, command_env(cli_env, sandbox), cols=160)
    term.wait_for(lambda t: t.has("Type 'asked' to confirm"), what="the question")
    assert term.has("uses-asked (project default): production")
    term.send("nope\r")
    assert finish(term) == 2
    assert stored(server, "asked") is not None


def test_a_read_only_profile_refuses_every_write(run, cli_env):
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    for argv in (("create", "x"), ("edit", "userId", "--stickiness"), ("delete", "userId")):
        result = run("context", *argv, "-P", "ro", "--yes")
        assert result.code == 2, argv
        assert result.error["kind"] == "read-only"
