"""`flagtui api` against real Unleash OSS (8.2.0, 7.5.1, 6.10.1): a GET of the projects with
--paginate (not a paged answer: one request, printed as it came), a POST that creates a tag type
of a unique name whose tag-type-created event is then found by paging the event search one
row at a time, its DELETE, an answer that is not a success, and a read-only profile that sends
nothing but reads."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from gateway import Gateway

pytestmark = pytest.mark.unleash


@pytest.fixture
def tag_type(http) -> Iterator[str]:
    """A unique tag type name, deleted afterwards if the test left it."""
    name = f"api-conformance-{uuid.uuid4().hex[:10]}"
    yield name
    if http.get(f"/api/admin/tag-types/{name}").status_code == 200:
        http.delete(f"/api/admin/tag-types/{name}")


def test_get_projects_with_paginate_is_one_request_printed_whole(
    run, http, real_unleash, monkeypatch
):
    with Gateway(real_unleash.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        code, out, err = run("api", "GET", "/api/admin/projects", "--paginate")
    assert code == 0, err
    answer = json.loads(out)
    plain = http.get("/api/admin/projects").json()
    assert set(answer) == set(plain) == {"version", "projects"}
    assert [p["id"] for p in answer["projects"]] == [p["id"] for p in plain["projects"]]
    assert "default" in [p["id"] for p in answer["projects"]]
    assert [(r.method, r.path) for r in gateway.received] == [("GET", "/api/admin/projects")]


def test_a_post_creates_and_its_event_is_found_by_paging(run, http, tag_type):
    code, out, err = run(
        "api", "POST", "/api/admin/tag-types", "-f", f"name={tag_type}", "-f", "description=api",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["name"] == tag_type
    assert http.get(f"/api/admin/tag-types/{tag_type}").json()["tagType"]["name"] == tag_type

    code, out, err = run(
        "api", "GET", "api/admin/search/events", "-f", "type=IS:tag-type-created",
        "-F", "limit=1", "--paginate",
    )  # fmt: skip
    assert code == 0, err
    paged = json.loads(out)
    ids = [e["id"] for e in paged["events"]]
    assert len(ids) == len(set(ids)) and len(ids) >= min(paged["total"], 2)
    assert {e["type"] for e in paged["events"]} == {"tag-type-created"}
    [ours] = [e for e in paged["events"] if e["data"]["name"] == tag_type]
    assert ours["data"] == {"name": tag_type, "description": "api"}

    code, _, err = run("api", "DELETE", f"/api/admin/tag-types/{tag_type}")
    assert code == 0, err
    assert http.get(f"/api/admin/tag-types/{tag_type}").status_code == 404


def test_an_error_answer_is_printed_and_its_exit_code_said(run):
    missing = f"/api/admin/projects/default/features/api-missing-{uuid.uuid4().hex[:8]}"
    code, out, err = run("api", "GET", missing, "-o", "json")
    assert code == 4
    assert json.loads(out)["name"] == "NotFoundError"
    assert json.loads(err)["error"]["kind"] == "not-found"
    code, out, err = run("api", "POST", "/api/admin/tag-types", "-F", "description=1", "-o", "json")
    assert code == 2 and json.loads(out)["name"] == "BadDataError"


def test_a_read_only_profile_reads_and_sends_no_write(run, http, real_unleash, tmp_path, tag_type):
    (tmp_path / "config.toml").write_text(
        f'[profiles.ro]\nurl = "{real_unleash.url}"\nread_only = true\n'
    )
    code, out, err = run("api", "POST", "/api/admin/tag-types", "-f", f"name={tag_type}",
                         "-P", "ro", "-o", "json")  # fmt: skip
    assert code == 2 and json.loads(err)["error"]["kind"] == "read-only"
    assert http.get(f"/api/admin/tag-types/{tag_type}").status_code == 404
    code, out, err = run("api", "GET", "/api/admin/tag-types", "-P", "ro")
    assert code == 0, err
    assert tag_type not in out
