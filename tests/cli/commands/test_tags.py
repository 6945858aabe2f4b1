"""`flagtui tag list|add|remove` and `tag type list|create`: golden JSON, dry runs, the flags'
tags and the events at the server afterwards; what is already as asked sends nothing; bad
tags name the field and the limit; several flags are one request."""

from __future__ import annotations

import httpx

from ..conftest import Run, event_count
from .helpers import assert_dry_run_sends_nothing, assert_piped_golden

FLAG, OTHER = "tagged-one", "tagged-two"


def flags(server: httpx.Client, *names: str) -> None:
    for name in names:
        created = server.post("/api/admin/projects/default/features", json={"name": name})
        assert created.status_code == 201, created.text


def tags_of(server: httpx.Client, name: str) -> list[tuple[str, str]]:
    tags = server.get(f"/api/admin/features/{name}/tags").json()["tags"]
    return [(t["type"], t["value"]) for t in tags]


def events(server: httpx.Client, name: str) -> list[str]:
    found = server.get("/api/admin/search/events", params={"feature": f"IS:{name}"}).json()
    return [e["type"] for e in found["events"]]


def test_prints_its_answers_as_json_when_piped(run: Run, server: httpx.Client) -> None:
    flags(server, FLAG)
    assert_piped_golden(run, "tag-add", "tag", "add", "default", FLAG, "--tag", "simple:q1")
    assert_piped_golden(run, "tag-list", "tag", "list", FLAG)
    assert_piped_golden(run, "tag-type-list", "tag", "type", "list")
    assert_piped_golden(run, "tag-type-create", "tag", "type", "create", "squad")


def test_dry_runs_send_nothing(run: Run, server: httpx.Client) -> None:
    flags(server, FLAG, OTHER)
    assert_dry_run_sends_nothing(run, server, "tag", "add", "default", FLAG, "--tag", "aa")
    assert_dry_run_sends_nothing(run, server, "tag", "add", "default", FLAG, OTHER, "--tag", "bb")
    assert_dry_run_sends_nothing(run, server, "tag", "remove", "default", FLAG, "--tag", "aa")
    assert_dry_run_sends_nothing(run, server, "tag", "type", "create", "squad-x")


def test_add_then_remove_sends_only_what_changes(run: Run, server: httpx.Client) -> None:
    flags(server, FLAG)
    added = run("tag", "add", "default", FLAG, "--tag", "simple:q1", "--tag", "simple:q2")
    assert added.code == 0, added.err
    assert added.json["done"] == "feature-tagged"
    assert tags_of(server, FLAG) == [("simple", "q1"), ("simple", "q2")]
    before = event_count(server)
    again = run("tag", "add", "default", FLAG, "--tag", "q1")  # no colon: the simple type
    assert again.code == 0 and again.json["done"] is None
    assert again.json["unchanged"] == "already tagged simple:q1"
    absent = run("tag", "remove", "default", FLAG, "--tag", "simple:zz")
    assert absent.code == 0 and absent.json["unchanged"] == "not tagged simple:zz"
    assert event_count(server) == before  # real Unleash records an event for either
    removed = run("tag", "remove", "default", FLAG, "--tag", "simple:q1")
    assert removed.code == 0 and removed.json["tags"] == [{"type": "simple", "value": "q2"}]
    assert tags_of(server, FLAG) == [("simple", "q2")]
    assert events(server, FLAG)[:3] == ["feature-untagged", "feature-tagged", "feature-tagged"]


def test_several_flags_are_one_request_each_said(run: Run, server: httpx.Client) -> None:
    flags(server, FLAG, OTHER)
    result = run("tag", "add", "default", FLAG, OTHER, "--tag", "simple:both")
    assert result.code == 0, result.err
    assert [(r["featureName"], r["done"]) for r in result.json] == [
        (FLAG, "feature-tagged"), (OTHER, "feature-tagged")
    ]  # fmt: skip
    assert tags_of(server, FLAG) == tags_of(server, OTHER) == [("simple", "both")]
    elsewhere = run("tag", "add", "default", FLAG, "no-such-flag", "--tag", "simple:xx")
    assert elsewhere.code == 2
    assert elsewhere.error["message"] == "NAME: no-such-flag: no live flag of project default"
    assert tags_of(server, FLAG) == [("simple", "both")]


def test_bad_tags_name_the_field_and_the_limit(run: Run, server: httpx.Client) -> None:
    flags(server, FLAG)
    before = event_count(server)
    short = run("tag", "add", "default", FLAG, "--tag", "simple:x")
    assert short.code == 2
    assert short.error["message"] == "TAG: 'simple:x': a tag's value has 2 to 50 characters"
    unknown = run("tag", "add", "default", FLAG, "--tag", "nosuch:xy")
    assert unknown.code == 2 and "none of the server's tag types" in unknown.error["message"]
    bad_type = run("tag", "type", "create", "a b")
    assert bad_type.code == 2 and bad_type.error["message"].startswith("NAME: a tag type name of")
    missing = run("tag", "add", "default", "no-such-flag", "--tag", "simple:xy")
    assert missing.code == 4
    assert event_count(server) == before


def test_a_tag_type_is_created_once(run: Run, server: httpx.Client) -> None:
    created = run("tag", "type", "create", "squad", "--description", "who owns it")
    assert created.code == 0 and created.json == {"done": "tag-type-created", "name": "squad"}
    got = server.get("/api/admin/tag-types/squad").json()["tagType"]
    assert got["description"] == "who owns it"
    taken = run("tag", "type", "create", "squad")
    assert taken.code == 2 and taken.error["kind"] == "invalid-request"  # 409 NameExistsError
    flags(server, FLAG)
    assert run("tag", "add", "default", FLAG, "--tag", "squad:payments").code == 0
    assert tags_of(server, FLAG) == [("squad", "payments")]
